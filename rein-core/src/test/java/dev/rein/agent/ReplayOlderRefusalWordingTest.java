package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.replay.Divergence;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * docs/replay.md: a call refused before a replay answers from the recording (arguments that are not JSON or do not fit
 * the tool's schema, a tool no tool's name is) is refused anew in a replay. A trace written when Rein worded those
 * refusals otherwise (before the model's text in them was fenced) diverged at the next request, though nothing but
 * the wording had changed; the replay now hands back the recorded refusal of the same kind for that call.
 */
class ReplayOlderRefusalWordingTest {
    private static Tool lookup() {
        return Tool.builder("lookup").description("Looks up an order.").risk(Risk.READ)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"order\":{\"type\":\"string\"}},\"required\":[\"order\"]}")
                .handler((args, ctx) -> "order " + args.get("order").asText()).build();
    }

    /** A trace of three refused calls and an answer, its refusals' words changed as an older Rein wrote them. */
    private static Path olderTrace(Path dir) throws Exception {
        Path trace = dir.resolve("older.jsonl");
        ScriptedModel model = ScriptedModel.of(toolCalls(call("lookup", "{\"order\":42}")),
                toolCalls(call("look up!", "{}")), toolCalls(call("lookup", "{\"order\":\"A-1\"}")), text("done"));
        RunResult recorded = Agent.builder().model(model).tools(lookup()).listener(JsonlTraceListener.to(trace)).build()
                .run("look up A-1");
        assertThat(recorded.status()).isEqualTo(RunStatus.SUCCEEDED);
        String today = Files.readString(trace);
        // the words of Rein's refusals, in the tool results and in the requests that carried them: an older wording
        String older = today.replace("the JSON schema's validator says:", "the schema says:")
                .replace("Unknown tool, named as quoted here:", "Unknown tool:");
        assertThat(older).isNotEqualTo(today);
        Files.writeString(trace, older);
        return trace;
    }

    @Test
    void anOlderTracesRefusalsOfInvalidArgumentsAndAnUnknownToolAreHandedBackAsRecorded(@TempDir Path dir)
            throws Exception {
        Path trace = olderTrace(dir);

        ReplayReport report = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of()).tools(lookup()).build());

        assertThat(report.firstDivergence().map(Divergence::description)).isEmpty();
        assertThat(report.reproduced()).isTrue();
    }

    @Test
    void aCallTheRecordingRanButTodayRefusesStillDiverges(@TempDir Path dir) throws Exception {
        Path trace = olderTrace(dir);
        // today's argument limit (12 bytes, not in any request) refuses the third call, which the recording ran: a change
        // of behaviour, not of words, still found where it is; the first two calls fit the limit and are refused as before
        SafetyConfig stricter = SafetyConfig.builder().maxArgumentBytes(12).build();

        ReplayReport report = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of()).tools(lookup()).safety(stricter).build());

        assertThat(report.firstDivergence()).isPresent()
                .hasValueSatisfying(d -> assertThat(d.step()).isGreaterThanOrEqualTo(3));
    }
    /**
     * rev113: INVALID_ARGUMENTS also names refusals from settings outside the request. A schema refusal recorded, the
     * replay under a 5-byte argument limit refuses the call for its size: handing back the recorded schema refusal
     * said reproduced where a live run would send the size refusal. So does a schema that refuses the call otherwise.
     */
    @Test
    void aRefusalOfTheSameClassButAnotherKindIsNotHandedBack(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("t.jsonl");
        String a = "{\"type\":\"object\",\"properties\":{\"order\":{\"type\":\"string\"}},\"required\":[\"order\"]}";
        String b = "{\"type\":\"object\",\"properties\":{\"order\":{\"type\":\"integer\"},\"tenant\":{\"type\":\"string\"}},"
                + "\"required\":[\"order\",\"tenant\"]}";
        ScriptedModel model = ScriptedModel.of(toolCalls(call("lookup", "{\"order\":42}")), text("done"));
        Agent.builder().model(model).tools(withSchema(a)).listener(JsonlTraceListener.to(trace)).build().run("look up 42");

        ReplayReport same = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of()).tools(withSchema(a)).build());
        ReplayReport limited = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of()).tools(withSchema(a))
                .safety(SafetyConfig.builder().maxArgumentBytes(5).build()).build());
        ReplayReport changed = Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of()).tools(withSchema(b)).build());

        assertThat(same.reproduced()).isTrue();
        assertThat(limited.reproduced()).isFalse();
        assertThat(limited.firstDivergence()).isPresent();
        assertThat(changed.reproduced()).isFalse();
    }

    private static Tool withSchema(String schema) {
        return Tool.builder("lookup").description("Looks up an order.").risk(Risk.READ).inputSchema(schema)
                .handler((args, ctx) -> "order " + args).build();
    }
}
