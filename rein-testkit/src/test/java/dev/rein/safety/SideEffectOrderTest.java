package dev.rein.safety;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Reads of one response run first and side effects last, whatever the approval policy. */
class SideEffectOrderTest {
    private final List<String> log = new CopyOnWriteArrayList<>();

    private Tool tool(String name, Risk risk, long millis) {
        return Tool.builder(name).description("Logs " + name + ".").inputSchema("{\"type\":\"object\"}").risk(risk)
                .handler((args, ctx) -> {
                    log.add(name + " start");
                    Thread.sleep(millis);
                    log.add(name + " end");
                    return name + " done";
                }).build();
    }

    @Test
    void sideEffectsRunAfterEveryReadOfTheResponseInCallOrder() {
        for (ApprovalPolicy policy : List.of(ApprovalPolicy.NEVER, ApprovalPolicy.IRREVERSIBLE_ONLY)) {
            log.clear();
            ScriptedModel model = ScriptedModel.of(toolCalls(call("write_a", "{}"), call("lookup", "{}"), call("write_b", "{}"),
                    call("lookup_slow", "{}")), text("done"));
            RunResult result = Agent.builder().model(model).approvalPolicy(policy)
                    .tools(tool("write_a", Risk.WRITE, 0), tool("lookup", Risk.READ, 50), tool("write_b", Risk.WRITE, 0),
                            tool("lookup_slow", Risk.READ, 200))
                    .build().run("go");

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(log.subList(4, 8)).as(policy.toString()).containsExactly("write_a start", "write_a end", "write_b start", "write_b end");
            assertThat(log.subList(0, 4)).as(policy.toString()).containsOnly("lookup start", "lookup end", "lookup_slow start", "lookup_slow end");
        }
    }
}
