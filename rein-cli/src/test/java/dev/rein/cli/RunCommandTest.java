package dev.rein.cli;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static dev.rein.testkit.ScriptedModel.withUsage;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.model.ModelException;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolDefinition;
import dev.rein.model.Usage;
import dev.rein.testkit.ScriptedModel;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rein run} in-process, with a scripted model behind the model factory. */
class RunCommandTest {
    private final InProcessCli cli = new InProcessCli();

    private InProcessCli with(ScriptedModel model) {
        return cli.models((name, env) -> model);
    }

    @Test
    void jsonPrintsExactlyTheContractFieldsWithUsageSummedOverEveryCallIncludingTheSummary() {
        ScriptedModel model = ScriptedModel.of(
                withUsage(Usage.of(1000, 50, 200, 300), toolCalls(call("calculate", "{\"expression\":\"2 + 3\"}"))),
                withUsage(Usage.of(10, 5, 1, 2), text("So far: 2 + 3 = 5.")));

        InProcessCli.Outcome outcome = with(model).run("run", "--json", "--max-steps", "1", "add 2 and 3");

        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.STOPPED_BUDGET);
        assertThat(outcome.stdout().lines()).hasSize(1);
        JsonNode json = Json.parse(outcome.stdout());
        List<String> fields = new ArrayList<>();
        json.fieldNames().forEachRemaining(fields::add);
        assertThat(fields).containsExactly("run_id", "status", "reason", "answer", "steps", "usage", "cost_usd");
        assertThat(json.get("run_id").asText()).startsWith("run_");
        assertThat(json.get("status").asText()).isEqualTo("STOPPED_BUDGET");
        assertThat(json.get("reason").asText()).isEqualTo("max_steps");
        assertThat(json.get("answer").asText()).isEqualTo("So far: 2 + 3 = 5.");
        assertThat(json.get("steps").asInt()).isEqualTo(1);
        JsonNode usage = json.get("usage");
        List<String> usageFields = new ArrayList<>();
        usage.fieldNames().forEachRemaining(usageFields::add);
        assertThat(usageFields).containsExactly("input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens");
        assertThat(usage.get("input_tokens").asLong()).isEqualTo(1010);
        assertThat(usage.get("output_tokens").asLong()).isEqualTo(55);
        assertThat(usage.get("cache_creation_input_tokens").asLong()).isEqualTo(302);
        assertThat(usage.get("cache_read_input_tokens").asLong()).isEqualTo(201);
        // claude-sonnet-5: USD 2 input, 0.20 cache read, 10 output, cache writes 1.25 x input, per million tokens.
        BigDecimal expected = new BigDecimal("0.0020200").add(new BigDecimal("0.000550")).add(new BigDecimal("0.0000402"))
                .add(new BigDecimal("0.0007550"));
        assertThat(json.get("cost_usd").isNumber()).isTrue();
        assertThat(json.get("cost_usd").decimalValue()).isEqualByComparingTo(expected);
        assertThat(outcome.stdout()).doesNotContain("E-");
    }

    @Test
    void webSearchesTheProviderBilledPerUseAreShownInTheJsonTheLiveViewAndTheSummary() {
        // 3 and 2 web searches the API ran for the model: USD 0.01 each on top of the tokens.
        ScriptedModel model = ScriptedModel.of(
                withUsage(new Usage(1000, 50, 0, 0, java.util.Map.of(), false, java.util.Map.of("web_search", 3L)),
                        toolCalls(call("calculate", "{\"expression\":\"2 + 3\"}"))),
                withUsage(new Usage(10, 5, 0, 0, java.util.Map.of(), false, java.util.Map.of("web_search", 2L)), text("晴れです。")));

        InProcessCli.Outcome outcome = with(model).run("run", "--json", "東京の天気は？");

        assertThat(outcome.exitCode()).isZero();
        JsonNode usage = Json.parse(outcome.stdout()).get("usage");
        List<String> usageFields = new ArrayList<>();
        usage.fieldNames().forEachRemaining(usageFields::add);
        assertThat(usageFields).containsExactly("input_tokens", "output_tokens", "cache_creation_input_tokens",
                "cache_read_input_tokens", "server_tool_uses");
        assertThat(usage.get("server_tool_uses").toString()).isEqualTo("{\"web_search\":5}");
        // 1,010 input at 2.00 and 55 output at 10.00 per million, and 5 searches at 0.01.
        assertThat(Json.parse(outcome.stdout()).get("cost_usd").decimalValue()).isEqualByComparingTo("0.05257");
        assertThat(outcome.stderr()).contains("step 1  model replied (tool_use").contains("tokens in 1000 / out 50 / web_search 3 ·")
                .contains("tokens in 10 / out 5 / web_search 2 ·")
                .containsPattern("rein: SUCCEEDED \\(completed\\) · 2 steps · \\$0\\.05\\d* \\(web_search 5\\) · ");

        // rein show's trace lines say them as the live view did: why a call cost more than its tokens
        InProcessCli.Outcome shown = cli.run("show", Json.parse(outcome.stdout()).get("run_id").asText());
        assertThat(shown.stdout()).contains("tokens in 1000 / out 50 / web_search 3").contains("tokens in 10 / out 5 / web_search 2");
    }

    /**
     * The output tokens a reasoning model spent thinking, as an OpenAI-compatible server reports them apart
     * (Usage.reasoningOutputTokens, a part of the output tokens). Before: the trace had them, but --json, --json-stream's
     * result, the live view and 'rein show' did not, so a user could not tell why a short answer cost so much.
     */
    @Test
    void reasoningTokensAreShownInTheJsonTheLiveViewAndRunShow() {
        ScriptedModel model = ScriptedModel.of(
                withUsage(Usage.of(1000, 400, 0, 0).withReasoningOutputTokens(350), toolCalls(call("calculate", "{\"expression\":\"2 + 3\"}"))),
                withUsage(Usage.of(10, 90, 0, 0).withReasoningOutputTokens(60), text("答えは5です。")));

        InProcessCli.Outcome outcome = with(model).run("run", "--json", "2 + 3 は?");

        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        JsonNode json = Json.parse(outcome.stdout());
        List<String> usageFields = new ArrayList<>();
        json.get("usage").fieldNames().forEachRemaining(usageFields::add);
        assertThat(usageFields).containsExactly("input_tokens", "output_tokens", "cache_creation_input_tokens",
                "cache_read_input_tokens", "reasoning_output_tokens");
        assertThat(json.at("/usage/output_tokens").asLong()).isEqualTo(490);
        assertThat(json.at("/usage/reasoning_output_tokens").asLong()).isEqualTo(410);
        assertThat(json.get("answer").asText()).isEqualTo("答えは5です。");
        assertThat(outcome.stderr()).contains("tokens in 1000 / out 400 (reasoning 350) ·").contains("tokens in 10 / out 90 (reasoning 60) ·");

        InProcessCli.Outcome shown = cli.run("show", json.get("run_id").asText());
        assertThat(shown.stdout()).contains("tokens in 1000 / out 400 (reasoning 350)").contains("tokens in 10 / out 90 (reasoning 60)");

        InProcessCli.Outcome plain = with(ScriptedModel.of(withUsage(Usage.of(10, 5, 0, 0), text("ok")))).run("run", "--json", "hi");
        assertThat(Json.parse(plain.stdout()).get("usage").has("reasoning_output_tokens")).as("absent when none were reported").isFalse();
    }

    @Test
    void aSucceededRunPrintsTheAnswerOnStdoutAndTheLiveViewOnStderr() {
        ScriptedModel model = ScriptedModel.of(toolCalls("Let me compute.", call("calculate", "{\"expression\":\"2 + 3\"}")), text("2 + 3 = 5"));

        InProcessCli.Outcome outcome = with(model).run("run", "What is 2 + 3?");

        assertThat(outcome.exitCode()).isZero();
        assertThat(outcome.stdout()).isEqualTo("2 + 3 = 5" + System.lineSeparator());
        assertThat(outcome.stderr())
                .contains("model claude-sonnet-5 · tools: calculate, get_current_time · limits: 15 steps, USD 1.00, 300 s")
                .contains("step 1  model: Let me compute.")
                .contains("step 1  → calculate {\"expression\":\"2 + 3\"}")
                .contains("step 1  ← calculate ok in ")
                .contains("cost so far $0.0004")
                .contains("rein: SUCCEEDED (completed) · 2 steps · $0.0008");
        // Not a terminal: plain lines, no spinner, no cursor movement.
        assertThat(outcome.stderr()).doesNotContain("\r").doesNotContain("\033");
    }

    @Test
    void exitCodesFollowTheRunStatus() {
        ScriptedModel failing = ScriptedModel.of(ScriptedModel.fail(
                new ModelException(ModelException.Kind.AUTHENTICATION, 401, "invalid x-api-key")));
        InProcessCli.Outcome failed = with(failing).run("run", "--json", "hello");
        assertThat(failed.exitCode()).isEqualTo(ExitCodes.FAILED);
        assertThat(Json.parse(failed.stdout()).get("status").asText()).isEqualTo("FAILED");
        assertThat(failed.stderr()).contains("rein: FAILED").contains("invalid x-api-key");

        ScriptedModel slow = ScriptedModel.of(ScriptedModel.delayed(Duration.ofSeconds(5), text("too late")));
        InProcessCli.Outcome timedOut = with(slow).run("run", "--json", "--max-seconds", "0.3", "hello");
        assertThat(timedOut.exitCode()).isEqualTo(ExitCodes.STOPPED_BUDGET);
        assertThat(Json.parse(timedOut.stdout()).get("reason").asText()).isEqualTo("deadline");
    }

    @Test
    void japaneseGoalAndAnswerPassIntact() {
        String goal = "今日から100日後は何月何日?";
        String answer = "2027年3月11日(木)です。";
        ScriptedModel model = ScriptedModel.of(text(answer));

        InProcessCli.Outcome plain = with(model).run("run", goal);
        assertThat(((TextBlock) model.lastRequest().messages().get(0).content().get(0)).text()).isEqualTo(goal);
        assertThat(plain.stdout().strip()).isEqualTo(answer);

        InProcessCli.Outcome json = with(ScriptedModel.of(text(answer))).run("run", "--json", goal);
        assertThat(Json.parse(json.stdout()).get("answer").asText()).isEqualTo(answer);
        assertThat(json.stdout()).contains(answer);
    }

    @Test
    void traceFileRecordsEveryEventOfTheRun(@TempDir Path dir) throws IOException {
        Path trace = dir.resolve("sub/run.jsonl");
        ScriptedModel model = ScriptedModel.of(toolCalls(call("calculate", "{\"expression\":\"6 * 7\"}")), text("42"));

        InProcessCli.Outcome outcome = with(model).run("run", "--trace", trace.toString(), "--json", "6 times 7");

        assertThat(outcome.exitCode()).isZero();
        List<JsonNode> events = Files.readAllLines(trace).stream().map(Json::parse).toList();
        assertThat(events).extracting(e -> e.get("type").asText()).containsExactly(
                "run_started", "state_change", "model_request", "model_response", "tool_call", "tool_result",
                "model_request", "model_response", "state_change", "run_finished");
        assertThat(events).allSatisfy(e -> assertThat(e.get("run_id").asText()).isEqualTo(Json.parse(outcome.stdout()).get("run_id").asText()));
        assertThat(events.get(4).get("arguments").get("expression").asText()).isEqualTo("6 * 7");
        assertThat(events.get(5).get("content").asText()).isEqualTo("42");
        assertThat(outcome.stderr()).contains("trace: " + trace);
    }

    @Test
    void toolsAndSystemOptionsShapeTheRequest() {
        ScriptedModel model = ScriptedModel.of(text("ok"));
        with(model).run("run", "--tools", "calculate", "--system", "Be brief.", "hi");
        assertThat(model.lastRequest().tools()).extracting(ToolDefinition::name).containsExactly("calculate");
        assertThat(model.lastRequest().systemText()).isEqualTo("Be brief.");

        ScriptedModel noTools = ScriptedModel.of(text("ok"));
        with(noTools).run("run", "--tools", "", "hi");
        assertThat(noTools.lastRequest().tools()).isEmpty();

        ScriptedModel defaults = ScriptedModel.of(text("ok"));
        with(defaults).run("run", "several", "words");
        assertThat(defaults.lastRequest().tools()).extracting(ToolDefinition::name).containsExactly("calculate", "get_current_time");
        assertThat(defaults.lastRequest().model()).isEqualTo("claude-sonnet-5");
        assertThat(((TextBlock) defaults.lastRequest().messages().get(0).content().get(0)).text()).isEqualTo("several words");
    }

    @Test
    void quietLeavesStderrEmptyWhenTheRunSucceeds() {
        InProcessCli.Outcome outcome = with(ScriptedModel.of(text("ok"))).run("run", "-q", "hi");
        assertThat(outcome.exitCode()).isZero();
        assertThat(outcome.stdout().strip()).isEqualTo("ok");
        assertThat(outcome.stderr()).isEmpty();
    }

    @Test
    void aMissingApiKeyIsOneLineExitTwoAndNoRequest() {
        for (String key : new String[] {null, "", "   "}) {
            InProcessCli real = new InProcessCli().models(ProviderModels::create);
            if (key != null) {
                real.env("ANTHROPIC_API_KEY", key);
            }
            InProcessCli.Outcome outcome = real.run("run", "--json", "hello");
            assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stdout()).isEmpty();
            assertThat(outcome.stderrLines()).singleElement().satisfies(line -> assertThat(line)
                    .startsWith("rein run: ANTHROPIC_API_KEY is not set")
                    .contains("export ANTHROPIC_API_KEY=")
                    .doesNotContain("Exception"));
        }
    }

    @Test
    void everyUsageErrorIsOneLineExitTwoAndNothingRuns(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        List<String[]> mistakes = List.of(
                new String[] {"run"},
                new String[] {"run", ""},
                new String[] {"run", "  "},
                new String[] {"run", "\u200B"},
                new String[] {"run", "\uFEFF \u00A0"},
                new String[] {"run", "--tools", "calculate,search", "x"},
                new String[] {"run", "--max-cost-usd", "cheap", "x"},
                new String[] {"run", "--max-cost-usd", "0", "x"},
                new String[] {"run", "--max-cost-usd", "-1", "x"},
                new String[] {"run", "--max-steps", "-1", "x"},
                new String[] {"run", "--max-steps", "0", "x"},
                new String[] {"run", "--max-steps", "many", "x"},
                new String[] {"run", "--max-seconds", "soon", "x"},
                new String[] {"run", "--max-seconds", "-5", "x"},
                new String[] {"run", "--max-seconds", "0.0004", "x"},
                new String[] {"run", "--trace", file.resolve("run.jsonl").toString(), "x"},
                new String[] {"run", "--trace", dir.toString(), "x"},
                new String[] {"run", "--model", "gpt-4o", "x"},
                new String[] {"run", "--unknown-option", "x"},
                new String[] {"run", "--max-steps"},
                new String[] {"walk"},
                new String[] {});
        for (String[] args : mistakes) {
            InProcessCli fresh = new InProcessCli().env("ANTHROPIC_API_KEY", "sk-test")
                    .models((name, env) -> ScriptedModel.of(text("must not run")));
            InProcessCli.Outcome outcome = fresh.run(args);
            String call = String.join(" ", args);
            assertThat(outcome.exitCode()).as(call).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stdout()).as(call).isEmpty();
            assertThat(outcome.stderrLines()).as(call).singleElement()
                    .satisfies(line -> assertThat(line).startsWith("rein").doesNotContain("Exception").doesNotContain("\tat "));
            assertThat(fresh.modelsCreated()).as(call).isZero();
        }
    }

    @Test
    void usageErrorsSayWhatIsWrong() {
        InProcessCli fresh = new InProcessCli();
        assertThat(fresh.run("run", "--tools", "calculate,search", "x").stderr())
                .isEqualTo("rein run: unknown tool 'search' in --tools; the available tools are: calculate, get_current_time, lookup_contact, send_message, list_sent_messages, remember, recall, forget, search_documents" + System.lineSeparator());
        assertThat(fresh.run("run", "--max-cost-usd", "cheap", "x").stderr())
                .contains("Invalid value for option '--max-cost-usd': 'cheap' is not a number").contains("(see 'rein run --help')");
        assertThat(fresh.run("run", "--max-steps", "-1", "x").stderr())
                .contains("Invalid value for option '--max-steps': the run needs at least 1 step, got -1");
        assertThat(fresh.run("run", "").stderr()).contains("the GOAL is empty");
        // The run keeps --max-seconds in whole milliseconds: a limit under one is refused by the option, not by the library.
        assertThat(fresh.run("run", "--max-seconds", "0.0004", "x").stderr())
                .isEqualTo("rein run: Invalid value for option '--max-seconds': '0.0004' rounds to zero (the limit is kept in"
                        + " whole milliseconds); give at least 0.001 seconds (see 'rein run --help')" + System.lineSeparator());
        // it said only "'1e12' seconds is too long": neither how long may be, nor what to give
        assertThat(fresh.run("run", "--max-seconds", "1e12", "x").stderr())
                .isEqualTo("rein run: Invalid value for option '--max-seconds': '1e12' seconds is too long (at most 9223372036,"
                        + " about 292 years); give a number of seconds such as 120 (see 'rein run --help')" + System.lineSeparator());
    }

    /**
     * '--max-cost-usd 1e400' was taken, and the live view then printed a limit of 401 digits (so was 1e-400, one of 401
     * decimals); as '--max-seconds 1e12' is, a money limit outside its range is refused saying the range.
     */
    @Test
    void aMoneyLimitOutsideItsRangeIsRefusedSayingTheRange() {
        InProcessCli fresh = new InProcessCli().env("ANTHROPIC_API_KEY", "sk-test")
                .models((name, env) -> ScriptedModel.of(text("must not run")));
        for (String limit : new String[] {"1e400", "1000000.01", "1e-400", "0.0000009"}) {
            InProcessCli.Outcome outcome = fresh.run("run", "--max-cost-usd", limit, "x");
            assertThat(outcome.exitCode()).as(limit).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stdout()).as(limit).isEmpty();
            String why = limit.contains("-") || limit.startsWith("0.") ? "is too small (at least 0.000001)" : "is too large (at most 1000000)";
            assertThat(outcome.stderrLines()).as(limit).singleElement().asString()
                    .isEqualTo("rein run: Invalid value for option '--max-cost-usd': '" + limit + "' " + why + "; give an amount in"
                            + " US dollars from 0.000001 to 1000000, such as 0.50 (see 'rein run --help')");
        }
        for (String limit : new String[] {"Infinity", "-Infinity", "NaN", "inf"}) {
            InProcessCli.Outcome outcome = fresh.run("run", "--max-cost-usd", limit, "x");
            assertThat(outcome.exitCode()).as(limit).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stderrLines()).as(limit).singleElement().asString()
                    .isEqualTo("rein run: Invalid value for option '--max-cost-usd': '" + limit + "' is not a finite number; give an"
                            + " amount in US dollars from 0.000001 to 1000000, such as 0.50 (see 'rein run --help')");
        }
        assertThat(fresh.modelsCreated()).isZero();

        InProcessCli.Outcome most = with(ScriptedModel.of(text("ok"))).run("run", "--max-cost-usd", "1e6", "x");
        assertThat(most.exitCode()).as(most.stderr()).isZero();
        assertThat(most.stderr()).contains("limits: 15 steps, USD 1000000, 300 s");
    }
    /**
     * '--price 1e400,1' was taken (the dearest models cost a few hundred dollars per million tokens): the run was
     * priced with it and its cost printed with hundreds of digits. A price above USD 1,000,000 per million tokens
     * (a dollar a token) is a slip, refused naming the part and the range.
     */
    @Test
    void aPriceAboveADollarATokenIsRefusedSayingTheRange() {
        InProcessCli fresh = new InProcessCli().env("ANTHROPIC_API_KEY", "sk-test")
                .models((name, env) -> ScriptedModel.of(text("ok")));
        String[][] cases = {{"1e400,1", "INPUT", "1e400"}, {"1,1000000.5", "OUTPUT", "1000000.5"},
                {"1,2,3,2e6", "CACHE_WRITE", "2e6"}};
        for (String[] c : cases) {
            InProcessCli.Outcome outcome = fresh.run("run", "--price", c[0], "x");
            assertThat(outcome.exitCode()).as(c[0] + ": " + outcome.stderr()).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stdout()).as(c[0]).isEmpty();
            assertThat(outcome.stderrLines()).as(c[0]).singleElement().asString()
                    .isEqualTo("rein run: Invalid value for option '--price': " + c[1] + " in '" + c[0] + "' is " + c[2]
                            + ", more than 1000000 USD per million tokens (a dollar a token); give " + PriceSpec.FORMAT
                            + " in USD per million tokens, each from 0 to 1000000, e.g. 2.50,10 (see 'rein run --help')");
        }
        assertThat(fresh.modelsCreated()).isZero();
        InProcessCli.Outcome most = fresh.run("run", "--price", "1000000,1e6", "--max-cost-usd", "1000000", "x");
        assertThat(most.exitCode()).as(most.stderr()).isZero();
    }
    /**
     * '--max-seconds Infinity' said "'Infinity' is not a number" and '--max-seconds 0' "it must be greater than 0, got 0",
     * neither saying which limits are taken; each now says what was wrong and the range, as --max-cost-usd does.
     */
    @Test
    void aTimeOrMoneyLimitThatIsNotMoreThanZeroOrNotFiniteSaysWhatIsTaken() {
        InProcessCli fresh = new InProcessCli().env("ANTHROPIC_API_KEY", "sk-test")
                .models((name, env) -> ScriptedModel.of(text("must not run")));
        String seconds = "; give a number of seconds from 0.001 to 9223372036 (about 292 years), such as 120 (see 'rein run --help')";
        String[][] cases = {{"Infinity", "'Infinity' is not a finite number"}, {"-Infinity", "'-Infinity' is not a finite number"},
                {"NaN", "'NaN' is not a finite number"}, {"inf", "'inf' is not a finite number"},
                {"0", "'0' is not more than 0"}, {"-5", "'-5' is not more than 0"}, {"soon", "'soon' is not a number"}};
        for (String[] c : cases) {
            InProcessCli.Outcome outcome = fresh.run("run", "--max-seconds", c[0], "x");
            assertThat(outcome.exitCode()).as(c[0]).isEqualTo(ExitCodes.USAGE);
            assertThat(outcome.stderrLines()).as(c[0]).singleElement().asString()
                    .isEqualTo("rein run: Invalid value for option '--max-seconds': " + c[1] + seconds);
        }
        for (String limit : new String[] {"0", "-1"}) {
            assertThat(fresh.run("run", "--max-cost-usd", limit, "x").stderrLines()).as(limit).singleElement().asString()
                    .isEqualTo("rein run: Invalid value for option '--max-cost-usd': '" + limit + "' is not more than 0; give an"
                            + " amount in US dollars from 0.000001 to 1000000, such as 0.50 (see 'rein run --help')");
        }
        assertThat(fresh.modelsCreated()).isZero();
    }
}
