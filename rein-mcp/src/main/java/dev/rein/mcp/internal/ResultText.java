package dev.rein.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.tool.ToolOutput;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * A tool result as text for the model: text blocks as they are, structured content as JSON,
 * images, audio and resources described (their bytes never enter the context).
 */
final class ResultText {
    private ResultText() {}

    static ToolOutput of(McpSchema.CallToolResult result) {
        List<String> parts = new ArrayList<>();
        List<JsonNode> textAsJson = new ArrayList<>();
        for (McpSchema.Content content : result.content() == null ? List.<McpSchema.Content>of() : result.content()) {
            String text = describe(content);
            parts.add(text);
            if (content instanceof McpSchema.TextContent) {
                textAsJson.add(parseQuietly(text));
            }
        }
        if (result.structuredContent() != null) {
            JsonNode structured = Json.mapper().valueToTree(result.structuredContent());
            // Servers are asked to repeat structured content as a text block; show it once.
            if (!textAsJson.contains(structured)) {
                parts.add("Structured content: " + Json.write(structured));
            }
        }
        String text = String.join("\n", parts);
        return Boolean.TRUE.equals(result.isError()) ? ToolOutput.error(text.isEmpty() ? "The tool reported an error without a message." : text)
                : ToolOutput.text(text);
    }

    private static String describe(McpSchema.Content content) {
        if (content instanceof McpSchema.TextContent text) {
            return text.text() == null ? "" : text.text();
        }
        if (content instanceof McpSchema.ImageContent image) {
            return "[image " + image.mimeType() + ", " + decodedBytes(image.data()) + " bytes, not shown]";
        }
        if (content instanceof McpSchema.AudioContent audio) {
            return "[audio " + audio.mimeType() + ", " + decodedBytes(audio.data()) + " bytes, not shown]";
        }
        if (content instanceof McpSchema.EmbeddedResource embedded) {
            return resource(embedded.resource());
        }
        if (content instanceof McpSchema.ResourceLink link) {
            return "[resource link " + link.uri() + (link.name() == null ? "" : " \"" + link.name() + "\"")
                    + (link.mimeType() == null ? "" : ", " + link.mimeType())
                    + (link.description() == null ? "" : ": " + link.description()) + "]";
        }
        return "[" + content.type() + " content, not shown]";
    }

    private static String resource(McpSchema.ResourceContents resource) {
        if (resource instanceof McpSchema.TextResourceContents text) {
            return "[resource " + text.uri() + (text.mimeType() == null ? "" : ", " + text.mimeType()) + "]\n" + text.text();
        }
        if (resource instanceof McpSchema.BlobResourceContents blob) {
            // mimeType is optional on resource contents.
            return "[resource " + blob.uri() + (blob.mimeType() == null ? "" : ", " + blob.mimeType()) + ", " + decodedBytes(blob.blob())
                    + " bytes, not shown]";
        }
        return "[resource " + resource.uri() + "]";
    }

    private static long decodedBytes(String base64) {
        if (base64 == null) {
            return 0;
        }
        int padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
        return Math.max(0, base64.length() * 3L / 4 - padding);
    }

    private static JsonNode parseQuietly(String text) {
        try {
            return Json.mapper().readTree(text);
        } catch (Exception e) {
            return null;
        }
    }
}
