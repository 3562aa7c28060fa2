package dev.rein.examples;

import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.openai.OpenAiModel;
import dev.rein.testkit.ScriptedModel;
import dev.rein.testkit.openai.ChatReply;
import dev.rein.testkit.openai.FakeChatCompletionsServer;

/**
 * A scripted model whose every answer travels over the OpenAI Chat Completions wire: the script
 * decides the answer from the neutral request, the answer is queued on a fake Chat Completions
 * server, and the real {@link OpenAiModel} sends the request (which the fake validates like the
 * real API: tool messages answering each call, in order) and parses the streamed answer back.
 */
final class OverTheOpenAiWire implements Model, AutoCloseable {
    private final ScriptedModel script;
    private final FakeChatCompletionsServer server = FakeChatCompletionsServer.start();
    private final OpenAiModel wire = OpenAiModel.builder().baseUrl(server.baseUrl()).build();

    OverTheOpenAiWire(ScriptedModel script) {
        this.script = script;
    }

    @Override
    public synchronized ModelResponse call(ModelRequest request, ModelCallContext context)
            throws ModelException, InterruptedException {
        try {
            server.enqueue(reply(script.call(request, ModelCallContext.until(context.deadline()))));
        } catch (ModelException e) {
            int status = e.httpStatus() >= 400 ? e.httpStatus() : e.retryable() ? 503 : 400;
            server.enqueue(ChatReply.error(status, e.retryable() ? "server_error" : "invalid_request_error", e.getMessage()));
        }
        return wire.call(request, context);
    }

    /** How many requests reached the fake server. */
    int requests() {
        return server.requestCount();
    }

    @Override
    public void close() {
        wire.close();
        server.close();
    }

    private static ChatReply.Completion reply(ModelResponse response) {
        ChatReply.CompletionBuilder reply = ChatReply.completion();
        StringBuilder text = new StringBuilder();
        for (ContentBlock block : response.content()) {
            if (block instanceof TextBlock t) {
                text.append(t.text());
            } else if (block instanceof ToolUseBlock use) {
                reply.toolCall(use.id(), use.name(), Json.write(use.input()));
            }
        }
        if (!text.isEmpty()) {
            reply.text(text.toString());
        }
        Usage usage = response.usage();
        reply.usage(usage.inputTokens() + usage.cacheReadInputTokens(), usage.outputTokens(), usage.cacheReadInputTokens());
        String finish = switch (response.stopReason()) {
            case TOOL_USE -> ChatReply.TOOL_CALLS;
            case MAX_TOKENS -> ChatReply.LENGTH;
            case REFUSAL -> ChatReply.CONTENT_FILTER;
            default -> ChatReply.STOP;
        };
        return reply.finishReason(finish).build();
    }
}
