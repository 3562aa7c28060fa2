package dev.rein.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** A server that never starts is a configuration error naming it, with its stderr tail, secrets masked. */
class StartupFailureTest {
    @Test
    void aCommandThatDoesNotExist() {
        assertThatThrownBy(() -> McpToolset.start(McpTesting.config("ghost", "\"command\": \"/no/such/mcp-server\"")))
                .isInstanceOf(McpConfigException.class)
                .hasMessageContaining("MCP server 'ghost' could not be started")
                .hasMessageContaining("/no/such/mcp-server");
    }

    @Test
    void aWholeCommandLineInCommandIsToldToBeSplitIntoCommandAndArgs() {
        // Before: 'Cannot run program "npx -y @modelcontextprotocol/server-memory": ... Check that 'npx -y
        // @modelcontextprotocol/server-memory' runs from a shell with the same arguments', which it does.
        assertThatThrownBy(() -> McpToolset.start(McpTesting.config("memory", "\"command\": \"npx -y @modelcontextprotocol/server-memory\"")))
                .isInstanceOf(McpConfigException.class)
                .hasMessageContaining("MCP server 'memory' could not be started")
                .hasMessageEndingWith(" \"command\" holds spaces, and Rein starts it as one program's name, not through a shell: put the"
                        + " program in \"command\" (\"npx\") and each argument in \"args\".")
                .hasMessageNotContaining("from a shell with the same arguments");
    }

    @Test
    void aWorkingDirectoryThatDoesNotExistIsNamedAsSuchNotAsAMissingCommand() {
        // The JDK says "Cannot run program "sh" (in directory ...): No such file or directory", which reads as sh missing.
        assertThatThrownBy(() -> McpToolset.start(McpTesting.config("lost", "\"command\": \"sh\", \"args\": [\"-c\", \"exit 0\"],"
                + " \"cwd\": \"/no/such/dir\"")))
                .isInstanceOf(McpConfigException.class)
                .hasMessage("MCP server 'lost' could not be started: its working directory (\"cwd\") /no/such/dir does not exist or is"
                        + " not a directory; create it or correct \"cwd\".");
    }

    @Test
    void aServerThatPrintsItsErrorToStdoutAndExitsIsQuotedSaying() {
        // A stdout line that is no message is skipped now (StdioProtocolTest), not the end of the server; a server that
        // print()s why it cannot run and exits is still quoted, as its stderr would be.
        assertThatThrownBy(() -> McpToolset.start(McpTesting.config("chatty", "\"command\": \"sh\", \"args\": [\"-c\","
                + " \"echo Error: GITHUB_TOKEN is not set; exit 1\"]")))
                .isInstanceOf(McpConfigException.class)
                .hasMessageStartingWith("MCP server 'chatty' could not be started: it stopped before answering: it closed its output"
                        + " (exit code 1). Lines it wrote to its stdout that are not MCP messages (skipped; a stdio server writes its logs"
                        + " to stderr) ended with: Error: GITHUB_TOKEN is not set");
    }

    @Test
    void aServerThatExitsAtOnceShowsItsStderrWithSecretsMasked() {
        String json = "{\"mcpServers\": {\"broken\": {\"command\": \"sh\", \"args\": [\"-c\", \"echo \\\"boom: key $API_KEY rejected\\\" >&2; exit 3\"],"
                + " \"env\": {\"API_KEY\": \"${BROKEN_KEY}\"}}}}";
        McpConfig config = McpConfig.parse(json, "test", Map.of("BROKEN_KEY", "sk-very-secret"));
        assertThatThrownBy(() -> McpToolset.start(config))
                .isInstanceOf(McpConfigException.class)
                .hasMessageContaining("MCP server 'broken' could not be started")
                .hasMessageContaining("exit code 3")
                .hasMessageContaining("boom: key [REDACTED:BROKEN_KEY] rejected")
                .hasMessageNotContaining("sk-very-secret");
    }

    @Test
    void controlCharactersAServerWritesToStderrOrStdoutAreEscapedInTheStartError() {
        // A library caller logs or prints the message as it is: an escape sequence a server wrote (ESC ] 0 ; title BEL
        // retitles a terminal, ESC [ 2 J clears it) must not reach it raw. Before, the stderr tail quoted it unescaped.
        String json = "{\"mcpServers\": {\"rude\": {\"command\": \"sh\", \"args\": [\"-c\", \"printf '\\\\033]0;pwned\\\\007\\\\033[2Jboom\\\\n' >&2;"
                + " printf 'out\\\\033[31mred\\\\n'; exit 3\"]}}}";
        McpConfig config = McpConfig.parse(json, "test", Map.of());
        assertThatThrownBy(() -> McpToolset.start(config))
                .isInstanceOf(McpConfigException.class)
                .hasMessageContaining("exit code 3")
                .hasMessageContaining("Its stderr ended with: \\x1b]0;pwned\\x07\\x1b[2Jboom")
                .hasMessageContaining("out\\x1b[31mred")
                .satisfies(e -> assertThat(e.getMessage().chars().filter(c -> c < 0x20 || c == 0x7f)).isEmpty());
    }

