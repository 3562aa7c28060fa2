package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.testkit.FakeMessagesServer;
import dev.rein.testkit.FakeReply;
import dev.rein.testkit.RecordedRequest;
import dev.rein.testkit.openai.ChatReply;
import dev.rein.testkit.openai.FakeChatCompletionsServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CLI contract of {@code --provider openai}, in-process with the real provider plug-ins behind
 * the model factory and the fake Chat Completions server as the "OpenAI-compatible" server.
 */
class OpenAiProviderCliTest {
    private final FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
    private final InProcessCli cli = new InProcessCli().models(ProviderModels::create);

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void thePublicApiWithoutAKeyIsExit2WithOneLineNamingTheVariableAndNoRequest() {
        for (String[] args : new String[][] {{"run", "--provider", "openai", "hello"},
                {"run", "--provider", "openai", "--base-url", "https://api.openai.com/v1", "hello"}}) {
            InProcessCli.Outcome outcome = cli.run(args);
            assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stderrLines()).singleElement().asString().contains("OPENAI_API_KEY");
            assertThat(outcome.stdout()).isEmpty();
        }
        InProcessCli.Outcome fromEnv = new InProcessCli().models(ProviderModels::create).env("REIN_PROVIDER", "openai")
                .run("run", "hello");
        assertThat(fromEnv.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(fromEnv.stderrLines()).singleElement().asString().contains("OPENAI_API_KEY");
    }

