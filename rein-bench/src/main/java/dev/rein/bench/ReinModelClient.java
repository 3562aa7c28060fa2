package dev.rein.bench;

import dev.rein.anthropic.AnthropicModel;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.ToolDefinition;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Rein's provider alone: a hand-written loop over {@link AnthropicModel#call} without the agent
 * (no guards, store, trace or tool executor). Its distance to the streaming floor is what the
 * provider path costs; the rest of Rein's overhead is the agent loop's.
 */
final class ReinModelClient implements Client {
    private final AnthropicModel model;
    private final List<ToolDefinition> tools;

    ReinModelClient(String baseUrl) {
        this.model = AnthropicModel.builder().apiKey("k").baseUrl(baseUrl).build();
        this.tools = List.of(new ToolDefinition("lookup", Scenario.TOOL_DESCRIPTION,
                (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(Scenario.SCHEMA)));
    }

    @Override
    public int run() throws Exception {
        List<Message> history = new ArrayList<>();
        history.add(Message.user(Scenario.GOAL));
        for (int calls = 1; ; calls++) {
            ModelRequest request = ModelRequest.builder(Scenario.MODEL).maxTokens(1024)
                    .system(Scenario.SYSTEM).tools(tools).messages(List.copyOf(history)).build();
            ModelResponse response = model.call(request, ModelCallContext.until(Instant.now().plusSeconds(60)));
            history.add(Message.assistant(response.content()));
            if (response.stopReason() != StopReason.TOOL_USE) {
                return calls;
            }
            List<ContentBlock> results = new ArrayList<>();
            for (ContentBlock block : response.content()) {
                if (block instanceof ToolUseBlock use) {
                    results.add(new ToolResultBlock(use.id(), Scenario.lookup(use.input().path("q").asText()), false));
                }
            }
            history.add(Message.user(results));
        }
    }

    @Override
    public void close() {
        model.close();
    }
}
