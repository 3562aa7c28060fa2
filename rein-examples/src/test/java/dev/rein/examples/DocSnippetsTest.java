package dev.rein.examples;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.agent.RunStream;
import dev.rein.run.RunStatus;
import dev.rein.approval.ApprovalRequest;
import dev.rein.budget.Budget;
import dev.rein.eval.Graders;
import dev.rein.eval.Suite;
import dev.rein.eval.Task;
import dev.rein.eval.cli.TextSummary;
import dev.rein.eval.env.FileTreeEnvironment;
import dev.rein.eval.report.EvalReport;
import dev.rein.eval.report.ReportWriter;
import dev.rein.eval.run.EvalResult;
import dev.rein.eval.run.EvalRunner;
import dev.rein.eval.run.Progress;
import dev.rein.openai.OpenAiModel;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import dev.rein.state.Runs;
import dev.rein.testkit.MessagingTools;
import dev.rein.testkit.ScriptedModel;
import dev.rein.testkit.openai.ChatReply;
import dev.rein.testkit.openai.FakeChatCompletionsServer;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java examples of the user docs, run offline as written (only what they leave to the reader is filled in: a
 * scripted model, a file name), with what the docs say they do. A renamed method fails the build here before a
 * reader finds it.
 */
class DocSnippetsTest {
    public record Verdict(String decision, int confidence, List<String> reasons) {}

    private static final String VERDICT_JSON = "{\"decision\":\"refund\",\"confidence\":80,\"reasons\":[\"late\"]}";

    /** docs/eval.md, "Java API": trial i uses script i mod 2, so trials 0, 2 and 4 pass and 1 and 3 fail. */
    @Test
    void evalJavaApi(@TempDir Path dir) throws Exception {
        Map<String, String> FILES = Map.of("notes/meeting.md", "Release: 20 January.");
        Task<FileTreeEnvironment> task = Task.builder("release-date", () -> new FileTreeEnvironment(FILES))
                .goal("When is the release, according to the meeting notes?")
                .agent((env, model) -> Agent.builder()
                        .model(model.model()).modelName(model.name())
                        .tools(env.readTools())
                        .budget(Budget.builder().maxSteps(6).build())
                        .build())
                .script(toolCalls(call("read_file", "{\"path\":\"notes/meeting.md\"}")), text("The release is on 20 January."))
                .script(text("Probably next week."))
                .grader(Graders.answerContains("20 January"))
                .grader(Graders.mustCall("read_file"))
                .grader(Graders.maxSteps(4))
                .build();

        Suite suite = Suite.builder("notes").trials(5).task(task).build();
        EvalResult result = EvalRunner.builder()
                .parallelism(4)
                .progress(Progress.auto(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)))
                .build()
                .run(suite);
        EvalReport report = EvalReport.of(result);
        ReportWriter.writeHtml(report, dir.resolve("eval.html"));

