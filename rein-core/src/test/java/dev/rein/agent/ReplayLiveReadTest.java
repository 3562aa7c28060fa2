package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.replay.Divergence;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.retrieval.RetrievedDocument;
import dev.rein.retrieval.SearchDocumentsTool;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.builtin.BuiltinTools;
import dev.rein.trace.JsonlTraceListener;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replay with live READ tools: a tool that stamps its result with the time (search_documents' 'searched at',
 * get_current_time) answers as recorded when its data has not changed, and a change in its data still diverges.
 */
class ReplayLiveReadTest {
    private final List<RetrievedDocument> documents = new java.util.concurrent.CopyOnWriteArrayList<>(
            List.of(new RetrievedDocument("規定.md", "返金は 30 日以内です。", 0.9)));

    private Agent.Builder agent(ScriptedModel model) {
        return Agent.builder().model(model).systemPrompt("You answer from the documents.")
                .tools(SearchDocumentsTool.of((query, limit) -> List.copyOf(documents)), BuiltinTools.all().get(0));
    }

    private static ScriptedModel recordedModel() {
        return ScriptedModel.of(toolCalls(call("search_documents", "{\"query\":\"返金\"}")),
                toolCalls(call("get_current_time", "{\"timezone\":\"Asia/Tokyo\"}")), text("返金は 30 日以内です"));
    }

    @Test
    void liveReadToolsThatStampTheTimeAnswerAsRecordedAndAChangedDocumentStillDiverges(@TempDir Path dir) {
        Path trace = dir.resolve("run.jsonl");
        // recorded a while ago: the tools stamped a time the replay's clock no longer shows
        RunResult recorded = agent(recordedModel()).clock(Clock.fixed(Instant.parse("2026-03-01T09:00:00.123456Z"), ZoneOffset.UTC))
                .listener(JsonlTraceListener.to(trace)).build().run("返金の期限は?");

        ReplayReport report = Replay.from(trace).liveReadTools(true).replay(agent(ScriptedModel.of()).build());

        assertThat(report.firstDivergence().map(Divergence::description)).isEmpty();
        assertThat(report.reproduced()).isTrue();
        assertThat(report.result().history()).isEqualTo(recorded.history());

        documents.set(0, new RetrievedDocument("規定.md", "返金は 14 日以内です。", 0.9));
        ReplayReport changed = Replay.from(trace).liveReadTools(true).replay(agent(ScriptedModel.of()).build());
        // Before: 'step 2: the step request differs at messages[2]...', which did not say that a live tool answered otherwise
        assertThat(changed.firstDivergence().orElseThrow().description())
                .startsWith("step 2: the live READ tool `search_documents` (its call ")
                .contains(" of step 1) now answers otherwise than recorded: it ran for real, on its data as it is now, so the step"
                        + " request differs at messages[2]").contains("14 日以内");
    }

    /** A live READ tool's handler sees the risk READ in a replay too, as in the run (the recorded clock's copy kept it). */
    @Test
    void aLiveReadToolsHandlerSeesItsRiskInAReplay(@TempDir Path dir) {
        List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
        dev.rein.tool.Tool look = dev.rein.tool.Tool.builder("look").description("looks").risk(dev.rein.tool.Risk.READ)
                .handler((args, ctx) -> {
                    seen.add(ctx.risk().name());
                    return "ok";
                }).build();
        Path trace = dir.resolve("t.jsonl");
        Agent.builder().model(ScriptedModel.of(toolCalls(call("look", "{}")), text("done"))).tools(look)
                .listener(JsonlTraceListener.to(trace)).build().run("go");

        ReplayReport report = Replay.from(trace).liveReadTools(true).replay(Agent.builder().model(ScriptedModel.of())
                .tools(look).build());

        assertThat(report.reproduced()).isTrue();
        assertThat(seen).containsExactly("READ", "READ"); // before: [READ, IRREVERSIBLE]
    }

