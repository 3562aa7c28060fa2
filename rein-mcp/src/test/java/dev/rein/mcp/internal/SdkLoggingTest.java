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
        assertThat(warning).contains("io.modelcontextprotocol.spec.McpSchema, io.modelcontextprotocol.spec.McpClientSession")
                .doesNotContain("HttpClientStreamableHttpTransport")
                .contains("unmasked").contains("set logger io.modelcontextprotocol to WARN");
    }

    @Test
    void theTestLogsMcpSchemaAtDebugSoTheRealCheckFindsIt() {
        // src/test/resources/simplelogger.properties keeps McpSchema at DEBUG: the check asks SLF4J, not a guess.
        assertThat(SdkLogging.warning(SdkLogging::debugEnabled).orElseThrow())
                .contains("logger io.modelcontextprotocol.spec.McpSchema is");
    }
}
