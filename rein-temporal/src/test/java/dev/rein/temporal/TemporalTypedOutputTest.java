package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.model.Message;
import dev.rein.model.Role;
import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.TraceEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Typed output on Temporal: the output schema is checked in the verify activity, as the local driver checks it. */
class TemporalTypedOutputTest {
    public record Verdict(String decision, int confidence, List<String> reasons) {}

    @Test
    void anInvalidAnswerGoesBackWithTheErrorsAndAValidOneIsTheOutput() {
        RecordingListener trace = new RecordingListener();
        ScriptedModel model = ScriptedModel.of(ScriptedModel.text("{\"decision\":\"refund\",\"confidence\":\"high\"}"),
                ScriptedModel.text("{\"decision\":\"refund\",\"confidence\":90,\"reasons\":[\"配送遅延\"]}"));
        Agent agent = Agent.builder().model(model).listener(trace).outputType(Verdict.class).maxVerificationFailures(2).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("Should order A-104 be refunded?", "run-typed").result();

            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.output(Verdict.class)).isEqualTo(new Verdict("refund", 90, List.of("配送遅延")));
            assertThat(trace.events(TraceEvent.Intervention.class)).singleElement()
                    .satisfies(i -> assertThat(i.kind()).isEqualTo("invalid_output"));
            // the model saw the validation errors before its second answer
            Message feedback = result.history().get(2);
            assertThat(feedback.role()).isEqualTo(Role.USER);
            assertThat(feedback.text()).contains("not valid output").contains("confidence").contains("reasons");
        }
    }

    @Test
    void anAnswerInvalidEveryTimeEndsFailedInvalidOutput() {
        ScriptedModel model = ScriptedModel.of(ScriptedModel.text("I think a refund is fair."),
                ScriptedModel.text("{\"decision\":1}"));
        Agent agent = Agent.builder().model(model).outputType(Verdict.class).maxVerificationFailures(2).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("Should order A-104 be refunded?", "run-typed-invalid").result();

            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.reason()).isEqualTo(Reasons.INVALID_OUTPUT);
        }
    }
}
