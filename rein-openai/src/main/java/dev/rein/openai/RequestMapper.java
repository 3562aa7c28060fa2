package dev.rein.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.ModelRequest;
import dev.rein.model.OpaqueBlock;
import dev.rein.model.OutputSchema;
import dev.rein.model.RedactedThinkingBlock;
import dev.rein.model.Role;
import dev.rein.model.TextBlock;
import dev.rein.model.ThinkingBlock;
import dev.rein.model.ToolChoice;
import dev.rein.model.ToolDefinition;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Translates a provider-neutral {@link ModelRequest} into a Chat Completions request body.
 *
 * <p>The system prompt is the first message; each assistant turn becomes one {@code assistant}
 * message whose {@code tool_calls} repeat the calls exactly as the model sent them (the
 * argument text included, see {@link RawArguments}); each user turn becomes one {@code tool}
 * message per tool result, in the order of the calls, followed by a {@code user} message with its
 * text, if any. Thinking blocks of other providers are left out: Chat Completions has no place
 * for them. {@code top_k} is not part of the protocol and is not sent.
 */
final class RequestMapper {
    /** Which field carries the output limit: the public API wants the newer one, local servers the older. */
    enum MaxTokensField {
        MAX_COMPLETION_TOKENS("max_completion_tokens"),
        MAX_TOKENS("max_tokens");

        final String wire;

        MaxTokensField(String wire) {
            this.wire = wire;
        }
    }

    private RequestMapper() {}

    static ObjectNode body(ModelRequest request, MaxTokensField maxTokensField) {
        ObjectNode body = Json.object();
        body.put("model", request.model());
        ArrayNode messages = body.putArray("messages");
        if (!request.system().isEmpty()) {
            messages.addObject().put("role", "system").put("content", request.systemText());
        }
        Map<String, Integer> callOrder = new HashMap<>();
        for (Message message : request.messages()) {
            if (message.role() == Role.ASSISTANT) {
                assistant(messages, message, callOrder);
            } else {
                user(messages, message, callOrder);
            }
        }
        if (!request.tools().isEmpty()) {
            // The API refuses tool_choice without tools; the summary call sends both (choice none).
            ArrayNode tools = body.putArray("tools");
            request.tools().forEach(tool -> tools.add(tool(tool)));
            body.set("tool_choice", toolChoice(request.toolChoice()));
        }
        body.put(maxTokensField.wire, request.maxTokens());
        if (request.temperature() != null) {
            body.put("temperature", request.temperature());
        }
        if (request.topP() != null) {
            body.put("top_p", request.topP());
        }
        if (!request.stopSequences().isEmpty()) {
            ArrayNode stop = body.putArray("stop");
            request.stopSequences().forEach(stop::add);
        }
        request.option(OutputSchema.class)
                .filter(schema -> request.option(OpenAiStructuredOutput.class).map(OpenAiStructuredOutput::enabled).orElse(false))
                .ifPresent(schema -> body.set("response_format", responseFormat(schema)));
        body.put("stream", true);
        body.putObject("stream_options").put("include_usage", true);
        return body;
    }

    static JsonNode toolChoice(ToolChoice choice) {
        return switch (choice) {
            case ToolChoice.Auto a -> Json.mapper().getNodeFactory().textNode("auto");
            case ToolChoice.None n -> Json.mapper().getNodeFactory().textNode("none");
            case ToolChoice.Any a -> Json.mapper().getNodeFactory().textNode("required");
            case ToolChoice.Tool t -> {
                ObjectNode named = Json.object().put("type", "function");
                named.putObject("function").put("name", t.name());
                yield named;
            }
        };
    }

    /**
     * {@code response_format} for the output schema. Not strict: strict mode refuses schemas with
     * optional properties or keywords outside its subset, and Rein validates the answer anyway.
     */
    static ObjectNode responseFormat(OutputSchema schema) {
        ObjectNode format = Json.object().put("type", "json_schema");
        ObjectNode jsonSchema = format.putObject("json_schema");
        jsonSchema.put("name", wireName(schema.name()));
        jsonSchema.set("schema", schema.schema().deepCopy());
        jsonSchema.put("strict", false);
        return format;
    }

    /** The API allows only a-z, A-Z, 0-9, '_' and '-' in the name, at most 64 characters. */
    static String wireName(String name) {
        String wire = name.replaceAll("[^A-Za-z0-9_-]", "_");
        if (wire.length() > 64) {
            wire = wire.substring(0, 64);
        }
        return wire.isEmpty() ? "output" : wire;
    }

    private static ObjectNode tool(ToolDefinition tool) {
        ObjectNode json = Json.object().put("type", "function");
        ObjectNode function = json.putObject("function");
        function.put("name", tool.name());
        function.put("description", tool.description());
        function.set("parameters", tool.inputSchema().deepCopy());
        return json;
    }

    private static void assistant(ArrayNode messages, Message message, Map<String, Integer> callOrder) {
        StringBuilder text = new StringBuilder();
        Map<String, String> raw = RawArguments.of(message.content());
        ArrayNode calls = Json.mapper().createArrayNode();
        callOrder.clear();
        for (ContentBlock block : message.content()) {
            switch (block) {
                case TextBlock t -> text.append(t.text());
                case ToolUseBlock use -> {
                    callOrder.put(use.id(), callOrder.size());
                    ObjectNode call = calls.addObject().put("id", use.id()).put("type", "function");
                    call.putObject("function").put("name", use.name())
                            .put("arguments", raw.getOrDefault(use.id(), RawArguments.text(use.input())));
                }
                case ToolResultBlock r -> { } // never in an assistant turn; the validator stops it earlier
                case ThinkingBlock t -> { }
                case RedactedThinkingBlock r -> { }
                case OpaqueBlock o -> { }
            }
        }
        ObjectNode json = messages.addObject().put("role", "assistant");
        if (text.isEmpty() && !calls.isEmpty()) {
            json.putNull("content"); // as the API itself returns a message with only tool calls
        } else {
            json.put("content", text.toString());
        }
        if (!calls.isEmpty()) {
            json.set("tool_calls", calls);
        }
    }

    private static void user(ArrayNode messages, Message message, Map<String, Integer> callOrder) {
        List<ToolResultBlock> results = new ArrayList<>();
        StringBuilder text = new StringBuilder();
        for (ContentBlock block : message.content()) {
            if (block instanceof ToolResultBlock r) {
                results.add(r);
            } else if (block instanceof TextBlock t) {
                if (!text.isEmpty()) {
                    text.append("\n\n");
                }
                text.append(t.text());
            }
        }
        // Tool messages come first and in the order of the calls, as the API requires.
        results.sort((a, b) -> Integer.compare(callOrder.getOrDefault(a.toolUseId(), Integer.MAX_VALUE),
                callOrder.getOrDefault(b.toolUseId(), Integer.MAX_VALUE)));
        for (ToolResultBlock result : results) {
            messages.addObject().put("role", "tool").put("tool_call_id", result.toolUseId())
                    .put("content", result.isError() ? "Error: " + result.content() : result.content());
        }
        if (!text.isEmpty() || results.isEmpty()) {
            messages.addObject().put("role", "user").put("content", text.toString());
        }
    }
}
