package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.testkit.FakeMessagesServer;
import dev.rein.testkit.FakeReply;
import org.junit.jupiter.api.AfterEach;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rein run --thinking adaptive|between_tools|N}: Claude's extended thinking (AnthropicThinking) from the
 * command line, sent as the Messages docs write it, kept for {@code rein reply} and {@code rein
 * resume}, and refused with one line for a bad value, a budget not below max_tokens, or another provider.
 */
class ThinkingOptionTest {
    private final FakeMessagesServer server = FakeMessagesServer.start();
    private final InProcessCli cli = new InProcessCli().models(ProviderModels::create)
            .env("ANTHROPIC_API_KEY", "sk-ant-test").env("ANTHROPIC_BASE_URL", server.baseUrl());

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aBudgetIsSentAsEnabledThinkingAndKeptForReply() {
        server.enqueue(FakeReply.message().thinking("100日後を数える。", "sig_1").text("3月11日です。").build());
        InProcessCli.Outcome outcome = cli.run("run", "--model", TAKES_BUDGETS, "--thinking", "4000", "--json", "今日から100日後は?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(Json.parse(outcome.stdout()).get("answer").asText()).isEqualTo("3月11日です。");
        assertThat(server.requests().get(0).body().get("thinking"))
                .isEqualTo(Json.parse("{\"type\": \"enabled\", \"budget_tokens\": 4000}"));

        server.enqueue(FakeReply.message().text("水曜日です。").build());
        String id = Json.parse(outcome.stdout()).get("run_id").asText();
        InProcessCli.Outcome reply = cli.run("reply", "--json", id, "何曜日?");
        assertThat(reply.exitCode()).as(reply.stderr()).isZero();
        JsonNode second = server.requests().get(1).body();
        assertThat(second.get("thinking")).isEqualTo(Json.parse("{\"type\": \"enabled\", \"budget_tokens\": 4000}"));
        // The earlier turn's thinking goes back with its signature, as the API requires.
        assertThat(second.at("/messages/1/content/0/type").asText()).isEqualTo("thinking");
        assertThat(second.at("/messages/1/content/0/signature").asText()).isEqualTo("sig_1");
    }

    /** Claude Sonnet 5.5 refuses thinking off; {@code between_tools} is its lowest setting (its "What's new" page). */
    @Test
    void betweenToolsIsSentAsItsOwnThinkingType() {
        server.enqueue(FakeReply.message().text("3月11日です。").build());
        InProcessCli.Outcome outcome = cli.run("run", "--model", "claude-sonnet-5-5", "--thinking", "between_tools", "--json",
                "今日から100日後は?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(server.requests().get(0).body().get("thinking")).isEqualTo(Json.parse("{\"type\": \"between_tools\"}"));
    }

    /**
     * Only Claude Sonnet 5.5 takes between_tools (the thinking troubleshooting page): on the default claude-sonnet-5 the
     * run's agent is refused before any request, saying what to give, not a FAILED run after the API's 400.
     */
    @Test
    void betweenToolsOnTheDefaultModelIsRefusedBeforeAnyRequest() {
        InProcessCli.Outcome outcome = cli.run("run", "--thinking", "between_tools", "今日から100日後は?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(2);
        assertThat(outcome.stderr()).contains("claude-sonnet-5").contains("only Claude Sonnet 5.5")
                .contains("--thinking adaptive").doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(server.requests()).isEmpty();
    }

    /**
     * between_tools on a model from Claude 4.7 on other than Claude Sonnet 5.5 is refused in the options' terms, as a
     * budget is, for run, eval and example alike: naming the model and what to give. Before: the library's words
     * ("AnthropicThinking.betweenTools() cannot be used on claude-sonnet-5: ...").
     */
    @Test
    void betweenToolsOnAModelThatTakesNoneIsAUsageErrorInTheOptionsTerms() {
        InProcessCli.Outcome outcome = cli.run("run", "--thinking", "between_tools", "今日から100日後は?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderrLines()).singleElement().asString()
                .startsWith("rein run: --thinking between_tools cannot be used on claude-sonnet-5 (the default model): only"
                        + " Claude Sonnet 5.5 takes between_tools thinking")
                .contains("give --thinking adaptive").contains("leave --thinking out").contains("--model claude-sonnet-5-5")
                .doesNotContain("AnthropicThinking");
        Path suite = Path.of("..", "docs", "eval-suite-example.yaml");
        for (String[] args : new String[][] {{"run", "--model", "claude-opus-5", "--thinking", "between_tools", "hi"},
                {"eval", suite.toString(), "--model", "claude-opus-5-5", "--thinking", "between_tools"},
                {"example", "date", "--thinking", "between_tools"},
                {"example", "date", "--eval", "--trials", "1", "--model", "claude-fable-5", "--thinking", "between_tools"}}) {
            InProcessCli.Outcome other = cli.run(args);
            String line = String.join(" ", args);
            assertThat(other.exitCode()).as(line + ": " + other.stderr()).isEqualTo(ExitCodes.USAGE);
            assertThat(other.stderrLines()).as(line).singleElement().asString()
                    .contains("--thinking between_tools cannot be used on ").contains("only Claude Sonnet 5.5")
                    .contains("give --thinking adaptive").doesNotContain("AnthropicThinking");
            assertThat(other.stdout()).as(line).isEmpty();
        }
        assertThat(server.requestCount()).isZero();
    }

    /** Claude Sonnet 4.5 takes a budget; the models from Claude 4.7 on refuse one. */
    private static final String TAKES_BUDGETS = "claude-sonnet-4-5";

    /**
     * Every model from Claude 4.7 on refuses a budget (the thinking troubleshooting docs), the default claude-sonnet-5
     * too: a usage error naming the model and saying what to give instead, before anything is sent or saved. Before,
     * the run started, and its first call failed with the API's 400 (exit 1).
     */
    @Test
    void aBudgetOnAModelFromClaude47OnIsAUsageErrorNamingTheModel() {
        InProcessCli.Outcome outcome = cli.run("run", "--thinking", "4000", "今日から100日後は?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderrLines()).singleElement().asString()
                .startsWith("rein run: --thinking 4000 is a thinking budget, and claude-sonnet-5 (the default model) takes none")
                .contains("from Claude 4.7 on").contains("give --thinking adaptive").contains("leave --thinking out");
        for (String model : new String[] {"claude-opus-5", "claude-opus-5-5", "claude-opus-4-7"}) {
            InProcessCli.Outcome named = cli.run("run", "--model", model, "--thinking", "4000", "今日から100日後は?");
            assertThat(named.exitCode()).as(model + ": " + named.stderr()).isEqualTo(ExitCodes.USAGE);
            assertThat(named.stderrLines()).as(model).singleElement().asString()
                    .contains("--thinking 4000 is a thinking budget, and " + model + " takes none")
                    .contains("give --thinking adaptive");
        }
        Path suite = Path.of("..", "docs", "eval-suite-example.yaml");
        for (String[] args : new String[][] {{"eval", suite.toString(), "--model", "claude-sonnet-5", "--thinking", "4000"},
                {"example", "date", "--model", "claude-opus-5", "--thinking", "2000"}}) {
            InProcessCli.Outcome other = cli.run(args);
            assertThat(other.exitCode()).as(String.join(" ", args) + ": " + other.stderr()).isEqualTo(ExitCodes.USAGE);
            assertThat(other.stderrLines()).as(String.join(" ", args)).singleElement().asString()
                    .contains("is a thinking budget").contains("give --thinking adaptive");
        }
        // without --model the example runs on the provider's default model, which is named as such
        for (String[] args : new String[][] {{"example", "date", "--thinking", "2000"},
                {"example", "date", "--eval", "--trials", "1", "--thinking", "2000"}}) {
            InProcessCli.Outcome example = cli.run(args);
            assertThat(example.exitCode()).as(String.join(" ", args) + ": " + example.stderr()).isEqualTo(ExitCodes.USAGE);
            assertThat(example.stderrLines()).as(String.join(" ", args)).singleElement().asString()
                    .startsWith("rein example: --thinking 2000 is a thinking budget, and claude-sonnet-5 (the default model)"
                            + " takes none").contains("give --thinking adaptive");
            assertThat(example.stdout()).as(String.join(" ", args)).isEmpty();
        }
        assertThat(server.requestCount()).isZero();
        // adaptive thinking is what they take
        server.enqueue(FakeReply.message().text("3月11日です。").build());
        InProcessCli.Outcome adaptive = cli.run("run", "--thinking", "adaptive", "今日から100日後は?");
        assertThat(adaptive.exitCode()).as(adaptive.stderr()).isZero();
    }

    @Test
    void aReplyWhoseMaxTokensLeavesNoRoomForTheRunsBudgetIsAUsageError() {
        server.enqueue(FakeReply.message().text("3月11日です。").build());
        InProcessCli.Outcome outcome = cli.run("run", "--model", TAKES_BUDGETS, "--thinking", "4000", "--json", "今日から100日後は?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        String id = Json.parse(outcome.stdout()).get("run_id").asText();

        InProcessCli.Outcome reply = cli.run("reply", "--max-tokens", "2000", id, "何曜日?");
        assertThat(reply.exitCode()).as(reply.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(reply.stderrLines()).singleElement().asString().contains("--thinking 4000").contains("--max-tokens");
        assertThat(server.requestCount()).isEqualTo(1);
    }

    @Test
    void adaptiveIsSentAsAdaptiveThinking() {
        server.enqueue(FakeReply.message().text("391").build());
        InProcessCli.Outcome outcome = cli.run("run", "--thinking", "adaptive", "17 * 23?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(server.requests().get(0).body().get("thinking")).isEqualTo(Json.parse("{\"type\": \"adaptive\"}"));
    }

    @Test
    void withoutTheOptionNoThinkingIsSent() {
        server.enqueue(FakeReply.message().text("391").build());
        InProcessCli.Outcome outcome = cli.run("run", "17 * 23?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(server.requests().get(0).body().has("thinking")).isFalse();
    }

    @Test
    void aValueThatIsNeitherAdaptiveNorABudgetOfAtLeast1024IsAUsageErrorAndNothingIsSent() {
        for (String bad : new String[] {"1023", "0", "-5", "lots", "", "99999999999"}) {
            InProcessCli.Outcome outcome = cli.run("run", "--thinking", bad, "17 * 23?");
            assertThat(outcome.exitCode()).as(bad + ": " + outcome.stderr()).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stderr()).as(bad).contains("--thinking").contains("--thinking adaptive").contains("--thinking 4000");
        }
        assertThat(server.requestCount()).isZero();
    }

    @Test
    void aBudgetNotBelowMaxTokensIsAUsageErrorNamingBothOptions() {
        InProcessCli.Outcome outcome = cli.run("run", "--thinking", "10000", "17 * 23?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderrLines()).singleElement().asString().contains("--thinking 10000")
                .contains("--max-tokens").contains("8192");
        assertThat(server.requestCount()).isZero();
        server.enqueue(FakeReply.message().text("391").build());
        InProcessCli.Outcome raised = cli.run("run", "--model", TAKES_BUDGETS, "--thinking", "10000", "--max-tokens", "16000",
                "17 * 23?");
        assertThat(raised.exitCode()).as(raised.stderr()).isZero();
        assertThat(server.lastRequest().body().get("max_tokens").asInt()).isEqualTo(16000);
    }

    @Test
    void anotherProviderIsAUsageErrorSayingThinkingIsAnAnthropicOption() {
        InProcessCli.Outcome outcome = cli.env("OPENAI_API_KEY", "sk-test").run("run", "--provider", "openai",
                "--thinking", "adaptive", "17 * 23?");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderrLines()).singleElement().asString().contains("--thinking")
                .contains("Anthropic").contains("--provider anthropic");
    }

    /**
     * rein eval --model and rein example (demo and --eval) take --thinking as rein run does, sent with every request of every
     * trial. Before: an unknown option (exit 2).
     */
    @Test
    void evalAndExampleSendThinkingWithEveryRequest(@TempDir Path dir) throws Exception {
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
            server.enqueue(FakeReply.message().text("hello").build());
        }
        InProcessCli.Outcome eval = cli.run("eval", suite.toString(), "--model", "claude-sonnet-4-5", "--thinking", "adaptive",
                "--trials", "1");
        assertThat(eval.exitCode()).as(eval.stderr()).isZero();
        assertThat(server.requests()).singleElement().satisfies(request ->
                assertThat(request.body().get("thinking")).isEqualTo(Json.parse("{\"type\": \"adaptive\"}")));

        InProcessCli.Outcome example = cli.run("example", "date", "--eval", "--trials", "1", "--model", TAKES_BUDGETS,
                "--thinking", "2000");
        assertThat(example.exitCode()).as(example.stderr()).isNotEqualTo(ExitCodes.USAGE);
        assertThat(server.requests().subList(1, server.requestCount())).isNotEmpty().allSatisfy(request ->
                assertThat(request.body().get("thinking"))
                        .isEqualTo(Json.parse("{\"type\": \"enabled\", \"budget_tokens\": 2000}")));

        int before = server.requestCount();
        InProcessCli.Outcome demo = cli.run("example", "date", "--thinking", "adaptive");
        assertThat(demo.exitCode()).as(demo.stderr()).isNotEqualTo(ExitCodes.USAGE);
        assertThat(server.requestCount()).isGreaterThan(before);
        assertThat(server.lastRequest().body().get("thinking")).isEqualTo(Json.parse("{\"type\": \"adaptive\"}"));
    }

    /** The same refusal as rein run's for another provider; and with no real model to send it to, a usage error too. */
    @Test
    void evalAndExampleRefuseThinkingWhereNoClaudeModelWouldSendIt() {
        Path suite = Path.of("..", "docs", "eval-suite-example.yaml");
        InProcessCli withOpenAi = cli.env("OPENAI_API_KEY", "sk-test");
        for (String[] args : new String[][] {
                {"eval", suite.toString(), "--provider", "openai", "--model", "gpt-5", "--thinking", "adaptive"},
                {"example", "date", "--provider", "openai", "--thinking", "adaptive"},
                {"example", "date", "--eval", "--provider", "openai", "--thinking", "4000"}}) {
            InProcessCli.Outcome outcome = withOpenAi.run(args);
            assertThat(outcome.exitCode()).as(String.join(" ", args) + ": " + outcome.stderr()).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stderrLines()).as(String.join(" ", args)).singleElement().asString()
                    .contains("--thinking is an option of the Anthropic Messages API").contains("--provider anthropic");
        }
        InProcessCli.Outcome offline = cli.run("eval", suite.toString(), "--thinking", "adaptive");
        assertThat(offline.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(offline.stderrLines()).singleElement().asString()
                .startsWith("rein eval: --thinking applies to the model given with --model");
        InProcessCli.Outcome scripted = cli.run("example", "date", "--offline", "--thinking", "adaptive");
        assertThat(scripted.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(scripted.stderrLines()).singleElement().asString().contains("leave --thinking out");
        assertThat(server.requestCount()).isZero();
    }

    /**
     * A budget a suite agent's own max_tokens leaves no room for is one usage error before any trial or demo run, in the
     * options' terms (which option, which value, which agent's max_tokens, what to do); it was refused at every trial's
     * call (or agent), in the library's words, and the evaluation ended in infrastructure errors.
     */
    @Test
    void aBudgetASuiteAgentsMaxTokensLeavesNoRoomForIsAUsageErrorBeforeAnyTrial(@TempDir Path dir) throws Exception {
        Path suite = Files.writeString(dir.resolve("suite.yaml"), """
                suite: one
                environment: {name: file_tree, options: {files: {a.txt: alpha}}}
                agent: {toolsets: [files_read], max_tokens: 2048}
                tasks:
                  - id: hello
                    goal: say hello
                    script:
                      - text: hello
                """);
        InProcessCli.Outcome eval = cli.run("eval", suite.toString(), "--model", "claude-sonnet-4-5", "--thinking", "4000");
        assertThat(eval.exitCode()).as(eval.stderr()).isEqualTo(ExitCodes.USAGE);
        assertThat(eval.stderrLines()).singleElement().asString().startsWith("rein eval: --thinking 4000 must be below max_tokens,"
                + " which is 2048 for the agent of task 'hello'").contains("agent.max_tokens in the suite")
                .contains("--thinking adaptive");

        for (String[] args : new String[][] {{"example", "npc", "--model", TAKES_BUDGETS, "--thinking", "2000"},
                {"example", "npc", "--eval", "--trials", "1", "--model", TAKES_BUDGETS, "--thinking", "2000"}}) {
            InProcessCli.Outcome example = cli.run(args);
            assertThat(example.exitCode()).as(String.join(" ", args) + ": " + example.stderr()).isEqualTo(ExitCodes.USAGE);
            assertThat(example.stderrLines()).as(String.join(" ", args)).singleElement().asString()
                    .contains("--thinking 2000 must be below max_tokens, which is 400 for the agent of task")
                    .contains("give a budget below 400");
            assertThat(example.stdout()).as(String.join(" ", args)).isEmpty();
        }
        assertThat(server.requestCount()).isZero();

        // room enough: the trials run and send it
        server.enqueue(FakeReply.message().text("hello").build());
        InProcessCli.Outcome roomy = cli.run("eval", suite.toString(), "--model", "claude-sonnet-4-5", "--thinking", "1024",
                "--trials", "1");
        assertThat(roomy.exitCode()).as(roomy.stderr()).isZero();
        assertThat(server.requests()).singleElement().satisfies(request -> assertThat(request.body().get("thinking"))
                .isEqualTo(Json.parse("{\"type\": \"enabled\", \"budget_tokens\": 1024}")));
    }
}
