package dev.rein.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.Model;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class ToolChainContractTest {
    private static final String SCHEMA = "{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}}}";

    private static Tool tool(String name, ToolHandler handler) {
        return Tool.builder(name).description("test tool " + name).inputSchema(SCHEMA).handler(handler).build();
    }

    private static ToolCall call(String id) {
        return new ToolCall(id, "echo", Json.parse("{\"text\":\"hi\"}"), 0);
    }

    private static ToolExecutor executor(ToolInterceptor stage) {
        return ToolExecutor.builder(ToolRegistry.of(tool("echo", (a, c) -> "ok"))).interceptor(stage).build();
    }

    @Test
    void aStageThatChangesTheCallIdReturnsNullOrAnswersForAnotherCallIsAProgrammerError() {
        ToolInterceptor renames = (invocation, chain) -> chain.proceed(invocation.withCall(call("other")));
        assertThatThrownBy(() -> executor(renames).execute(call("toolu_1"), ToolContext.standalone("toolu_1")))
                .isInstanceOf(ToolChainException.class).hasMessageContaining("changed the call id or the tool")
                .hasMessageContaining("toolu_1").hasMessageContaining("other");
        ToolInterceptor reroutes = (invocation, chain) -> chain.proceed(invocation.withCall(
                new ToolCall("toolu_1", "other_tool", invocation.call().arguments(), 0)));
        assertThatThrownBy(() -> executor(reroutes).execute(call("toolu_1"), ToolContext.standalone("toolu_1")))
                .as("the same call id sent on under another tool's name is a changed tool")
                .isInstanceOf(ToolChainException.class).hasMessageContaining("changed the call id or the tool")
                .hasMessageContaining("other_tool");
        ToolInterceptor nothing = (invocation, chain) -> null;
        assertThatThrownBy(() -> executor(nothing).execute(call("toolu_1"), ToolContext.standalone("toolu_1")))
                .isInstanceOf(ToolChainException.class).hasMessageContaining("returned null");
        ToolInterceptor foreign = (invocation, chain) -> ToolOutcome.of(ToolResult.success(call("toolu_9"), "x", "test"));
        assertThatThrownBy(() -> executor(foreign).execute(call("toolu_1"), ToolContext.standalone("toolu_1")))
                .isInstanceOf(ToolChainException.class).hasMessageContaining("toolu_9");
    }

    @Test
    void aBreachEndsTheRunWithInternalErrorAndTheModelNeverSeesIt() {
        List<ModelRequest> requests = new CopyOnWriteArrayList<>();
        Model model = (request, context) -> {
            requests.add(request);
            return requests.size() == 1
                    ? response(request, StopReason.TOOL_USE, new ToolUseBlock("toolu_1", "echo", Json.parse("{\"text\":\"hi\"}")))
                    : response(request, StopReason.END_TURN, new TextBlock("done"));
        };
        RunResult result = Agent.builder().model(model).modelName("m").prices(PriceTable.empty().with("m", ModelPrice.of("0", "0", "0")))
                .tools(tool("echo", (a, c) -> "ok"))
                .toolInterceptor((invocation, chain) -> null)
                .build().run("go");
        assertThat(result.reason()).isEqualTo("internal_error");
        assertThat(result.message()).contains("returned null");
        assertThat(requests).as("no tool error was sent back to the model").hasSize(1);
    }

    @Test
    void aHandlerThatMutatesItsArgumentsChangesNeitherTheHistoryNorTheNextRequest() {
        List<ModelRequest> requests = new CopyOnWriteArrayList<>();
        Model model = (request, context) -> {
            requests.add(request);
            return requests.size() == 1
                    ? response(request, StopReason.TOOL_USE, new ToolUseBlock("toolu_1", "echo", Json.parse("{\"text\":\"hi\"}")))
                    : response(request, StopReason.END_TURN, new TextBlock("done"));
        };
        ToolHandler vandal = (arguments, context) -> {
            ((ObjectNode) arguments).put("text", "rewritten");
            return "ok";
        };
        RunResult result = Agent.builder().model(model).modelName("m").prices(PriceTable.empty().with("m", ModelPrice.of("0", "0", "0")))
                .tools(tool("echo", vandal)).build().run("go");
        assertThat(result.answer()).isEqualTo("done");
        Message assistant = requests.get(1).messages().get(1);
        JsonNode input = assistant.toolUses().get(0).input();
        assertThat(input.get("text").asText()).isEqualTo("hi");
        assertThat(result.history().get(1).toolUses().get(0).input().get("text").asText()).isEqualTo("hi");
        assertThat(requests.get(1).messages().get(2).content().get(0)).isInstanceOf(ToolResultBlock.class);
    }

    @Test
    void anApplicationStageSeesADeferredCallAsDeferredNotAsAnError() {
        List<ToolOutcome> seen = new CopyOnWriteArrayList<>();
        Model model = (request, context) ->
                response(request, StopReason.TOOL_USE, new ToolUseBlock("toolu_1", "send", Json.parse("{\"text\":\"hi\"}")));
        Tool send = Tool.builder("send").description("sends a message").inputSchema(SCHEMA).risk(Risk.IRREVERSIBLE)
                .handler((a, c) -> "sent").build();
        RunResult result = Agent.builder().model(model).modelName("m").prices(PriceTable.empty().with("m", ModelPrice.of("0", "0", "0")))
                .tools(send)
                .toolInterceptor((invocation, chain) -> {
                    ToolOutcome outcome = chain.proceed(invocation);
                    seen.add(outcome);
                    return outcome;
                })
                .build().run("go");
        assertThat(result.status()).isEqualTo(dev.rein.run.RunStatus.WAITING_APPROVAL);
        assertThat(seen).singleElement().isInstanceOfSatisfying(ToolOutcome.Deferred.class, d -> {
            assertThat(d.callId()).isEqualTo("toolu_1");
            assertThat(d.actionHash()).isEqualTo(result.pendingApprovals().get(0).actionHash());
        });
    }

    private static ModelResponse response(ModelRequest request, StopReason stop, dev.rein.model.ContentBlock block) {
        return new ModelResponse("r", request.model(), List.of(block), stop, null, Usage.ZERO);
    }
}
