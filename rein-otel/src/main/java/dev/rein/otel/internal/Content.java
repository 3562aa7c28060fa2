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
 * messages with typed parts), serialized to strings because spans do not carry structured values yet.
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
            // encrypted thinking, and a provider's block Rein keeps unread (a server tool call or result, a compaction).
            case RedactedThinkingBlock redacted -> F.objectNode().put("type", "redacted_thinking");
            // Readable reasoning a provider keeps in a block of its own (DeepSeek's reasoning_content) is reasoning too.
            case OpaqueBlock opaque when opaque.reasoning().isPresent() ->
                    F.objectNode().put("type", "reasoning").put("content", opaque.reasoning().get());
            case OpaqueBlock opaque -> F.objectNode().put("type", opaque.type().isBlank() ? "opaque" : opaque.type());
        };
    }

    private static ObjectNode text(String text) {
        return F.objectNode().put("type", "text").put("content", text);
    }
}
