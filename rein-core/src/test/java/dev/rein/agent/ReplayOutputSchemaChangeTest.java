package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.replay.Divergence;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.JsonlTraceListener;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A typed run replayed by an agent whose output type changed (none now, another type, or the same
 * type with other components): the divergence says so in words before the JSON, as a changed tool
 * set is, where it read only "the step request differs at system[0]: recorded {…JSON Schema…} / now …".
 */
class ReplayOutputSchemaChangeTest {
    public record Verdict(String decision, int confidence) {}
    public record Other(String decision, String why) {}
    public record Scores(java.util.Map<String, Integer> scores) {}

    public static final class Changed {
        public record Verdict(String decision, int confidence, String reason) {}
    }

    private static Path recorded(Path dir) {
        Path trace = dir.resolve("typed.jsonl");
        RunResult run = Agent.builder().model(ScriptedModel.of(text("{\"decision\":\"返金\",\"confidence\":3}")))
                .listener(JsonlTraceListener.to(trace)).build().run("判定して", Verdict.class);
        assertThat(run.succeeded()).as(run.message()).isTrue();
        return trace;
    }

    private static String divergence(Path trace, Agent agent) {
        ReplayReport report = Replay.from(trace).replay(agent);
        return report.firstDivergence().map(Divergence::description).orElse("(none)");
    }

    @Test
    void theSameTypeReplaysWithoutDivergence(@TempDir Path dir) {
        Path trace = recorded(dir);
        assertThat(divergence(trace, Agent.builder().model(ScriptedModel.of()).outputType(Verdict.class).build())).isEqualTo("(none)");
    }

    @Test
    void anAgentWithoutTheTypeIsToldSoInWords(@TempDir Path dir) {
        Path trace = recorded(dir);
        assertThat(divergence(trace, Agent.builder().model(ScriptedModel.of()).build()))
                .startsWith("step 1: the agent now asks for no typed answer, where the recorded run's answer had to match the output"
                        + " schema `Verdict` (outputType / outputSchema), so the step request differs at system");
    }

    @Test
    void anotherTypeOrTheTypeChangedIsToldSoInWords(@TempDir Path dir) {
        Path trace = recorded(dir);
        assertThat(divergence(trace, Agent.builder().model(ScriptedModel.of()).outputType(Other.class).build()))
                .startsWith("step 1: the agent now asks for an answer matching the output schema `Other`, where the recorded run's"
                        + " answer had to match `Verdict`, so the step request differs at system");
        // a component more: the type changed, not Rein's schema generation, so nothing is said of it
        assertThat(divergence(trace, Agent.builder().model(ScriptedModel.of()).outputType(Changed.Verdict.class).build()))
                .startsWith("step 1: the output schema `Verdict` is now defined otherwise, so the step request differs at system");
    }

    @Test
    void anUntypedRunReplayedByATypedAgentIsToldSoInWords(@TempDir Path dir) {
        Path trace = dir.resolve("plain.jsonl");
        Agent.builder().model(ScriptedModel.of(text("返金します"))).listener(JsonlTraceListener.to(trace)).build().run("判定して");
        assertThat(divergence(trace, Agent.builder().model(ScriptedModel.of()).outputType(Verdict.class).build()))
                .startsWith("step 1: the agent now asks for an answer matching the output schema `Verdict`, which the recorded run"
                        + " did not ask for, so the step request differs at system");
    }

    /**
     * A trace of a typed run recorded before Rein wrote a Map's values into the schema (its generator wrote a bare
     * {"type":"object"}) diverges when replayed with the same, unchanged type, as docs/replay.md says, and the divergence
     * says Rein's schema generation may have changed and how to replay (it said only "is now defined otherwise", which
     * sent the user looking for a change in a type they had not touched); replayed with the recorded schema
     * (Replay.recorded().outputSchema()) it reproduces, as that page advises.
     */
    @Test
    void aTraceOfTheEarlierGeneratorsSchemaReplaysWithTheRecordedSchema(@TempDir Path dir) {
        Path trace = dir.resolve("earlier.jsonl");
        dev.rein.model.OutputSchema earlier = dev.rein.model.OutputSchema.fromJson("Scores", "{\"$schema\":"
                + "\"https://json-schema.org/draft/2020-12/schema\",\"type\":\"object\",\"properties\":{\"scores\":"
                + "{\"type\":\"object\"}},\"required\":[\"scores\"]}");
        RunResult run = Agent.builder().model(ScriptedModel.of(text("{\"scores\":{\"算数\":90}}"))).outputSchema(earlier)
                .listener(JsonlTraceListener.to(trace)).build().run("採点して");
        assertThat(run.succeeded()).as(run.message()).isTrue();

        assertThat(divergence(trace, Agent.builder().model(ScriptedModel.of()).outputType(Scores.class).build()))
                .startsWith("step 1: the output schema `Scores` is now defined otherwise, with the same properties: if the type"
                        + " `Scores` is unchanged, the schema Rein generates for it changed (as after upgrading Rein); replay with"
                        + " the schema the trace recorded, .outputSchema(Replay.from(trace).recorded().outputSchema()), as"
                        + " `rein replay` does, so the step request differs at system");
        Replay replay = Replay.from(trace);
        ReplayReport report = replay.replay(Agent.builder().model(ScriptedModel.of())
                .outputSchema(replay.recorded().outputSchema()).build());
        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
    }
}