        assertThat(report.summary().graded()).as(TextSummary.render(report)).isEqualTo(5);
        assertThat(report.summary().passed()).as(TextSummary.render(report)).isEqualTo(3);
        assertThat(Files.readString(dir.resolve("eval.html"))).contains("release-date");
    }

    /** docs/replay.md, "Typed final results". */
    @Test
    void typedResult() {
        Agent agent = Agent.builder().model(ScriptedModel.of(text(VERDICT_JSON))).build();

        RunResult result = agent.run("Should order A-104 be refunded?", Verdict.class);
        Verdict verdict = result.output(Verdict.class);

        assertThat(verdict).isEqualTo(new Verdict("refund", 80, List.of("late")));
    }

    /** docs/replay.md, "Streaming to the caller": every trace event, then the result last. */
    @Test
    void streaming() {
        Agent agent = Agent.builder().model(ScriptedModel.of(text("The carrier lost it."))).build();
        List<String> types = new ArrayList<>();

        try (RunStream run = agent.stream("Why is order A-104 late?")) {
            run.stream().forEach(event -> types.add(event.type()));
        }

        assertThat(types).startsWith("run_started").contains("text_delta", "run_finished").endsWith("result");
    }

    /** docs/replay.md, "Replay a recorded run": a run replayed with the agent it was recorded with reproduces. */
    @Test
    void replay(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("run.jsonl");
        RunResult recorded = Agent.builder()
                .model(ScriptedModel.of(toolCalls(call("get_current_time", "{}")), text("It is late.")))
                .tools(dev.rein.tool.builtin.BuiltinTools.all())
                .listener(JsonlTraceListener.to(trace))
                .build()
                .run("What time is it?");
        Agent agent = Agent.builder().model(ScriptedModel.of()).tools(dev.rein.tool.builtin.BuiltinTools.all()).build();

        ReplayReport report = Replay.from(trace)
                .run(recorded.runId())
                .liveReadTools(false)
                .stopAtDivergence(false)
                .replay(agent);

        assertThat(report.firstDivergence()).isEmpty();
        assertThat(report.reproduced()).isTrue();
    }

    /** docs/safety.md, "Approvals: pausing is data", and its command-line demo's outbox: sent once. */
    @Test
    void approval(@TempDir Path dir) {
        Path outbox = dir.resolve("outbox.jsonl");
        List<Tool> tools = MessagingTools.outbox(outbox);
        Agent agent = Agent.builder()
                .model(ScriptedModel.of(
                        toolCalls(call("send_message", "{\"to\":\"alice@example.com\",\"subject\":\"Order\",\"body\":\"Your order is late.\"}")),
                        text("Told Alice.")))
                .tools(tools)
                .build();

        RunResult result = agent.run("Tell Alice her order is late");
        assertThat(result.waitingForApproval()).isTrue();
        ApprovalRequest request = result.pendingApprovals().get(0);
        assertThat(request.tool()).isEqualTo("send_message");
        assertThat(request.actionHash()).matches("[0-9a-f]{64}");

        Runs runs = agent.runs();
        runs.approve(result.runId(), request.actionHash(), "alice");
        RunResult done = agent.resume(result.runId());

        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(MessagingTools.read(outbox)).hasSize(1);
    }

    /** docs/memory.md, "Continuing a run: reply": the run asks, the reply continues it under the same id. */
    @Test
    void reply() {
        Agent agent = Agent.builder()
                .model(ScriptedModel.of(
                        toolCalls(call("finish", "{\"status\":\"needs_user_input\",\"summary\":\"The room is not named.\",\"result\":\"Which room?\"}")),
                        text("Room B is booked for Thursday.")))
                .finishTool(true)
                .build();

        RunResult asked = agent.run("Book the meeting room for Thursday");
        RunResult done = agent.reply(asked.runId(), "会議室Bでお願いします");

        assertThat(asked.status()).isEqualTo(RunStatus.FAILED);
        assertThat(asked.reason()).isEqualTo("needs_user_input");
        assertThat(asked.answer()).isEqualTo("Which room?");
        assertThat(done.runId()).isEqualTo(asked.runId());
        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    /** docs/openai.md, "Testing against the fake server": the second request carries the tool's result (no system
     * message: the agent has no system prompt). */
    @Test
    void openAiFakeServer() throws Exception {
        Tool lookupOrder = Tool.builder("lookup_order").description("Looks an order up.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .handler((args, ctx) -> "A-104: delayed at the depot")
                .build();
        JsonNode second;
        RunResult result;
        try (FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
             OpenAiModel model = OpenAiModel.builder().baseUrl(server.baseUrl()).build()) {
            server.enqueue(ChatReply.toolCall("call_1", "lookup_order", "{\"id\":\"A-104\"}"),
                           ChatReply.text("Order A-104 is delayed."));
            result = Agent.builder().model(model).modelName("gpt-4.1-mini").tools(lookupOrder).build()
                    .run("Why is A-104 late?");
            second = server.requests().get(1).body();
        }

        assertThat(result.answer()).isEqualTo("Order A-104 is delayed.");
        JsonNode toolMessage = second.at("/messages/2");
        assertThat(toolMessage.at("/role").asText()).as(second.toString()).isEqualTo("tool");
        assertThat(toolMessage.at("/tool_call_id").asText()).isEqualTo("call_1");
        assertThat(toolMessage.at("/content").asText()).contains("A-104: delayed at the depot");
    }
}