    @Test
    void aKeyNoHeaderCanCarryIsExit2WithOneLineNamingTheVariableAndNoRequest() {
        // Pasted with typographic quotes: every call would fail on OkHttp's header check.
        InProcessCli.Outcome outcome = cli.env("OPENAI_API_KEY", "\u201csk-test\u201d").run("run", "--provider", "openai",
                "--base-url", server.baseUrl(), "--model", "qwen3:8b", "--price", "0,0", "hello");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderrLines()).singleElement().asString().contains("OPENAI_API_KEY").contains("U+201C at position 1")
                .doesNotContain("sk-test");
        assertThat(server.requestCount()).isZero();
    }

    @Test
    void anUnpricedModelIsExit2NamingPriceAndNothingIsSent() {
        InProcessCli.Outcome outcome = cli.run("run", "--provider", "openai", "--base-url", server.baseUrl(),
                "--model", "qwen3:8b", "hello");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderrLines()).singleElement().asString()
                .contains("no price is known for model 'qwen3:8b'").contains("--price").contains("--price 0,0");
        assertThat(server.requestCount()).isZero();
    }

    @Test
    void aModelThatOnlyStartsWithAPricedNameIsUnpricedNotPricedAsThatModel() {
        // o3-pro costs ten times o3, gpt-5-pro twelve times gpt-5: priced as their stem, the money budget
        // would let a run spend ten times its limit. Only dated ids take their base name's price.
        for (String model : new String[] {"o3-pro", "gpt-5-pro", "o4-mini-deep-research"}) {
            InProcessCli.Outcome outcome = cli.env("OPENAI_API_KEY", "sk-test").run("run", "--provider", "openai",
                    "--base-url", server.baseUrl(), "--model", model, "hello");
            assertThat(outcome.exitCode()).as(model + ": " + outcome.stderr()).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stderrLines()).singleElement().asString()
                    .contains("no price is known for model '" + model + "'").contains("--price");
        }
        assertThat(server.requestCount()).isZero();
        server.enqueue(ChatReply.completion().text("done").usage(1_000_000, 0, 0).build());
        InProcessCli.Outcome dated = cli.env("OPENAI_API_KEY", "sk-test").run("run", "--provider", "openai", "--base-url",
                server.baseUrl(), "--model", "gpt-4o-mini-2024-07-18", "--json", "go");
        assertThat(dated.exitCode()).as(dated.stderr()).isZero();
        assertThat(Json.parse(dated.stdout()).get("cost_usd").decimalValue()).as("gpt-4o-mini's input price, not gpt-4o's")
                .isEqualByComparingTo("0.15");
    }

    @Test
    void aLocalServerRunsWithoutAKeyAndJsonKeepsItsSchemaWithUncachedInput() {
        server.enqueue(ChatReply.completion().text("計算します。").toolCall("call_1", "calculate", "{\"expression\":\"17 * 23\"}")
                .usage(1200, 30, 1000).build());
        server.enqueue(ChatReply.completion().text("17 × 23 = 391").usage(1300, 10, 1200).build());

        InProcessCli.Outcome outcome = cli.env("OPENAI_BASE_URL", server.baseUrl())
                .run("run", "--provider", "openai", "--model", "qwen3:8b", "--price", "0,0", "--json", "17 * 23 は?");

        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        JsonNode json = Json.parse(outcome.stdout());
        List<String> fields = new ArrayList<>();
        json.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("run_id", "status", "reason", "answer", "steps", "usage", "cost_usd");
        assertThat(json.get("answer").asText()).isEqualTo("17 × 23 = 391");
        assertThat(json.at("/usage/input_tokens").asLong()).as("prompt - cached").isEqualTo(200 + 100);
        assertThat(json.at("/usage/cache_read_input_tokens").asLong()).isEqualTo(2200);
        assertThat(json.at("/usage/cache_creation_input_tokens").asLong()).isZero();
        assertThat(json.at("/usage/output_tokens").asLong()).isEqualTo(40);
        assertThat(json.get("cost_usd").decimalValue()).isZero();

        RecordedRequest first = server.requests().get(0);
        assertThat(first.header("authorization")).isNull();
        assertThat(first.body().get("model").asText()).isEqualTo("qwen3:8b");
        assertThat(first.body().at("/messages/0/content").asText()).isEqualTo("17 * 23 は?");
        assertThat(server.requests().get(1).body().at("/messages/2/role").asText()).isEqualTo("tool");
    }

    @Test
    void aServerThatSendsNoUsageIsChargedAnEstimateSoTheMoneyLimitStillBinds() {
        // An older llama.cpp or vLLM ignores stream_options.include_usage: counted as zero, --max-cost-usd
        // would never stop the run. USD 100,000 per million tokens makes each estimated call cost over USD 1.
        server.reportUsage(false);
        for (int i = 0; i < 10; i++) {
            server.enqueue(ChatReply.completion().toolCall("call_" + i, "calculate", "{\"expression\":\"" + i + " + 1\"}").build());
        }
        server.enqueue(ChatReply.text("partial summary"));
        InProcessCli.Outcome outcome = cli.run("run", "--provider", "openai", "--base-url", server.baseUrl(),
                "--model", "qwen3:8b", "--price", "100000,100000", "--max-cost-usd", "2", "--json", "add some numbers");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.STOPPED_BUDGET);
        JsonNode json = Json.parse(outcome.stdout());
        assertThat(json.get("reason").asText()).isEqualTo("max_cost");
        assertThat(json.at("/usage/estimated").asBoolean()).isTrue();
        assertThat(json.at("/usage/input_tokens").asLong()).isPositive();
        assertThat(server.requestCount()).isLessThan(11);
        assertThat(outcome.stderrLines()).filteredOn(line -> line.contains("usage estimated")).singleElement().asString()
                .contains("reported no token usage for model 'qwen3:8b'");
        assertThat(outcome.stderr()).contains("estimated tokens in ");
    }

    @Test
    void thePriceOverridesTheTableAndCountsAgainstTheBudget() {
        server.enqueue(ChatReply.completion().text("done").usage(1_000_000, 1_000_000, 0).build());
        InProcessCli.Outcome outcome = cli.run("run", "--provider", "openai", "--base-url", server.baseUrl(),
                "--model", "gpt-4.1-mini", "--price", "2,3", "--json", "go");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(Json.parse(outcome.stdout()).get("cost_usd").decimalValue()).isEqualByComparingTo("5");
    }

    @Test
    void baseUrlAndPriceWorkForAnthropicToo() {
        try (FakeMessagesServer anthropic = FakeMessagesServer.start()) {
            anthropic.enqueue(FakeReply.message().text("done").usage(1_000_000, 1_000_000).build());
            InProcessCli.Outcome outcome = cli.env("ANTHROPIC_API_KEY", "sk-ant-test").env("REIN_PROVIDER", "openai")
                    .run("run", "--provider", "anthropic", "--base-url", anthropic.baseUrl(), "--model", "claude-next",
                            "--price", "1,2", "--json", "go");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(anthropic.requests()).hasSize(1);
            assertThat(anthropic.lastRequest().body().get("model").asText()).isEqualTo("claude-next");
            assertThat(Json.parse(outcome.stdout()).get("cost_usd").decimalValue()).isEqualByComparingTo("3");
        }
        assertThat(server.requestCount()).isZero();
    }

    @Test
    void aKeyTheProviderRefusesWith401NamesTheVariableTheKeyCameFrom() {
        // The API's own message ('invalid x-api-key') does not say where the CLI took the key from.
        try (FakeMessagesServer anthropic = FakeMessagesServer.start()) {
            anthropic.enqueue(FakeReply.error(401, "authentication_error", "invalid x-api-key"));
            InProcessCli.Outcome outcome = cli.env("ANTHROPIC_API_KEY", "sk-ant-wrong")
                    .run("run", "--base-url", anthropic.baseUrl(), "--json", "go");
            assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.FAILED);
            assertThat(Json.parse(outcome.stdout()).get("reason").asText()).isEqualTo("provider_error");
            assertThat(outcome.stderrLines()).last().asString().startsWith("rein: FAILED (provider_error): ")
                    .contains("invalid x-api-key")
                    .contains("(the provider refused the key: check ANTHROPIC_API_KEY)");
        }
        server.enqueue(ChatReply.error(401, "invalid_request_error", "Incorrect API key provided: sk-wrong."));
        InProcessCli.Outcome openai = new InProcessCli().models(ProviderModels::create).env("OPENAI_API_KEY", "sk-wrong")
                .run("run", "--provider", "openai", "--base-url", server.baseUrl(), "-q", "go");
        assertThat(openai.exitCode()).as(openai.stderr()).isEqualTo(ExitCodes.FAILED);
        assertThat(openai.stderrLines()).last().asString().contains("Incorrect API key provided")
                .contains("(the provider refused the key: check OPENAI_API_KEY)");
        // Another failure gets no such hint.
        server.enqueue(ChatReply.error(400, "invalid_request_error", "bad request"));
        InProcessCli.Outcome other = new InProcessCli().models(ProviderModels::create).env("OPENAI_API_KEY", "sk-wrong")
                .run("run", "--provider", "openai", "--base-url", server.baseUrl(), "-q", "go");
        assertThat(other.stderrLines()).last().asString().contains("bad request").doesNotContain("refused the key");
    }

    @Test
    void aServerThatAsksForAKeyNoneWasSentForSaysToSetTheVariable() {
        // vLLM started with --api-key, OPENAI_API_KEY not exported: no key was sent, so none was refused.
        server.requireApiKey("sk-local");
        InProcessCli.Outcome outcome = new InProcessCli().models(ProviderModels::create)
                .run("run", "--provider", "openai", "--base-url", server.baseUrl(), "--price", "0,0", "-q", "go");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.FAILED);
        assertThat(outcome.stderrLines()).last().asString().contains("You didn't provide an API key")
                .contains("(the server asks for a key and none was sent: set OPENAI_API_KEY)")
                .doesNotContain("refused the key");
    }

    @Test
    void anEmptyProviderOptionIsAUsageErrorNotTheDefaultProvider() {
        // '--provider "$P"' with P unset: was taken as anthropic, over REIN_PROVIDER, and the run went there.
        InProcessCli withEnv = new InProcessCli().models(ProviderModels::create).env("ANTHROPIC_API_KEY", "sk-ant-test")
                .env("REIN_PROVIDER", "openai");
        for (String[] args : new String[][] {{"run", "--provider", "", "--base-url", server.baseUrl(), "--price", "0,0", "hi"},
                {"run", "--provider", " ", "--price", "0,0", "hi"},
                {"eval", "--provider", "", "--model", "m", "--price", "0,0", "../docs/eval-suite-example.yaml"}}) {
            InProcessCli.Outcome outcome = withEnv.run(args);
            assertThat(outcome.exitCode()).as(String.join(" ", args)).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stdout()).isEmpty();
            assertThat(outcome.stderrLines()).as(String.join(" ", args)).singleElement().asString()
                    .endsWith("--provider is empty: give a provider name, one of: anthropic, openai");
        }
        assertThat(withEnv.modelsCreated()).isZero();
        assertThat(server.requestCount()).isZero();
    }

    @Test
    void theStepBudgetEndsWithTheSummaryCallSendingToolsWithChoiceNone() {
        server.enqueue(ChatReply.toolCall("call_1", "calculate", "{\"expression\":\"2 + 3\"}"), ChatReply.text("So far: 5."));
        InProcessCli.Outcome outcome = cli.run("run", "--provider", "openai", "--base-url", server.baseUrl(),
                "--max-steps", "1", "--json", "add 2 and 3");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.STOPPED_BUDGET);
        JsonNode summary = server.requests().get(1).body();
        assertThat(summary.get("tool_choice").asText()).isEqualTo("none");
        assertThat(summary.get("tools")).isNotEmpty();
        assertThat(server.requests().get(0).body().get("model").asText()).as("the provider's default model")
                .isEqualTo("gpt-4.1-mini");
    }

    @Test
    void aPausedRunResumesOnTheSameServerWithoutRepeatingTheOptions() throws Exception {
        String send = "{\"to\":\"sato@example.jp\",\"subject\":\"会議\",\"body\":\"明日10時に変更です。\"}";
        server.enqueue(ChatReply.toolCall("call_S", "send_message", send), ChatReply.text("送信しました。"));
        InProcessCli.Outcome run = cli.run("run", "--provider", "openai", "--base-url", server.baseUrl(), "--model",
                "qwen3:8b", "--price", "0,0", "--tools", "send_message", "佐藤さんに連絡して");
        assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCodes.WAITING_APPROVAL);
        String id;
        try (var files = Files.list(cli.home().resolve("runs"))) {
            id = files.findFirst().orElseThrow().getFileName().toString().replace(".json", "");
        }
        assertThat(cli.run("approve", id).exitCode()).isZero();

        InProcessCli.Outcome resumed = cli.run("resume", id, "--json");

        assertThat(resumed.exitCode()).as(resumed.stderr()).isZero();
        assertThat(Json.parse(resumed.stdout()).get("answer").asText()).isEqualTo("送信しました。");
        JsonNode second = server.requests().get(1).body();
        assertThat(second.get("model").asText()).isEqualTo("qwen3:8b");
        assertThat(second.at("/messages/2/tool_call_id").asText()).isEqualTo("call_S");
    }

    @Test
    void badProviderOptionsAreOneLineUsageErrors() {
        String[][] cases = {{"--provider", "gemini"}, {"--base-url", "localhost:11434"}, {"--price", "1"},
                {"--price", "a,b"}, {"--price", "-1,2"}, {"--price", "1,2,3,4,5"}};
        for (String[] option : cases) {
            List<String> args = new ArrayList<>(List.of("run", "--provider", "openai"));
            args.addAll(List.of(option));
            args.add("hello");
            InProcessCli.Outcome outcome = cli.run(args.toArray(String[]::new));
            assertThat(outcome.exitCode()).as(String.join(" ", option)).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stderrLines()).as(String.join(" ", option)).hasSize(1);
        }
        assertThat(cli.run("run", "--provider", "gemini", "x").stderr()).contains("anthropic").contains("openai");
        assertThat(server.requestCount()).isZero();
    }

    @Test
    void evalRunsASuiteAgainstTheServer(@TempDir Path dir) throws Exception {
        Path suite = dir.resolve("suite.yaml");
        Files.writeString(suite, """
                suite: release
                trials: 1
                environment:
                  name: file_tree
                  options:
                    files:
                      notes/meeting.md: "決定: リリースは 1月20日。"
                agent:
                  toolsets: [files_read]
                  max_steps: 4
                tasks:
                  - id: release-date
                    category: should_succeed
                    goal: When is the release?
                    expect:
                      answer_contains: [1月20日]
                      must_call: [read_file]
                """);
        server.enqueue(ChatReply.toolCall("call_r", "read_file", "{\"path\":\"notes/meeting.md\"}"),
                ChatReply.text("リリースは 1月20日です。"));

        InProcessCli.Outcome outcome = cli.run("eval", suite.toString(), "--provider", "openai", "--base-url",
                server.baseUrl(), "--model", "local-model", "--price", "0,0", "--json");

        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(Json.parse(outcome.stdout()).at("/summary/passed").asInt()).isEqualTo(1);
        assertThat(server.requests()).hasSize(2);
        assertThat(server.requests().get(0).body().get("model").asText()).isEqualTo("local-model");
    }

    @Test
    void anExampleRunsAgainstTheServer() {
        String today = java.time.LocalDate.now(java.time.ZoneId.of("Asia/Tokyo")).toString();
        String later = java.time.LocalDate.parse(today).plusDays(100).toString();
        server.enqueue(ChatReply.toolCall("call_1", "get_current_time", "{\"timezone\":\"Asia/Tokyo\"}"),
                ChatReply.toolCall("call_2", "add_days", "{\"date\":\"" + today + "\",\"days\":100}"),
                ChatReply.text("100 days from today (" + today + ") is " + later + "."));

        InProcessCli.Outcome outcome = cli.run("example", "date", "--provider", "openai", "--base-url", server.baseUrl(),
                "--model", "gpt-4.1-mini");

        assertThat(outcome.exitCode()).as(outcome.stdout() + outcome.stderr()).isZero();
        assertThat(outcome.stdout()).contains("Model:   gpt-4.1-mini (OpenAI-compatible API)").contains(later);
        assertThat(server.requests()).hasSize(3);
    }

    /**
     * OPENAI_THINK_TAGS chooses the provider's think tags (OpenAiModelBuilder.thinkTags) for every command that builds
     * the model: a Qwen3 on a server without a reasoning parser leaves its thinking at the start of the content. Before:
     * no command could set it, so the answer began with "<think>考えています…</think>".
     */
    @Test
    void thinkTagsFromTheEnvironmentKeepAQwenModelsThinkingOutOfTheAnswer() {
        server.enqueue(ChatReply.text("<think>考えています: 17 × 23</think>\n17 × 23 = 391"));
        InProcessCli.Outcome outcome = cli.env("OPENAI_THINK_TAGS", "leading").run("run", "--provider", "openai", "--base-url",
                server.baseUrl(), "--model", "qwen3:8b", "--price", "0,0", "--json", "17 * 23 は?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(Json.parse(outcome.stdout()).get("answer").asText()).isEqualTo("17 × 23 = 391");

        server.enqueue(ChatReply.text("考えています</think>391"));
        InProcessCli.Outcome opened = new InProcessCli().models(ProviderModels::create).env("OPENAI_THINK_TAGS", "Opened-In-Prompt")
                .run("run", "--provider", "openai", "--base-url", server.baseUrl(), "--model", "qwq", "--price", "0,0", "--json",
                        "17 * 23 は?");
        assertThat(opened.exitCode()).as(opened.stderr()).isZero();
        assertThat(Json.parse(opened.stdout()).get("answer").asText()).isEqualTo("391");
    }

    /** A value OPENAI_THINK_TAGS does not know is one line naming it and the values, exit 2, nothing sent, for each command. */
    @Test
    void anUnknownThinkTagsValueIsAUsageErrorNamingTheVariableAndTheValues(@TempDir Path dir) throws Exception {
        Path suite = dir.resolve("suite.yaml");
        Files.writeString(suite, """
                suite: one
                environment: {name: file_tree}
                agent: {toolsets: [files_read]}
                tasks:
                  - id: hello
                    goal: say hello
                    script:
                      - text: hello
                """);
        for (String[] args : new String[][] {
                {"run", "--provider", "openai", "--base-url", server.baseUrl(), "--model", "qwen3:8b", "--price", "0,0", "こんにちは"},
                {"eval", suite.toString(), "--provider", "openai", "--base-url", server.baseUrl(), "--model", "qwen3:8b", "--price",
                        "0,0"},
                {"example", "date", "--provider", "openai", "--base-url", server.baseUrl(), "--model", "gpt-4.1-mini"}}) {
            InProcessCli.Outcome outcome = new InProcessCli().models(ProviderModels::create).env("OPENAI_THINK_TAGS", "qwen3").run(args);
            assertThat(outcome.exitCode()).as(args[0] + ": " + outcome.stderr()).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stdout()).as(args[0]).isEmpty();
            assertThat(outcome.stderrLines()).as(args[0]).singleElement().asString()
                    .startsWith("rein " + (args[0].equals("example") ? "example date" : args[0])
                            + ": OPENAI_THINK_TAGS must be minimax (the default")
                    .contains("leading (").contains("opened_in_prompt (").contains("was 'qwen3'; unset it for the default");
        }
        assertThat(server.requestCount()).isZero();
    }
}
