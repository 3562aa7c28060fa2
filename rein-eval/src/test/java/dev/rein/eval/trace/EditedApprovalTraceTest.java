package dev.rein.eval.trace;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.approval.ApprovalRequest;
import dev.rein.eval.cli.EvalCommandSupport;
import dev.rein.eval.file.EvalRegistry;
import dev.rein.eval.run.EvalRunner;
import dev.rein.json.Json;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run whose paused call a person edited, resumed into the same trace, is a regression task of rein eval DIR that passes. */
class EditedApprovalTraceTest {
    @Test
    void aRunWhosePausedCallAPersonEditedReplaysAsATaskThatPasses(@TempDir Path dir) throws Exception {
        Path folder = Files.createDirectories(dir.resolve("traces"));
        Tool refund = Tool.builder("refund").description("Refunds an order.").risk(Risk.WRITE)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"order\":{\"type\":\"string\"},\"amount\":{\"type\":\"integer\"}},"
                        + "\"required\":[\"order\",\"amount\"]}")
                .handler((args, ctx) -> "返金しました: " + args.get("order").asText() + " " + args.get("amount").asInt() + " 円").build();
        Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("refund", "{\"order\":\"A-104\",\"amount\":5000}")),
                        text("3000 円を返金しました")))
                .systemPrompt("You handle orders.").tools(refund).store(new InMemoryRunStore())
                .approvalPolicy(ApprovalPolicy.SIDE_EFFECTS).listener(JsonlTraceListener.to(folder.resolve("返金.jsonl"))).build();
        RunResult paused = agent.run("A-104 を返金して");
        ApprovalRequest request = agent.runs().pending(paused.runId()).get(0);
        agent.runs().edit(paused.runId(), request.actionHash(), Json.parse("{\"order\":\"A-104\",\"amount\":3000}"), "佐藤");
        assertThat(agent.resume(paused.runId()).status()).isEqualTo(RunStatus.SUCCEEDED);

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = EvalCommandSupport.run(new EvalCommandSupport.Options(folder, 0, null, null, null, true,
                        EvalRunner.DEFAULT_PARALLELISM, null, null), EvalRegistry.load(),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        String shown = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertThat(code).as(shown).isEqualTo(EvalCommandSupport.OK);
        JsonNode trial = Json.parse(out.toString(StandardCharsets.UTF_8)).at("/trials/0");
        assertThat(trial.get("verdict").asText()).as(shown).isEqualTo("passed");
        assertThat(trial.at("/findings/0/message").asText()).endsWith("no divergence in 2 of 2 recorded model calls");
    }
}
