package dev.rein.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.tool.ToolOutput;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * A tool result as text for the model: text blocks as they are, structured content as JSON,
 * images, audio and resources described (their bytes never enter the context). Blocks annotated
 * for the user only ({@code audience: ["user"]}) become the output's part for the person, which the
 * model never sees.
 */
final class ResultText {
    private ResultText() {}

    static ToolOutput of(McpSchema.CallToolResult result) {
        List<String> parts = new ArrayList<>();
        List<String> forUser = new ArrayList<>();
        List<JsonNode> textAsJson = new ArrayList<>();
        for (McpSchema.Content content : result.content() == null ? List.<McpSchema.Content>of() : result.content()) {
            if (userOnly(content)) {
                // the protocol's annotations: audience ["user"] is for the person, not the model (docs/mcp.md, Output)
                forUser.add(forPerson(content));
                continue;
            }
            String text = describe(content);
            parts.add(text);
            if (content instanceof McpSchema.TextContent) {
                textAsJson.add(parseQuietly(text));
            }
        }
        if (result.structuredContent() != null) {
            JsonNode structured = Json.mapper().valueToTree(result.structuredContent());
            // Servers are asked to repeat structured content as a text block; show it once (a copy for the user only
            // does not count: the model would not see it).
            if (!textAsJson.contains(structured)) {
                parts.add("Structured content: " + Json.write(structured));
            }
        }
        String text = String.join("\n", parts);
        String user = forUser.isEmpty() ? null : String.join("\n", forUser);
        // nothing left for the model but a part for the person: Rein's executor tells the model the content (or the
        // error's message) was for the user only, in its own words
        ToolOutput output = Boolean.TRUE.equals(result.isError())
                ? ToolOutput.error(!text.isEmpty() || user != null ? text : "The tool reported an error without a message.")
                : ToolOutput.text(text);
        return output.withUserContent(user);
    }

    /**
     * A block for the person: only text survives in the part for the user (a listener prints it), so an image, audio
     * or binary file is described in words for the person; anything else as the model would have it.
     */
    private static String forPerson(McpSchema.Content content) {
        if (content instanceof McpSchema.ImageContent image) {
            return "[an image (" + image.mimeType() + ", " + decodedBytes(image.data()) + " bytes) was left out: only text is shown here]";
        }
        if (content instanceof McpSchema.AudioContent audio) {
            return "[a sound (" + audio.mimeType() + ", " + decodedBytes(audio.data()) + " bytes) was left out: only text is shown here]";
        }
        if (content instanceof McpSchema.EmbeddedResource embedded && embedded.resource() instanceof McpSchema.BlobResourceContents blob
                && textOf(blob) == null) {
            return "[a file (" + blob.uri() + (blob.mimeType() == null ? "" : ", " + blob.mimeType()) + ", " + decodedBytes(blob.blob())
                    + " bytes) was left out: only text is shown here]";
        }
        return describe(content);
    }

    /** Whether the block is annotated for the person only: its {@code audience} is exactly {@code ["user"]}. */
    private static boolean userOnly(McpSchema.Content content) {
        return content instanceof McpSchema.Annotated annotated && annotated.annotations() != null
                && annotated.annotations().audience() != null && !annotated.annotations().audience().isEmpty()
                && annotated.annotations().audience().stream().allMatch(McpSchema.Role.USER::equals);
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
            // A title (for people, 2025-06-18) and a size (whether reading it is worthwhile) are the link's too.
            return "[resource link " + link.uri() + (link.name() == null ? "" : " \"" + link.name() + "\"")
                    + (link.title() == null || link.title().equals(link.name()) ? "" : " (" + link.title() + ")")
                    + (link.mimeType() == null ? "" : ", " + link.mimeType())
                    + (link.size() == null ? "" : ", " + link.size() + " bytes")
                    + (link.description() == null ? "" : ": " + link.description()) + "]";
        }
        return "[" + content.type() + " content, not shown]";
    }

    private static String resource(McpSchema.ResourceContents resource) {
        if (resource instanceof McpSchema.TextResourceContents text) {
            return "[resource " + text.uri() + (text.mimeType() == null ? "" : ", " + text.mimeType()) + "]\n" + text.text();
        }
        if (resource instanceof McpSchema.BlobResourceContents blob) {
            String decoded = textOf(blob);
            if (decoded != null) {
                // Text sent as base64 (server-everything's blob resources are text/plain) is text the model can read.
                return "[resource " + blob.uri() + ", " + blob.mimeType() + "]\n" + decoded;
            }
            // mimeType is optional on resource contents.
            return "[resource " + blob.uri() + (blob.mimeType() == null ? "" : ", " + blob.mimeType()) + ", " + decodedBytes(blob.blob())
                    + " bytes, not shown]";
        }
        return "[resource " + resource.uri() + "]";
    }

    /**
     * The text of a blob whose {@code mimeType} names text ({@code text/*}, JSON, XML, YAML and the
     * like), decoded in its {@code charset} (UTF-8 when none); null for any other blob, or one that is
     * not valid base64 or not valid text in that charset (then it is described, as bytes).
     */
    static String textOf(McpSchema.BlobResourceContents blob) {
        if (blob.mimeType() == null || blob.blob() == null) {
            return null;
        }
        String[] parts = blob.mimeType().toLowerCase(java.util.Locale.ROOT).split(";");
        String type = parts[0].trim();
        boolean text = type.startsWith("text/") || type.endsWith("+json") || type.endsWith("+xml") || type.endsWith("+yaml")
                || java.util.Set.of("application/json", "application/xml", "application/yaml", "application/x-yaml", "application/toml",
                        "application/javascript", "application/ecmascript", "application/x-sh", "application/sql", "application/graphql",
                        "application/x-ndjson", "application/jsonl", "application/ld+json", "image/svg+xml").contains(type);
        if (!text) {
            return null;
        }
        java.nio.charset.Charset charset = java.nio.charset.StandardCharsets.UTF_8;
        for (int i = 1; i < parts.length; i++) {
            String parameter = parts[i].trim();
            if (parameter.startsWith("charset=")) {
                try {
                    charset = java.nio.charset.Charset.forName(parameter.substring("charset=".length()).replace("\"", "").trim());
                } catch (IllegalArgumentException e) {
                    return null; // a charset Java does not know: the bytes are described
                }
            }
        }
        try {
            byte[] bytes = java.util.Base64.getMimeDecoder().decode(blob.blob());
            return charset.newDecoder().onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (IllegalArgumentException | java.nio.charset.CharacterCodingException e) {
            return null;
        }
    }

    /**
     * The number of bytes {@code base64} decodes to, counted as the MIME decoder that decodes it
     * ({@link #textOf}) reads it: line breaks and other characters outside the alphabet are not
     * data (base64 wrapped into 76-character lines is common), and the first {@code =} ends it.
     */
    private static long decodedBytes(String base64) {
        if (base64 == null) {
            return 0;
        }
        long sextets = 0;
        for (int i = 0; i < base64.length(); i++) {
            char c = base64.charAt(i);
            if (c == '=') {
                break;
            }
            if (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/') {
                sextets++;
            }
        }
        return sextets * 6 / 8;
    }

    private static JsonNode parseQuietly(String text) {
        try {
            return Json.mapper().readTree(text);
        } catch (Exception e) {
            return null;
        }
    }
}
