package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FakeBlock;
import dev.rein.testkit.FakeReply;
import dev.rein.tool.Tool;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Programmatic tool calling: code the code execution tool runs calls one of the agent's tools. The
 * call comes as an ordinary {@code tool_use} whose {@code caller} names the code execution tool and
 * its {@code server_tool_use} block ({@code {"type": "code_execution_20260120", "tool_id":
 * "srvtoolu_..."}}); the client runs it and answers with a {@code tool_result}, and the call goes
 * back in the history as it came (the official SDK's {@code ToolUseBlock.toParam()} keeps its caller).
 */
class ProgrammaticToolCallingTest extends FakeApi {

    static final String CODE_EXECUTION = "{\"type\": \"code_execution_20260120\", \"name\": \"code_execution\"}";

    static final String CODE = "{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_01\",\"name\":\"code_execution\","
            + "\"input\":{\"code\":\"r = await query_database(\\\"東京\\\")\\nprint(r)\"},\"caller\":{\"type\":\"direct\"}}";

    static Tool queryDatabase(AtomicInteger runs) {
        return Tool.builder("query_database").description("Runs SQL.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"sql\":{\"type\":\"string\"}}}")
                .handler((args, context) -> {
                    runs.incrementAndGet();
                    return "[{\"city\": \"東京\", \"revenue\": 45000}]";
                }).build();
    }

    @Test
    void aCallFromCodeIsRunAndGoesBackWithItsCaller() throws Exception {
        server.enqueue(FakeReply.message().block(FakeBlock.serverSide(CODE))
                        .toolUseFromCode("toolu_01", "query_database", "{\"sql\":\"SELECT 1\"}", "code_execution_20260120", "srvtoolu_01")
                        .container("container_011CPR5CNjB747bTd36fQLFk", "2026-12-05T01:13:31.749448Z").build(),
                FakeReply.text("東京: 45000"));
        AtomicInteger runs = new AtomicInteger();

        RunResult result = Agent.builder().model(model).modelOption(AnthropicServerTools.of(CODE_EXECUTION))
                .tools(List.of(queryDatabase(runs))).build().run("Which city sold most?");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("東京: 45000");
        assertThat(runs).hasValue(1);
        JsonNode second = server.requests().get(1).body();
        JsonNode turn = second.get("messages").get(1).get("content");
        assertThat(turn).hasSize(2);
        assertThat(turn.get(0).get("type").asText()).isEqualTo("server_tool_use");
        JsonNode call = turn.get(1);
        assertThat(call.get("type").asText()).isEqualTo("tool_use");
        assertThat(call.get("id").asText()).isEqualTo("toolu_01");
        assertThat(call.get("caller")).isEqualTo(dev.rein.json.Json.parse(
                "{\"type\":\"code_execution_20260120\",\"tool_id\":\"srvtoolu_01\"}"));
        assertThat(second.path("container").asText()).isEqualTo("container_011CPR5CNjB747bTd36fQLFk");
        // The answer to a pending call from code is tool results only, as the API requires.
        JsonNode answer = second.get("messages").get(2).get("content");
        assertThat(answer).hasSize(1);
        assertThat(answer.get(0).get("type").asText()).isEqualTo("tool_result");
        assertThat(answer.get(0).get("tool_use_id").asText()).isEqualTo("toolu_01");
    }

    @Test
    void aDirectCallGoesBackWithoutACallerAsBefore() throws Exception {
        server.enqueue(FakeReply.toolUse("toolu_01", "query_database", "{\"sql\":\"SELECT 1\"}"), FakeReply.text("ok"));

        RunResult result = Agent.builder().model(model).tools(List.of(queryDatabase(new AtomicInteger()))).build().run("Go");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        JsonNode call = server.requests().get(1).body().get("messages").get(1).get("content").get(0);
        assertThat(call.has("caller")).isFalse();
        assertThat(server.requests().get(1).body().toString()).doesNotContain("anthropic_");
    }

    @Test
    void theToolsCodeMayCallAreSentWithTheirAllowedCallers() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        Tool other = Tool.builder("ask_user").description("Asks.").inputSchema("{\"type\":\"object\"}")
                .handler((args, context) -> "yes").build();

        RunResult result = Agent.builder().model(model).modelOption(AnthropicServerTools.of(CODE_EXECUTION))
                .modelOption(AnthropicToolCallers.fromCode("code_execution_20260120", "query_database", "not_a_tool"))
                .tools(List.of(queryDatabase(new AtomicInteger()), other)).build().run("Go");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        JsonNode tools = lastBody().get("tools");
        assertThat(tools).hasSize(3);
        assertThat(tools.get(0).get("type").asText()).isEqualTo("code_execution_20260120");
        assertThat(tools.get(1).get("name").asText()).isEqualTo("query_database");
        assertThat(tools.get(1).get("allowed_callers")).isEqualTo(dev.rein.json.Json.parse("[\"code_execution_20260120\"]"));
        assertThat(tools.get(2).get("name").asText()).isEqualTo("ask_user");
        assertThat(tools.get(2).has("allowed_callers")).isFalse();
        // count_tokens takes the same tool definitions.
        model.countTokens(request("x").tools(List.of(tool("query_database")))
                .option(AnthropicToolCallers.fromCode("code_execution_20260120", "query_database")).build());
        assertThat(lastBody().get("tools").get(0).get("allowed_callers").get(0).asText()).isEqualTo("code_execution_20260120");
    }

    @Test
    void callersThatCannotBeSentAreRefusedWhenMade() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> AnthropicToolCallers.fromCode(" ", "query_database"))
                .hasMessageContaining("gives the tool 'query_database' the caller ' '");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new AnthropicToolCallers(java.util.Map.of("t", List.of())))
                .hasMessageContaining("gives the tool 't' no caller");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Agent.builder().model(model)
                        .modelOption(AnthropicToolCallers.fromCode("code_execution_20260120", "query_database"))
                        .modelOption(dev.rein.model.ParallelToolCalls.DISABLED)
                        .tools(List.of(queryDatabase(new AtomicInteger()))).build())
                .hasMessageContaining("does not take disable_parallel_tool_use");
    }

    @Test
    void textBesideTheResultsOfCallsFromCodeWaitsForTheNextUserMessage() throws Exception {
        // The API takes only tool_result blocks in the answer to calls from code: Rein's own notes
        // there (a stall warning, a reflection prompt, a budget's summary prompt) go with the next
        // user message that may carry text.
        server.enqueue(FakeReply.text("a"), FakeReply.text("b"), FakeReply.text("c"));
        com.fasterxml.jackson.databind.node.ObjectNode caller = (com.fasterxml.jackson.databind.node.ObjectNode) dev.rein.json.Json.parse(
                "{\"type\":\"anthropic_tool_caller\",\"tool_use_id\":\"toolu_01\",\"caller\":{\"type\":\"code_execution_20260120\",\"tool_id\":\"srvtoolu_01\"}}");
        List<dev.rein.model.Message> history = new java.util.ArrayList<>(List.of(dev.rein.model.Message.user("Sum the regions"),
                dev.rein.model.Message.assistant(List.of(
                        new dev.rein.model.OpaqueBlock("server_tool_use", (com.fasterxml.jackson.databind.node.ObjectNode) dev.rein.json.Json.parse(CODE)),
                        new dev.rein.model.ToolUseBlock("toolu_01", "query_database", dev.rein.json.Json.parse("{\"sql\":\"SELECT 1\"}")),
                        new dev.rein.model.OpaqueBlock(ToolCallers.TYPE, caller),
                        new dev.rein.model.OpaqueBlock("anthropic_container", (com.fasterxml.jackson.databind.node.ObjectNode)
                                dev.rein.json.Json.parse("{\"type\":\"anthropic_container\",\"id\":\"container_1\"}")))),
                dev.rein.model.Message.user(List.of(new dev.rein.model.ToolResultBlock("toolu_01", "45000", false),
                        new dev.rein.model.TextBlock("[rein] You called query_database with the same arguments 3 times.")))));

        call(cached(request("x").messages(history).tools(List.of(tool("query_database"))).option(AnthropicServerTools.of(CODE_EXECUTION))));
        JsonNode answer = lastBody().get("messages").get(2).get("content");
        assertThat(answer).hasSize(1);
        assertThat(answer.get(0).get("type").asText()).isEqualTo("tool_result");
        assertThat(answer.get(0).has("cache_control")).as("the moving breakpoint stays on the message").isTrue();

        history.add(dev.rein.model.Message.assistant(List.of(new dev.rein.model.TextBlock("The West sold most."))));
        history.add(dev.rein.model.Message.user("And the East?"));
        call(request("x").messages(history).tools(List.of(tool("query_database"))).option(AnthropicServerTools.of(CODE_EXECUTION)));
        JsonNode messages = lastBody().get("messages");
        assertThat(messages.get(2).get("content")).hasSize(1);
        JsonNode next = messages.get(4).get("content");
        assertThat(next).hasSize(2);
        assertThat(next.get(0).get("text").asText()).isEqualTo("And the East?");
        assertThat(next.get(1).get("text").asText()).isEqualTo("[rein] You called query_database with the same arguments 3 times.");

        // Without server tools no call can come from code: the message goes as it is.
        server.validateRequests(false);
        call(request("x").messages(history.subList(0, 3)).tools(List.of(tool("query_database"))));
        assertThat(lastBody().get("messages").get(2).get("content")).hasSize(2);
    }

    @Test
    void aBudgetsSummaryPromptBesideTheResultsOfCallsFromCodeReachesTheModelInTheSystemPrompt() {
        // The step limit is reached with calls from code answered: the summary call's last message is
        // that answer, which may hold only tool_result blocks, and no later user message will come.
        server.enqueue(FakeReply.message().block(FakeBlock.serverSide(CODE))
                        .toolUseFromCode("toolu_01", "query_database", "{\"sql\":\"SELECT 1\"}", "code_execution_20260120", "srvtoolu_01")
                        .container("container_011CPR5CNjB747bTd36fQLFk", "2026-12-05T01:13:31.749448Z").build(),
                FakeReply.text("東京が最も多く売りました。"));
        AtomicInteger runs = new AtomicInteger();

        RunResult result = Agent.builder().model(model).systemPrompt("あなたは分析者です。")
                .modelOption(AnthropicServerTools.of(CODE_EXECUTION))
                .budget(dev.rein.budget.Budget.builder().maxSteps(1).build())
                .tools(List.of(queryDatabase(runs))).build().run("Which city sold most?");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(result.answer()).isEqualTo("東京が最も多く売りました。");
        JsonNode summaryCall = server.requests().get(1).body();
        JsonNode answer = summaryCall.get("messages").get(2).get("content");
        assertThat(answer).hasSize(1);
        assertThat(answer.get(0).get("type").asText()).isEqualTo("tool_result");
        JsonNode system = summaryCall.get("system");
        assertThat(system.get(0).get("text").asText()).isEqualTo("あなたは分析者です。");
        assertThat(system).as("the summary prompt, which the message could not carry").hasSize(2);
        assertThat(system.get(1).get("text").asText()).startsWith("[rein] The work must stop now: ");
    }

    @Test
    void aCallFromCodeThatWaitsForApprovalGoesBackWithItsCallerAndContainerAfterTheResume() {
        server.enqueue(FakeReply.message().block(FakeBlock.serverSide(CODE))
                        .toolUseFromCode("toolu_01", "reship_order", "{\"id\":\"A-104\"}", "code_execution_20260120", "srvtoolu_01")
                        .container("container_011CPR5CNjB747bTd36fQLFk", "2026-12-05T01:13:31.749448Z").build(),
                FakeReply.text("A-104 を再発送しました。"));
        Tool reship = Tool.builder("reship_order").description("Ships an order again.").risk(dev.rein.tool.Risk.WRITE)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}}}")
                .handler((args, ctx) -> "再発送しました: " + args.get("id").asText()).build();
        dev.rein.state.InMemoryRunStore store = new dev.rein.state.InMemoryRunStore();
        java.util.function.Supplier<Agent> agent = () -> Agent.builder().model(model).store(store).tools(reship)
                .modelOption(AnthropicServerTools.of(CODE_EXECUTION))
                .modelOption(AnthropicToolCallers.fromCode("code_execution_20260120", "reship_order")).build();

        RunResult paused = agent.get().run("A-104 を再発送して");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        agent.get().runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "山田");
        RunResult done = agent.get().resume(paused.runId());

        assertThat(done.status()).as(done.message()).isEqualTo(RunStatus.SUCCEEDED);
        JsonNode resumed = server.requests().get(1).body();
        assertThat(resumed.path("container").asText()).isEqualTo("container_011CPR5CNjB747bTd36fQLFk");
        assertThat(resumed.at("/messages/1/content/1/caller/tool_id").asText()).isEqualTo("srvtoolu_01");
        assertThat(resumed.at("/messages/2/content")).hasSize(1);
        assertThat(resumed.at("/messages/2/content/0/content").asText()).contains("再発送しました: A-104");
    }
}
