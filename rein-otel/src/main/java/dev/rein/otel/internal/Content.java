package dev.rein.otel.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.OpaqueBlock;
import dev.rein.model.RedactedThinkingBlock;
import dev.rein.model.TextBlock;
import dev.rein.model.ThinkingBlock;
import dev.rein.model.ToolDefinition;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import java.util.List;
import java.util.Locale;

/**
 * Opt-in content in the GenAI conventions' JSON shapes (system instructions, input and output
 * messages with typed parts), serialized to JSON strings, as the conventions allow on spans: the Java API could
 * record structured values (AttributeKey.valueKey), but not every backend or exporter shows them, and the
 * content keys of GenAiConventions are string keys.
 */
final class Content {
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private Content() {}

    static String systemInstructions(List<TextBlock> system) {
        ArrayNode parts = F.arrayNode();
        system.forEach(block -> parts.add(text(block.text())));
        return Json.write(parts);
    }

    static String inputMessages(List<Message> messages) {
        ArrayNode out = F.arrayNode();
        for (Message m : messages) {
            boolean toolResults = !m.content().isEmpty() && m.content().stream().allMatch(ToolResultBlock.class::isInstance);
            out.add(message(toolResults ? "tool" : m.role().name().toLowerCase(Locale.ROOT), m.content()));
        }
        return Json.write(out);
    }

    /** The goal as the one user message of a run. */
    static String goal(String goal) {
        ArrayNode out = F.arrayNode();
        out.add(message("user", List.of(new TextBlock(goal))));
        return Json.write(out);
    }

    static String outputMessages(List<ContentBlock> content, String finishReason) {
        ObjectNode message = message("assistant", content);
        message.put("finish_reason", finishReason);
        return Json.write(F.arrayNode().add(message));
    }

    /** The answer of a run as one assistant message. */
    static String answer(String answer, String finishReason) {
        return outputMessages(List.of(new TextBlock(answer)), finishReason);
    }

    /** The tools offered, with the required properties only (type and name), as the conventions recommend. */
    static String toolDefinitions(List<ToolDefinition> tools) {
        ArrayNode out = F.arrayNode();
        tools.forEach(t -> out.add(F.objectNode().put("type", "function").put("name", t.name())));
        return Json.write(out);
    }

    static String json(JsonNode node) {
        return node == null ? "null" : Json.write(node);
    }

    private static ObjectNode message(String role, List<ContentBlock> blocks) {
        ObjectNode message = F.objectNode().put("role", role);
        ArrayNode parts = message.putArray("parts");
        for (ContentBlock block : blocks) {
            parts.add(part(block));
        }
        return message;
    }

    private static ObjectNode part(ContentBlock block) {
        return switch (block) {
            case TextBlock t -> text(t.text());
            case ToolUseBlock use -> {
                ObjectNode part = F.objectNode().put("type", "tool_call").put("id", use.id()).put("name", use.name());
                part.set("arguments", use.input());
                yield part;
            }
            // "response" is what the input-messages JSON schema requires; the conventions' own
            // examples write "result", so both are given the same text.
            case ToolResultBlock result -> F.objectNode().put("type", "tool_call_response").put("id", result.toolUseId())
                    .put("response", result.content()).put("result", result.content());
            // The messages schemas have a part of their own for the model's reasoning.
            case ThinkingBlock thinking -> F.objectNode().put("type", "reasoning").put("content", thinking.thinking());
            // Items with no readable text are named by their kind (the schemas' generic part: a type), not copied:
            // encrypted thinking, and a provider's block Rein keeps unread (a compaction, a kind added later).
            case RedactedThinkingBlock redacted -> F.objectNode().put("type", "redacted_thinking");
            // Readable reasoning a provider keeps in a block of its own (DeepSeek's reasoning_content) is reasoning too.
            case OpaqueBlock opaque when opaque.reasoning().isPresent() ->
                    F.objectNode().put("type", "reasoning").put("content", opaque.reasoning().get());
            // A tool the provider ran (the Messages API's web search, web fetch, code execution, MCP connector) has
            // parts of its own in the messages schemas: server_tool_call and server_tool_call_response.
            case OpaqueBlock opaque when isServerToolCall(opaque) -> serverToolCall(opaque.type(), opaque.json());
            case OpaqueBlock opaque when isServerToolResult(opaque) -> serverToolResponse(opaque.type(), opaque.json());
            case OpaqueBlock opaque -> F.objectNode().put("type", opaque.type().isBlank() ? "opaque" : opaque.type());
        };
    }

    /** A call of a tool the provider runs: Anthropic's server_tool_use (web_search, code_execution, ...) and mcp_tool_use. */
    private static boolean isServerToolCall(OpaqueBlock block) {
        return (block.type().equals("server_tool_use") || block.type().equals("mcp_tool_use")) && block.json().path("name").isTextual();
    }

    /** Its result, named after the tool (web_search_tool_result, mcp_tool_result, ...) and naming the call it answers. */
    private static boolean isServerToolResult(OpaqueBlock block) {
        return block.type().endsWith(SERVER_TOOL_RESULT) && block.type().length() > SERVER_TOOL_RESULT.length()
                && block.json().path("tool_use_id").isTextual();
    }

    private static final String SERVER_TOOL_RESULT = "_tool_result";

    /**
     * The schemas' server_tool_call part: the call's id and tool name, and its details (the input, an MCP server's
     * name) typed by the tool, as the conventions' example types a code interpreter's call by its tool.
     */
    private static ObjectNode serverToolCall(String type, ObjectNode block) {
        String tool = type.equals("mcp_tool_use") ? "mcp" : block.path("name").asText();
        ObjectNode details = F.objectNode().put("type", tool);
        block.properties().forEach(field -> {
            if (!List.of("type", "id", "name").contains(field.getKey())) {
                details.set(field.getKey(), readable(field.getValue()));
            }
        });
        ObjectNode part = F.objectNode().put("type", "server_tool_call");
        if (block.path("id").isTextual()) {
            part.put("id", block.path("id").asText());
        }
        part.put("name", block.path("name").asText());
        part.set("server_tool_call", details);
        return part;
    }

    /**
     * The schemas' server_tool_call_response part: the id of the call it answers and what the tool returned,
     * typed by the tool its block is named after (web_search for web_search_tool_result).
     */
    private static ObjectNode serverToolResponse(String type, ObjectNode block) {
        ObjectNode details = F.objectNode().put("type", type.substring(0, type.length() - SERVER_TOOL_RESULT.length()));
        block.properties().forEach(field -> {
            if (!List.of("type", "tool_use_id").contains(field.getKey())) {
                details.set(field.getKey(), readable(field.getValue()));
            }
        });
        return F.objectNode().put("type", "server_tool_call_response").put("id", block.path("tool_use_id").asText())
                .set("server_tool_call_response", details);
    }

    /**
     * {@code value} without the fields only the provider can read (a web search result's encrypted_content, a
     * citation's encrypted_index): sizeable, and nothing a person can read in a trace.
     */
    private static JsonNode readable(JsonNode value) {
        if (value.isObject()) {
            ObjectNode out = F.objectNode();
            value.properties().forEach(field -> {
                if (!field.getKey().startsWith("encrypted_")) {
                    out.set(field.getKey(), readable(field.getValue()));
                }
            });
            return out;
        }
        if (value.isArray()) {
            ArrayNode out = F.arrayNode();
            value.forEach(item -> out.add(readable(item)));
            return out;
        }
        return value;
    }

    private static ObjectNode text(String text) {
        return F.objectNode().put("type", "text").put("content", text);
    }
}
