package dev.rein.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResultTextTest {

    @Test
    void theSizeOfBase64WrappedIntoLinesIsTheSizeItDecodesTo() {
        // MIME-style base64 (76-character lines with CRLF, as many encoders write it) decodes to the same bytes: its line
        // breaks are not data. Before, 1000 bytes so wrapped were said to be 1025 (each CRLF counted as 1.5 bytes), 1029
        // with a line break after the last line (its padding no longer seen).
        byte[] bytes = new byte[1000];
        String wrapped = Base64.getMimeEncoder().encodeToString(bytes);
        String spaced = Base64.getEncoder().encodeToString(new byte[]{1, 2, 3, 4}).replace("AQID", "AQID \n\t");
        McpSchema.CallToolResult result = new McpSchema.CallToolResult(List.of(
                new McpSchema.ImageContent(null, wrapped, "image/png"),
                new McpSchema.ImageContent(null, spaced + "\n", "image/png"),
                new McpSchema.EmbeddedResource(null, new McpSchema.BlobResourceContents("file:///a.bin", "application/octet-stream",
                        wrapped + "\r\n"))), null, null, null);
        assertThat(wrapped).contains("\r\n");
        assertThat(ResultText.of(result).content().lines()).containsExactly(
                "[image image/png, 1000 bytes, not shown]",
                "[image image/png, 4 bytes, not shown]",
                "[resource file:///a.bin, application/octet-stream, 1000 bytes, not shown]");
    }
}
