package dev.rein.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.rein.provider.WireText;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Replaces half a UTF-16 surrogate pair with U+FFFD, as a UTF-8 decoder reads a bad byte. Such text
 * reaches requests from outside (a tool that cut a string in the middle of an emoji, an MCP server
 * whose JSON escaped a lone {@code \ud83d}); the SDK writes it as the escape {@code \ud83d}, which a
 * strict server refuses with a 400 (DeepSeek: "lone leading surrogate in hex escape"), and since the
 * text stays in the history every later request of the run would be refused too. Whole pairs (emoji)
 * pass unchanged ({@link WireText}, as rein-anthropic's requests); this applies it to the SDK's trees.
 */
final class WellFormedText {
    private WellFormedText() {}

    /** {@code text} with each unpaired surrogate replaced by U+FFFD; the same instance when there is none. */
    static String of(String text) {
        return WireText.wellFormed(text);
    }

    /**
     * Makes every string and field name in {@code node} well-formed, in place where it can; returns
     * the node to use (a new text node for a text node that changed). One pass over the tree, which
     * the caller builds once per history message and keeps.
     */
    static JsonNode of(JsonNode node) {
        if (node == null) {
            return null;
        }
        if (node.isTextual()) {
            String text = node.textValue();
            String wellFormed = of(text);
            return wellFormed == text ? node : TextNode.valueOf(wellFormed);
        }
        if (node instanceof ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                JsonNode item = array.get(i);
                JsonNode fixed = of(item);
                if (fixed != item) {
                    array.set(i, fixed);
                }
            }
        } else if (node instanceof ObjectNode object) {
            boolean renamed = false;
            for (Map.Entry<String, JsonNode> field : object.properties()) {
                JsonNode fixed = of(field.getValue());
                if (fixed != field.getValue()) {
                    field.setValue(fixed);
                }
                renamed |= of(field.getKey()) != field.getKey();
            }
            if (renamed) { // rare: rebuilt so the keys keep their order
                List<Map.Entry<String, JsonNode>> fields = new ArrayList<>(object.properties());
                object.removeAll();
                fields.forEach(f -> object.set(of(f.getKey()), f.getValue()));
            }
        }
        return node;
    }
}
