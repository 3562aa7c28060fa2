package dev.rein.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.tool.ToolOutput;
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

    private static McpSchema.Annotations audience(McpSchema.Role... roles) {
        return new McpSchema.Annotations(List.of(roles), null);
    }

    @Test
    void blocksForTheUserOnlyAreTheUserPartAndNeverTheModelsText() {
        // MCP annotations: audience ["user"] is content for the person. Before, every block went to the model.
        McpSchema.CallToolResult result = new McpSchema.CallToolResult(List.of(
                new McpSchema.TextContent(audience(McpSchema.Role.USER), "完了しました"),
                new McpSchema.TextContent(audience(McpSchema.Role.ASSISTANT), "cache hit 0.95"),
                new McpSchema.TextContent(audience(McpSchema.Role.USER, McpSchema.Role.ASSISTANT), "both"),
                new McpSchema.TextContent(audience(), "no audience"),
                new McpSchema.TextContent("plain"),
                new McpSchema.ImageContent(audience(McpSchema.Role.USER), "AAAA", "image/png")), null, null, null);

        ToolOutput output = ResultText.of(result);

        assertThat(output.content().lines()).containsExactly("cache hit 0.95", "both", "no audience", "plain");
        // only text survives in the part for the person: an image is described, in words for the person (not the model's)
        assertThat(output.userContent()).isEqualTo("完了しました\n" + "[an image (image/png, 3 bytes) was left out: only text is shown here]");
        assertThat(output.isError()).isFalse();
    }

    @Test
    void aResultAllForTheUserLeavesTheModelNothingOfItsOwnAndAnErrorSaysWhy() {
        ToolOutput success = ResultText.of(new McpSchema.CallToolResult(List.of(
                new McpSchema.TextContent(audience(McpSchema.Role.USER), "Operation completed successfully")), false, null, null));
        ToolOutput failure = ResultText.of(new McpSchema.CallToolResult(List.of(
                new McpSchema.TextContent(audience(McpSchema.Role.USER), "Error: 権限がありません")), true, null, null));

        // the executor turns the blank success into "(the tool returned content for the user only, ...)"
        assertThat(success.content()).isEmpty();
        assertThat(success.userContent()).isEqualTo("Operation completed successfully");
        assertThat(failure.isError()).isTrue();
        // blank, with the part for the person: rein-core tells the model the error's message was for the user only
        assertThat(failure.content()).isEmpty();
        assertThat(failure.userContent()).isEqualTo("Error: 権限がありません");
    }
}
