package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.testkit.FakeMessagesServer;
import dev.rein.testkit.FakeReply;
import dev.rein.testkit.openai.ChatReply;
import dev.rein.testkit.openai.FakeChatCompletionsServer;
import org.junit.jupiter.api.AfterEach;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rein run --reasoning-effort LEVEL}: Chat Completions' {@code reasoning_effort} (OpenAiReasoningEffort) from the
 * command line. Without it a model that takes function tools only with reasoning effort none (OpenAI's gpt-5.4 and later
 * on Chat Completions) could not run with tools from the CLI at all. Sent as given, kept for {@code rein reply} and
 * {@code rein resume}, and refused with one line for a value the API does not list or another provider.
 */
class ReasoningEffortOptionTest {
    private final FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
    private final InProcessCli cli = new InProcessCli().models(ProviderModels::create)
            .env("OPENAI_API_KEY", "sk-test").env("OPENAI_BASE_URL", server.baseUrl());

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void theEffortIsSentAsReasoningEffortAndKeptForReply() {
        server.enqueue(ChatReply.completion().text("3月11日です。").build());
        InProcessCli.Outcome outcome = cli.run("run", "--provider", "openai", "--model", "gpt-5.1", "--price", "1,10",
                "--reasoning-effort", "none", "--json", "今日から100日後は?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(Json.parse(outcome.stdout()).get("answer").asText()).isEqualTo("3月11日です。");
        assertThat(server.requests().get(0).body().get("reasoning_effort").asText()).isEqualTo("none");
        // the tools still go with it: the point of none on the models that refuse tools with reasoning
        assertThat(server.requests().get(0).body().get("tools")).isNotEmpty();

        server.enqueue(ChatReply.completion().text("水曜日です。").build());
        String id = Json.parse(outcome.stdout()).get("run_id").asText();
        InProcessCli.Outcome reply = cli.run("reply", "--json", id, "何曜日?");
        assertThat(reply.exitCode()).as(reply.stderr()).isZero();
        assertThat(server.requests().get(1).body().get("reasoning_effort").asText()).isEqualTo("none");
    }

    @Test
    void theLevelIsReadInAnyCaseAndSentAsTheApiWritesIt() {
        server.enqueue(ChatReply.completion().text("391").build());
        InProcessCli.Outcome outcome = cli.run("run", "--provider", "openai", "--model", "o4-mini",
                "--reasoning-effort", " HIGH ", "17 * 23?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(server.lastRequest().body().get("reasoning_effort").asText()).isEqualTo("high");
    }

    @Test
    void withoutTheOptionNoReasoningEffortIsSent() {
        server.enqueue(ChatReply.completion().text("391").build());
        InProcessCli.Outcome outcome = cli.run("run", "--provider", "openai", "17 * 23?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(server.lastRequest().body().has("reasoning_effort")).isFalse();
    }

    @Test
    void aLevelTheApiDoesNotListIsAUsageErrorNamingTheLevelsAndNothingIsSent() {
        for (String bad : new String[] {"max", "lots", "", "0"}) {
            InProcessCli.Outcome outcome = cli.run("run", "--provider", "openai", "--reasoning-effort", bad, "17 * 23?");
            assertThat(outcome.exitCode()).as(bad + ": " + outcome.stderr()).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stderr()).as(bad).contains("--reasoning-effort")
                    .contains("none, minimal, low, medium, high or xhigh").contains("e.g. --reasoning-effort none");
        }
        assertThat(server.requestCount()).isZero();
    }

    @Test
    void theAnthropicProviderIsAUsageErrorPointingToThinking() {
        InProcessCli.Outcome outcome = cli.env("ANTHROPIC_API_KEY", "sk-ant-test").run("run", "--provider", "anthropic",
                "--reasoning-effort", "low", "17 * 23?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderrLines()).singleElement().asString().contains("--reasoning-effort")
                .contains("Chat Completions").contains("--provider openai").contains("--thinking");
    }

    @Test
    void aReplyOnTheAnthropicProviderSaysInOneLineThatItGoesOnWithoutIt() {
        server.enqueue(ChatReply.completion().text("3月11日です。").build());
        InProcessCli.Outcome outcome = cli.run("run", "--provider", "openai", "--model", "gpt-5.1", "--price", "1,10",
                "--reasoning-effort", "low", "--json", "今日から100日後は?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        String id = Json.parse(outcome.stdout()).get("run_id").asText();

        try (FakeMessagesServer messages = FakeMessagesServer.start()) {
            messages.enqueue(FakeReply.message().text("水曜日です。").build());
            InProcessCli.Outcome reply = cli.env("ANTHROPIC_API_KEY", "sk-ant-test").run("reply", "--json", "--provider",
                    "anthropic", "--base-url", messages.baseUrl(), "--price", "1,10", id, "何曜日?");
            assertThat(reply.exitCode()).as(reply.stderr()).isZero();
            assertThat(reply.stderrLines()).filteredOn(l -> l.contains("reasoning")).singleElement().asString()
                    .startsWith("rein reply: run " + id + " was started with --reasoning-effort low")
                    .contains("provider 'anthropic'").endsWith("goes on without it");
            assertThat(messages.requests().get(0).body().toString()).doesNotContain("reasoning_effort");
        }
    }

    /** A model that does not reason refuses the field (the fake as the API: unsupported_parameter); the error names the option. */
    @Test
    void aModelThatDoesNotReasonFailsSayingToLeaveTheOptionOut() {
        InProcessCli.Outcome outcome = cli.run("run", "--provider", "openai", "--model", "gpt-4.1-mini", "--reasoning-effort",
                "low", "17 * 23?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.FAILED);
        assertThat(outcome.stderr()).contains("'reasoning_effort' is not supported with this model")
                .contains("leave out the OpenAiReasoningEffort model option (--reasoning-effort)");
    }

    /** The run's error for a model that refuses tools with reasoning names the option that fixes it on the command line. */
    @Test
    void aModelThatRefusesToolsWithReasoningFailsNamingTheOption() {
        // the API's answer (not in its reference; HTTP 400, param reasoning_effort, code null)
        server.enqueue(new ChatReply.HttpError(400, "invalid_request_error", null, "x", java.util.Map.of(),
                "{\"error\":{\"message\":\"Function tools with reasoning_effort are not supported for gpt-5.4 in"
                        + " /v1/chat/completions. Please use /v1/responses instead.\",\"type\":\"invalid_request_error\","
                        + "\"param\":\"reasoning_effort\",\"code\":null}}"));
        InProcessCli.Outcome outcome = cli.run("run", "--provider", "openai", "--model", "gpt-5.4", "--price", "1,10",
                "--reasoning-effort", "high", "17 * 23?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isNotZero();
        assertThat(outcome.stderr()).contains("--reasoning-effort none");
    }

    /**
     * rein eval --model and rein example (demo and --eval) take --reasoning-effort as rein run does, sent with every request
     * of every trial: without it a suite on a model that takes function tools only with reasoning effort none (OpenAI's
     * gpt-5.4 and later) could not run from the CLI. Before: an unknown option (exit 2).
     */
    @Test
    void evalAndExampleSendTheEffortWithEveryRequest(@TempDir Path dir) throws Exception {
        Path suite = Files.writeString(dir.resolve("suite.yaml"), """
                suite: one
                environment: {name: file_tree, options: {files: {a.txt: alpha}}}
                agent: {toolsets: [files_read]}
                tasks:
                  - id: hello
                    goal: say hello
                    script:
                      - text: hello
                """);
        for (int i = 0; i < 300; i++) {
            server.enqueue(ChatReply.text("hello"));
        }
        InProcessCli.Outcome eval = cli.run("eval", suite.toString(), "--provider", "openai", "--model", "gpt-5.4", "--price",
                "1,10", "--reasoning-effort", "none", "--trials", "2");
        assertThat(eval.exitCode()).as(eval.stderr()).isZero();
        assertThat(server.requests()).isNotEmpty().allSatisfy(request -> {
            assertThat(request.body().path("reasoning_effort").asText()).isEqualTo("none");
            assertThat(request.body().get("tools")).isNotEmpty();
        });

        int afterEval = server.requestCount();
        InProcessCli.Outcome example = cli.run("example", "date", "--eval", "--trials", "1", "--provider", "openai", "--model",
                "gpt-5", "--reasoning-effort", "low");
        assertThat(example.exitCode()).as(example.stderr()).isNotEqualTo(ExitCodes.USAGE);
        assertThat(server.requests().subList(afterEval, server.requestCount())).isNotEmpty().allSatisfy(request ->
                assertThat(request.body().path("reasoning_effort").asText()).isEqualTo("low"));

        int before = server.requestCount();
        InProcessCli.Outcome demo = cli.run("example", "date", "--provider", "openai", "--model", "gpt-5",
                "--reasoning-effort", "MEDIUM");
        assertThat(demo.exitCode()).as(demo.stderr()).isNotEqualTo(ExitCodes.USAGE);
        assertThat(server.requestCount()).isGreaterThan(before);
        assertThat(server.lastRequest().body().path("reasoning_effort").asText()).isEqualTo("medium");
    }

    /**
     * The effort is one of the request's options where the run records it, as rein run's is: in every model_request of
     * the trial's trace, not only on the wire (it was added below the tracing stage, so the traces did not show it).
     */
    @Test
    void evalTracesShowTheEffortInEveryModelRequestAsRunsDo(@TempDir Path dir) throws Exception {
        server.enqueue(ChatReply.completion().text("hello").build());
        Path runTrace = dir.resolve("run.jsonl");
        InProcessCli.Outcome run = cli.run("run", "--provider", "openai", "--model", "gpt-5.4", "--price", "1,10",
                "--reasoning-effort", "none", "--trace", runTrace.toString(), "say hello");
        assertThat(run.exitCode()).as(run.stderr()).isZero();
        JsonNode runOptions = modelRequests(runTrace).get(0).path("request").path("options");
        assertThat(runOptions.toString()).contains("none");

        Path suite = Files.writeString(dir.resolve("suite.yaml"), """
                suite: one
                environment: {name: file_tree, options: {files: {a.txt: alpha}}}
                agent: {toolsets: [files_read]}
                tasks:
                  - id: hello
                    goal: say hello
                    script:
                      - text: hello
                """);
        server.enqueue(ChatReply.completion().text("hello").build());
        Path traces = dir.resolve("traces");
        InProcessCli.Outcome eval = cli.run("eval", suite.toString(), "--provider", "openai", "--model", "gpt-5.4", "--price",
                "1,10", "--reasoning-effort", "none", "--trials", "1", "--traces", traces.toString());
        assertThat(eval.exitCode()).as(eval.stderr()).isZero();
        Path trialTrace;
        try (var files = Files.list(traces)) {
            trialTrace = files.filter(f -> f.toString().endsWith(".jsonl")).findFirst().orElseThrow();
        }
        assertThat(modelRequests(trialTrace)).isNotEmpty().allSatisfy(event ->
                assertThat(event.path("request").path("options")).isEqualTo(runOptions));
    }

    private static java.util.List<JsonNode> modelRequests(Path trace) throws java.io.IOException {
        return Files.readAllLines(trace).stream().filter(line -> !line.isBlank()).map(Json::parse)
                .filter(event -> event.path("type").asText().equals("model_request")).toList();
    }

    /** The same refusals as rein run's, before any trial; and with no real model to send it to, a usage error too. */
    @Test
    void evalAndExampleRefuseTheEffortWhereNoOpenAiModelWouldSendIt(@TempDir Path dir) throws Exception {
        Path suite = Path.of("..", "docs", "eval-suite-example.yaml");
        InProcessCli withClaude = cli.env("ANTHROPIC_API_KEY", "sk-ant-test");
        for (String[] args : new String[][] {
                {"eval", suite.toString(), "--model", "claude-sonnet-4-5", "--reasoning-effort", "low"},
                {"example", "date", "--provider", "anthropic", "--reasoning-effort", "low"},
                {"example", "date", "--eval", "--provider", "anthropic", "--reasoning-effort", "low"}}) {
            InProcessCli.Outcome outcome = withClaude.run(args);
            assertThat(outcome.exitCode()).as(String.join(" ", args) + ": " + outcome.stderr()).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stderrLines()).as(String.join(" ", args)).singleElement().asString()
                    .contains("--reasoning-effort is an option of OpenAI Chat Completions").contains("--thinking");
        }
        InProcessCli.Outcome offline = cli.run("eval", suite.toString(), "--reasoning-effort", "none");
        assertThat(offline.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(offline.stderrLines()).singleElement().asString()
                .startsWith("rein eval: --reasoning-effort applies to the model given with --model");
        InProcessCli.Outcome scripted = cli.run("example", "date", "--offline", "--reasoning-effort", "none");
        assertThat(scripted.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(scripted.stderrLines()).singleElement().asString().contains("--offline")
                .contains("leave --reasoning-effort out");
        InProcessCli.Outcome bad = cli.run("example", "date", "--provider", "openai", "--reasoning-effort", "max");
        assertThat(bad.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.stderr()).contains("none, minimal, low, medium, high or xhigh");
        assertThat(server.requestCount()).isZero();
    }

    @Test
    void evalAndExampleHelpShowTheOption() {
        for (String command : new String[] {"eval", "example"}) {
            InProcessCli.Outcome help = cli.run(command, "--help");
            assertThat(help.stdout()).as(command).contains("--reasoning-effort=LEVEL").contains("--thinking=");
        }
    }
}
