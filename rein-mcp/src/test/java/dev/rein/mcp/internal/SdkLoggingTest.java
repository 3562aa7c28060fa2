package dev.rein.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** The warning that the MCP SDK's loggers are set to log what servers send, unmasked. */
class SdkLoggingTest {

    @Test
    void aDebugLevelOnAnSdkLoggerThatLogsServersMessagesIsNamedInOneWarning() {
        // Over HTTP the SDK logs each JSON body as the server sent it (McpSchema, DEBUG "Received JSON message: {}"), and
        // every answer it reads (McpClientSession, "Received response: {}"): a tool's output with any secret in it. Rein
        // cannot keep them out of those lines, so it says so when the application has them on.
        assertThat(SdkLogging.warning(name -> false)).isEmpty();
        String warning = SdkLogging.warning(Set.of("io.modelcontextprotocol.spec.McpSchema",
                "io.modelcontextprotocol.spec.McpClientSession")::contains).orElseThrow();
        assertThat(warning).contains("io.modelcontextprotocol.spec.McpSchema (").contains("; io.modelcontextprotocol.spec.McpClientSession (")
                .doesNotContain("HttpClientStreamableHttpTransport")
                .contains("unmasked").contains("set logger io.modelcontextprotocol to WARN");
    }

    /**
     * Before: McpAsyncClient (DEBUG "Logging: {}", "Progress: {}": a server's log messages and progress notes) and
     * ResponseBodyHandlers$SseEventParser (the SSE lines it skips, raw) were not checked; and the one sentence said every
     * logger logs what servers send, though HttpClientStreamableHttpTransport logs what Rein sends; and McpAsyncClient's
     * words left out its DEBUG "Tools changed: {}", "Resources changed: {}", "Prompts changed: {}" (a server's whole new
     * list) and "Resources updated: {}" (the contents of a resource the server says changed, which the SDK reads).
     */
    @Test
    void eachLoggerIsNamedWithWhatItLogsWhatServersSendOrWhatReinSends() {
        String warning = SdkLogging.warning(name -> true).orElseThrow();
        assertThat(warning)
                .contains("io.modelcontextprotocol.client.McpAsyncClient (each log message and progress notification a server"
                        + " sends, and each list of tools, resources or prompts and each resource's contents it announces"
                        + " anew)")
                .contains("io.modelcontextprotocol.client.transport.ResponseBodyHandlers$SseEventParser (the lines of a"
                        + " server's event stream it skips, raw)")
                .contains("io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport (each message Rein"
                        + " sends, a tool call's arguments included)");
        assertThat(SdkLogging.warning(Set.of("io.modelcontextprotocol.client.McpAsyncClient")::contains).orElseThrow())
                .startsWith("The MCP SDK logs at DEBUG, unmasked, uncut and with control characters raw, which Rein cannot"
                        + " change: io.modelcontextprotocol.client.McpAsyncClient (each log message");
    }

    @Test
    void theTestLogsMcpSchemaAtDebugSoTheRealCheckFindsIt() {
        // src/test/resources/simplelogger.properties keeps McpSchema at DEBUG: the check asks SLF4J, not a guess.
        assertThat(SdkLogging.warning(SdkLogging::debugEnabled).orElseThrow())
                .contains(": io.modelcontextprotocol.spec.McpSchema (each message a server sends");
    }
}
