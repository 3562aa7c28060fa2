package dev.rein.store.jdbc;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolOutput;
import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
import java.nio.file.Path;

/**
 * The agent process of {@link CrashSafetyTest}. It looks up an order, then charges it (an
 * IRREVERSIBLE call that needs approval), against a SQLite store and a file-based payment API.
 * Depending on the mode it stops dead at one point and prints a marker, so the test can kill it
 * exactly there:
 *
 * <ul>
 *   <li>{@code start}: runs until the charge waits for approval, prints {@code PAUSED}, hangs;</li>
 *   <li>{@code hang-before-effect}: resumes; the handler prints {@code BEFORE_EFFECT} and hangs before charging;</li>
 *   <li>{@code hang-after-effect}: resumes; the handler charges, prints {@code EFFECT_APPLIED} and hangs
 *       (the run never records the completion);</li>
 *   <li>{@code hang-after-record}: resumes; after the completion is recorded but before the step's
 *       checkpoint, a listener prints {@code RESULT_RECORDED} and hangs;</li>
 *   <li>{@code finish}: resumes and runs to the end, printing {@code FINISHED <status>}.</li>
 * </ul>
 */
public final class CrashChild {
    static final String RUN_ID = "run_crash_test";

    private CrashChild() {}

    public static void main(String[] args) throws Exception {
        Path db = Path.of(args[0]);
        FilePaymentApi payments = new FilePaymentApi(Path.of(args[1]));
        String mode = args[2];
        Tool lookup = Tool.builder("lookup_order").description("Looks up an order.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .handler((a, ctx) -> ToolOutput.text("A-104: 配送センターで保留中 (held at the depot)").withSource("orders-db"))
                .build();
        Tool charge = Tool.builder("charge_card").description("Charges the customer.").risk(Risk.IRREVERSIBLE)
                .inputSchema("""
                        {"type":"object","properties":{"order":{"type":"string"},"amount_cents":{"type":"integer"}},
                         "required":["order","amount_cents"]}""")
                .handler((a, ctx) -> {
                    if (mode.equals("hang-before-effect")) {
                        hang("BEFORE_EFFECT");
                    }
                    String receipt = payments.charge(ctx.idempotencyKey(), a.get("order").asText(), a.get("amount_cents").asLong());
                    if (mode.equals("hang-after-effect")) {
                        hang("EFFECT_APPLIED");
                    }
                    return ToolOutput.text(receipt).withSource("payments-api");
                })
                .build();
        RunListener hangAfterRecord = new RunListener() {
            @Override
            public void onEvent(TraceEvent event) {
                if (mode.equals("hang-after-record") && event instanceof TraceEvent.ToolCompleted done
                        && done.tool().equals("charge_card")) {
                    hang("RESULT_RECORDED");
                }
            }
        };
        ScriptedModel model = mode.equals("start")
                ? ScriptedModel.of(toolCalls(call("lookup_order", "{\"id\":\"A-104\"}")),
                        toolCalls(call("charge_card", "{\"order\":\"A-104\",\"amount_cents\":1200}")))
                : ScriptedModel.of(text("Charged 12.00 for A-104, once."));
        try (JdbcRunStore store = JdbcRunStore.sqlite(db)) {
            Agent agent = Agent.builder().model(model).tools(lookup, charge).store(store).runIds(() -> RUN_ID)
                    .listener(runId -> hangAfterRecord).build();
            RunResult result = mode.equals("start") ? agent.run("Charge order A-104 for the re-shipment") : agent.resume(RUN_ID);
            if (mode.equals("start")) {
                hang("PAUSED " + result.status());
            }
            System.out.println("FINISHED " + result.status() + " " + result.reason());
            System.out.flush();
        }
    }

    private static void hang(String marker) {
        System.out.println(marker);
        System.out.flush();
        try {
            Thread.sleep(Long.MAX_VALUE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw new IllegalStateException("woke up from a hang that should have ended with the process");
    }
}