    @Test
    void aCredentialWrittenLiterallyIntoEnvIsMaskedInTheStderrTailAsASubstitutedOneIs() {
        // Servers' READMEs write the token into the file ("env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "<token>"}); before,
        // only a value from ${VAR} was a secret, so the server's complaint about it showed the token in the start error.
        String json = "{\"mcpServers\": {\"gh\": {\"command\": \"sh\", \"args\": [\"-c\", \"echo \\\"bad token $GITHUB_PERSONAL_ACCESS_TOKEN"
                + " for $GH_REPO_DIR\\\" >&2; exit 3\"], \"env\": {\"GITHUB_PERSONAL_ACCESS_TOKEN\": \"ghp_literal0123\","
                + " \"GH_REPO_DIR\": \"/home/me/repo\"}}}}";
        McpConfig config = McpConfig.parse(json, "test", Map.of());
        assertThatThrownBy(() -> McpToolset.start(config))
                .isInstanceOf(McpConfigException.class)
                .hasMessageContaining("exit code 3")
                .hasMessageContaining("bad token [REDACTED:")
                .hasMessageContaining("for /home/me/repo")
                .hasMessageNotContaining("ghp_literal");
    }

    @Test
    void aSecretAtTheEndOfALongStderrLineIsMaskedWholeNotCutFirstAndLeftPartlyShown() {
        // The tail keeps 300 characters of a line; cut before masking, the key's first characters stayed in the message.
        String json = "{\"mcpServers\": {\"broken\": {\"command\": \"sh\", \"args\": [\"-c\", \"printf '%0285d key %s rejected\\\\n' 0"
                + " \\\"$API_KEY\\\" >&2; exit 3\"], \"env\": {\"API_KEY\": \"${BROKEN_KEY}\"}}}}";
        McpConfig config = McpConfig.parse(json, "test", Map.of("BROKEN_KEY", "sk-very-secret-0123456789"));
        assertThatThrownBy(() -> McpToolset.start(config))
                .isInstanceOf(McpConfigException.class)
                .hasMessageContaining("exit code 3")
                .hasMessageContaining("key [REDACTED:")
                .hasMessageNotContaining("sk-very");
    }

    @Test
    void aSecretNearTheEndOfALongLineOnStdoutIsMaskedWholeInTheQuoteOfIt() {
        // The line is quoted in a message cut to 200 characters; cut before masking, the key's first characters showed.
        String json = "{\"mcpServers\": {\"chatty\": {\"command\": \"sh\", \"args\": [\"-c\", \"printf '%0122d key %s\\\\n' 0"
                + " \\\"$API_KEY\\\"; exit 1\"], \"env\": {\"API_KEY\": \"${CHATTY_KEY}\"}}}}";
        McpConfig config = McpConfig.parse(json, "test", Map.of("CHATTY_KEY", "sk-very-secret-0123456789"));
        assertThatThrownBy(() -> McpToolset.start(config))
                .isInstanceOf(McpConfigException.class)
                .hasMessageContaining("that are not MCP messages")
                .hasMessageContaining("key [REDACTED:")
                .hasMessageNotContaining("sk-very");
    }

    @Test
    void theAgentsEnvironmentDoesNotReachAServer() {
        // A variable of this JVM that is not on the short list a server inherits (PATH, HOME, LANG, ...).
        String own = System.getenv().keySet().stream().filter(k -> k.matches("[A-Z][A-Z0-9_]*") && k.contains("_")
                && !k.startsWith("LC_") && !k.startsWith("NODE_") && !k.startsWith("XDG_") && !k.startsWith("NPM_")).findFirst().orElse("JAVA_HOME");
        String json = "{\"mcpServers\": {\"env\": {\"command\": \"sh\", \"args\": [\"-c\", \"echo \\\"seen: [$" + own
                + "] $MINE\\\" >&2; exit 1\"], \"env\": {\"MINE\": \"given\"}}}}";
        McpConfig config = McpConfig.parse(json, "test", Map.of());
        assertThatThrownBy(() -> McpToolset.start(config)).hasMessageContaining("seen: [] given");
        assertThat(System.getenv()).doesNotContainKey("MINE");
    }

    @Test
    void anHttpServerThatIsNotThere() throws Exception {
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        McpConfig config = McpTesting.config("remote", "\"url\": \"http://127.0.0.1:" + port + "/mcp\", \"headers\": {\"Authorization\": \"Bearer abcd-1234\"}");
        assertThatThrownBy(() -> McpToolset.start(config))
                .isInstanceOf(McpConfigException.class)
                .hasMessageContaining("MCP server 'remote' could not be started")
                .hasMessageContaining("Check that the URL is reachable")
                .hasMessageContaining("nothing accepted a connection at 127.0.0.1:" + port)
                // the SDK's wording ("RuntimeException: Client failed to initialize by explicit API call Caused by: ...")
                .hasMessageNotContaining("Exception")
                .hasMessageNotContaining("abcd-1234");
        McpConfig unknown = McpTesting.config("remote", "\"url\": \"http://no-such-host.invalid/mcp\"");
        assertThatThrownBy(() -> McpToolset.start(unknown))
                .isInstanceOf(McpConfigException.class)
                .hasMessageContaining("the host 'no-such-host.invalid' is not known")
                .hasMessageNotContaining("Exception");
    }
}
