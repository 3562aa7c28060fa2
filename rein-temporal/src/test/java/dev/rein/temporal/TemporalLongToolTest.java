package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class TemporalLongToolTest {
    /**
     * A tool allowed to take longer than one activity attempt (its own timeout says so) runs once:
     * Temporal does not take the attempt for a dead worker and start the call again elsewhere.
     */
    @Test
    void aToolThatTakesLongerThanTheAttemptTimeoutButWithinItsOwnRunsOnce() {
        AtomicInteger calls = new AtomicInteger();
        Tool export = Tool.builder("export").description("Exports the orders")
                .inputSchema("{\"type\":\"object\",\"properties\":{}}").risk(Risk.WRITE).timeout(Duration.ofMinutes(1))
                .handler((args, ctx) -> {
                    calls.incrementAndGet();
                    Thread.sleep(Duration.ofSeconds(6));
                    return "exported";
                }).build();
        ScriptedModel model = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("export", "{}")),
                ScriptedModel.text("done"));
        Agent agent = Orders.agent(model, new RecordingListener(), export).approvalPolicy(dev.rein.approval.ApprovalPolicy.NEVER).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).withAttemptTimeout(Duration.ofSeconds(2)).start("export", "run-long-tool");
            TemporalApprovalTest.awaitStatus(run, RunStatus.SUCCEEDED);
            RunResult result = run.result();

            assertThat(result.answer()).isEqualTo("done");
            assertThat(calls.get()).as("handler invocations").isEqualTo(1);
        }
    }
}
