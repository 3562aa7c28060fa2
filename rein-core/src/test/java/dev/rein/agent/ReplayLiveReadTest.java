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
}