    /**
     * A trace written before Rein marked its notes on an empty result or a result for the person only as its own
     * (ab2451ea, ac56fe1c) recorded the note as the tool's data (rein_message false, wrapped as untrusted data). A live
     * READ tool that answers so again today gets Rein's note marked as Rein's, which the model would get unwrapped: the
     * same answer, worded as the recording worded it, is no divergence. The older trace is made here by a tool that
     * returned the note's text itself, which a trace records exactly so. Before, the replay diverged at the request
     * after the call, as if the live tool had answered otherwise (core45).
     */
    @Test
    void aLiveReadToolsEmptyAnswerReplaysAnOlderTracesUnmarkedNoteWithoutADivergence(@TempDir Path dir) {
        Path trace = dir.resolve("old.jsonl");
        dev.rein.tool.Tool then = dev.rein.tool.Tool.builder("look").description("looks").risk(dev.rein.tool.Risk.READ)
                .handler((args, ctx) -> "(the tool ran successfully; the result was empty)").build();
        dev.rein.tool.Tool userOnlyThen = dev.rein.tool.Tool.builder("chart").description("draws").risk(dev.rein.tool.Risk.READ)
                .handler((args, ctx) -> "(the tool returned content for the user only, which is not shown to you)").build();
        RunResult recorded = Agent.builder().model(ScriptedModel.of(toolCalls(call("look", "{}")), toolCalls(call("chart", "{}")),
                        text("nothing found"))).tools(then, userOnlyThen).listener(JsonlTraceListener.to(trace)).build().run("look");
        assertThat(recorded.status().name()).isEqualTo("SUCCEEDED");

        dev.rein.tool.Tool now = dev.rein.tool.Tool.builder("look").description("looks").risk(dev.rein.tool.Risk.READ)
                .handler((args, ctx) -> "").build();
        dev.rein.tool.Tool userOnlyNow = dev.rein.tool.Tool.builder("chart").description("draws").risk(dev.rein.tool.Risk.READ)
                .handler((args, ctx) -> dev.rein.tool.ToolOutput.text("").withUserContent("a chart")).build();
        ReplayReport report = Replay.from(trace).liveReadTools(true).replay(Agent.builder().model(ScriptedModel.of())
                .tools(now, userOnlyNow).build());

        assertThat(report.firstDivergence().map(Divergence::description)).isEmpty();
        assertThat(report.reproduced()).isTrue();
    }
    /**
     * A provider may give two calls of a run the same id. The older-trace wording is taken from the recorded result of
     * the call at that step only: a live READ tool's Rein note at step 2, recorded marked there, stays marked although
     * the same id's result at step 1 recorded the note unmarked. Before, every recorded result of the id was looked at,
     * and step 2 diverged falsely (rev104).
     */
    @Test
    void anOlderNoteOfTheSameCallIdAtAnotherStepDoesNotChangeThisStepsWording(@TempDir Path dir) {
        Path trace = dir.resolve("reused-id.jsonl");
        ScriptedModel.Turn sameId = (request, number) -> {
            dev.rein.model.ModelResponse r = toolCalls(call("look", "{}")).answer(request, number);
            return new dev.rein.model.ModelResponse(r.id(), r.model(), java.util.List.of(new dev.rein.model.ToolUseBlock("c1", "look",
                    dev.rein.json.Json.parse("{}"))), r.stopReason(), null, r.usage());
        };
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        dev.rein.tool.Tool then = dev.rein.tool.Tool.builder("look").description("looks").risk(dev.rein.tool.Risk.READ)
                .handler((args, ctx) -> calls.incrementAndGet() == 1 ? "(the tool ran successfully; the result was empty)" : "").build();
        RunResult recorded = Agent.builder().model(ScriptedModel.of(sameId, sameId, text("nothing found"))).tools(then)
                .listener(JsonlTraceListener.to(trace)).build().run("look");
        assertThat(recorded.status().name()).isEqualTo("SUCCEEDED");

        dev.rein.tool.Tool now = dev.rein.tool.Tool.builder("look").description("looks").risk(dev.rein.tool.Risk.READ)
                .handler((args, ctx) -> "").build();
        ReplayReport report = Replay.from(trace).liveReadTools(true).replay(Agent.builder().model(ScriptedModel.of()).tools(now).build());

        assertThat(report.firstDivergence().map(Divergence::description)).isEmpty();
        assertThat(report.reproduced()).isTrue();
    }
}
