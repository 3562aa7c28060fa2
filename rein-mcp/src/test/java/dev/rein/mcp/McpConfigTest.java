package dev.rein.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.tool.Risk;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class McpConfigTest {
    private static McpConfig parse(String servers) {
        return McpConfig.parse("{\"mcpServers\": {" + servers + "}}", "servers.json", Map.of("TOKEN", "s3cret-token", "HOME", "/home/me"));
    }

    private static void rejects(String servers, String message) {
        assertThatThrownBy(() -> parse(servers)).isInstanceOf(McpConfigException.class).hasMessageContaining(message);
    }

    @Test
    void readsTheCommonFormatAndReinKeys() {
        McpConfig config = parse("\"fs\": {\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\", \"${HOME}/work\"],"
                + " \"env\": {\"API_KEY\": \"${TOKEN}\", \"MODE\": \"fast\"}, \"cwd\": \"/tmp\","
                + " \"risk\": {\"write_file\": \"irreversible\"}, \"allow\": [\"read_file\", \"write_file\"], \"deny\": [\"move_file\"],"
                + " \"scope\": \"files\", \"timeout_seconds\": 2.5, \"trust\": false, \"prefix\": \"fs_\"},"
                + " \"web\": {\"url\": \"https://mcp.example.com/mcp\", \"headers\": {\"Authorization\": \"Bearer ${TOKEN}\"}, \"risk\": \"write\"}");
        McpServerConfig fs = config.servers().get(0);
        assertThat(fs.transport()).isEqualTo(new McpServerConfig.Stdio("npx",
                List.of("-y", "@modelcontextprotocol/server-filesystem", "/home/me/work"), Map.of("API_KEY", "s3cret-token", "MODE", "fast"),
                Path.of("/tmp")));
        assertThat(fs.overrideFor("write_file")).contains(Risk.IRREVERSIBLE);
        assertThat(fs.overrideFor("read_file")).isEmpty();
        assertThat(fs.offers("read_file")).isTrue();
        assertThat(fs.offers("move_file")).isFalse();
        assertThat(fs.offers("edit_file")).isFalse();
        assertThat(fs.scope()).isEqualTo("files");
        assertThat(fs.timeout()).isEqualTo(Duration.ofMillis(2500));
        assertThat(fs.prefix()).isEqualTo("fs_");
        assertThat(fs.secrets()).containsOnly(Map.entry("TOKEN", "s3cret-token"));
        McpServerConfig web = config.servers().get(1);
        assertThat(web.transport()).isInstanceOf(McpServerConfig.Http.class);
        assertThat(web.transport().toString()).doesNotContain("s3cret");
        assertThat(web.overrideFor("anything")).contains(Risk.WRITE);
        assertThat(web.timeout()).isEqualTo(McpServerConfig.DEFAULT_TIMEOUT);
        assertThat(web.secrets()).containsEntry("mcp.web.headers.Authorization", "Bearer s3cret-token");
    }

    @Test
    void disabledServersAreLeftOutAndForeignApprovalKeysAreWarnedAbout() {
        McpConfig config = parse("\"a\": {\"command\": \"x\", \"disabled\": true}, \"b\": {\"command\": \"y\", \"autoApprove\": [\"rm\"]}");
        assertThat(config.servers()).extracting(McpServerConfig::name).containsExactly("b");
        assertThat(config.warnings()).singleElement().asString().contains("'b'", "autoApprove", "ignored");
    }

    @Test
    void aForeignKeyThatGrantsNothingIsWarnedAboutInItsOwnTerms() {
        McpConfig config = parse("\"a\": {\"command\": \"x\", \"timeout\": 60000, \"envFile\": \".env\", \"description\": \"d\"}");
        assertThat(config.warnings()).hasSize(3);
        assertThat(config.warnings().get(0)).contains("\"timeout\"", "\"timeout_seconds\"").doesNotContain("approval");
        assertThat(config.warnings().get(1)).contains("\"envFile\"", "\"env\"").doesNotContain("approval");
        assertThat(config.warnings().get(2)).contains("\"description\"", "ignored").doesNotContain("approval");
    }

    @Test
    void aFileThatIsNotJsonSaysWhereAndWhatToDo() {
        // A library caller got only Jackson's reason and the place; the CLI's other "not valid JSON" errors say what to do.
        // JSON has no trailing commas or comments, which editors of JSONC settings files let people write.
        assertThatThrownBy(() -> McpConfig.parse("{\"mcpServers\": {\"a\": {\"command\": \"x\",}}}", "servers.json", Map.of()))
                .isInstanceOf(McpConfigException.class)
                .hasMessageStartingWith("servers.json is not valid JSON: ")
                .hasMessageContaining("at line 1, column ")
                .hasMessageEndingWith("; correct it there (JSON allows no comments or trailing commas, and takes strings in double"
                        + " quotes), e.g. {\"mcpServers\": {\"NAME\": {\"command\": \"...\", \"args\": [\"...\"]}}}.");
    }

    @Test
    void everyMistakeIsOneClearMessage() {
        assertThatThrownBy(() -> McpConfig.parse("{\"servers\": {}}", "servers.json", Map.of()))
                .hasMessageContaining("servers.json has no \"mcpServers\" object");
        assertThatThrownBy(() -> McpConfig.parse("{\"mcpServers\": {", "servers.json", Map.of()))
                .hasMessageContaining("servers.json is not valid JSON: ").hasMessageContaining("line 1, column ")
                .hasMessageNotContaining("[Source").hasMessageNotContaining("REDACTED");
        rejects("\"a\": {}", "MCP server 'a' needs \"command\"");
        rejects("\"a\": {\"command\": \"x\", \"url\": \"http://h\"}", "has both");
        rejects("\"a\": {\"command\": \"x\", \"comand\": 1}", "unknown key \"comand\"");
        rejects("\"a\": {\"command\": \"x\", \"risk\": \"dangerous\"}", "\"risk\" is \"dangerous\"; use \"read\", \"write\" or \"irreversible\"");
        rejects("\"a\": {\"command\": \"x\", \"timeout_seconds\": 0}", "\"timeout_seconds\" is 0");
        rejects("\"a\": {\"command\": \"x\", \"args\": \"-y\"}", "\"args\" must be an array of strings");
        rejects("\"a\": {\"command\": \"x\", \"env\": {\"K\": \"${MISSING}\"}}", "uses ${MISSING}, which is not set");
        rejects("\"a\": {\"url\": \"ftp://h\"}", "must start with http:// or https://");
        rejects("\"a\": {\"url\": \"http://h/sse\", \"type\": \"sse\"}", "SSE transport is not supported");
        rejects("\"a\": {\"command\": \"x\", \"trust\": \"yes\"}", "\"trust\" must be true or false");
        rejects("\"a\": {\"command\": \"x\", \"prefix\": \"a b\"}", "\"prefix\" is 'a b'");
        rejects("\"a b\": {\"command\": \"x\"}", "server name 'a b' is invalid");
        // The invisible character is shown as an escape, as every control and format character of an McpConfigException is.
        rejects("\"a\u200Bb\": {\"command\": \"x\"}", "server name 'a\\u200bb' is invalid; use 1-64 letters (of any script)");
    }

    @Test
    void aTimeoutTooLargeForANumberIsRefusedAsOneOutOfRange() {
        // 1e400 reads as an infinite double: before, 'internal error: java.lang.NumberFormatException: Infinite or NaN', exit 1.
        rejects("\"a\": {\"command\": \"x\", \"timeout_seconds\": 1e400}",
                "MCP server 'a' \"timeout_seconds\" is a number too large to read; give a number of seconds above 0 and at most 3600");
        rejects("\"a\": {\"command\": \"x\", \"timeout_seconds\": -1e400}", "\"timeout_seconds\" is a number too large to read; give a number");
    }

    @Test
    void anEmptyAllowListIsRefusedRatherThanOfferingEveryTool() {
        // "allow": when given, the only tools offered. Read as "no list", [] offered every tool of the server.
        rejects("\"a\": {\"command\": \"x\", \"allow\": []}", "MCP server 'a' has an empty \"allow\" list");
        rejects("\"a\": {\"command\": \"x\", \"allow\": []}", "\"disabled\": true");
    }

    @Test
    void aServerOrKeyWrittenTwiceIsRefusedNotTheLastOneSilentlyKept() {
        // JSON parsers keep the last of two equal keys: a second "fs" entry dropped the first (and its
        // "deny" list) without a word, as a second "deny" replaced the first.
        rejects("\"fs\": {\"command\": \"x\", \"deny\": [\"write_file\"]}, \"fs\": {\"command\": \"y\"}",
                "servers.json has the key \"fs\" twice in one object (line 1");
        rejects("\"fs\": {\"command\": \"x\", \"deny\": [\"write_file\"], \"deny\": []}",
                "servers.json has the key \"deny\" twice in one object (line 1");
        rejects("\"fs\": {\"command\": \"x\", \"deny\": [\"write_file\"], \"deny\": []}", "write each server and each key once");
    }

    @Test
    void disabledMustBeTrueOrFalse() {
        rejects("\"a\": {\"command\": \"x\", \"disabled\": \"yes\"}", "MCP server 'a' \"disabled\" must be true or false, was \"yes\"");
        rejects("\"a\": {\"command\": \"x\", \"disabled\": 1}", "\"disabled\" must be true or false, was 1");
        assertThat(parse("\"a\": {\"command\": \"x\", \"disabled\": false}").servers()).hasSize(1);
    }

    @Test
    void aTypeThatContradictsTheEntryIsRefused() {
        rejects("\"a\": {\"type\": \"http\", \"command\": \"x\"}",
                "MCP server 'a' has \"type\": \"http\" but \"command\"");
        rejects("\"a\": {\"type\": \"stdio\", \"url\": \"http://h/mcp\"}",
                "MCP server 'a' has \"type\": \"stdio\" but \"url\"");
        assertThat(parse("\"a\": {\"type\": \"streamable-http\", \"url\": \"http://h/mcp\"}, \"b\": {\"type\": \"stdio\", \"command\": \"x\"}")
                .servers()).hasSize(2);
    }

    @Test
    void aVariableNamedAsACredentialSubstitutedIntoAnArgumentIsASecretAndOtherArgumentsAreNot() {
        // Many servers' READMEs pass the key as an argument ("--api-key", "${API_KEY}"): masked as one in env
        // is. A path such as ${HOME} is not, or every file path in the server's results would be masked.
        McpConfig config = McpConfig.parse("{\"mcpServers\": {\"svc\": {\"command\": \"svc\", \"args\": [\"--api-key\","
                + " \"${SVC_API_KEY}\", \"--auth=${GH_TOKEN}\", \"--root\", \"${HOME}/work\"]}}}", "servers.json",
                Map.of("SVC_API_KEY", "sk-123456", "GH_TOKEN", "ghp_abcdef", "HOME", "/home/me"));
        McpServerConfig svc = config.servers().getFirst();
        assertThat(svc.secrets()).containsOnly(Map.entry("SVC_API_KEY", "sk-123456"), Map.entry("GH_TOKEN", "ghp_abcdef"));
        assertThat(((McpServerConfig.Stdio) svc.transport()).args()).containsExactly("--api-key", "sk-123456", "--auth=ghp_abcdef",
                "--root", "/home/me/work");
    }

    @Test
    void aValueWrittenLiterallyIntoEnvUnderANameThatMarksACredentialIsASecretAndOtherValuesAreNot() {
        // As servers' READMEs write it: "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "<token>"}. A path is not masked, or
        // every file path in the server's results would be; a value from ${VAR} keeps its variable's name.
        McpConfig config = McpConfig.parse("{\"mcpServers\": {\"gh\": {\"command\": \"gh-mcp\", \"env\": {"
                + "\"GITHUB_PERSONAL_ACCESS_TOKEN\": \"ghp_literal0123\", \"DB_PASSWORD\": \"hunter22\", \"API_KEY\": \"${GH_KEY}\","
                + " \"MEMORY_FILE_PATH\": \"/home/me/m.jsonl\", \"SHORT_TOKEN\": \"abc\", \"MAX_TOKENS\": \"4096\","
                + " \"AUTH_ENABLED\": \"true\", \"KEY_DIR\": \"/home/me/keys\"}}}}", "servers.json", Map.of("GH_KEY", "sk-from-env"));
        McpServerConfig gh = config.servers().getFirst();
        assertThat(gh.secrets()).containsOnly(Map.entry("mcp.gh.env.GITHUB_PERSONAL_ACCESS_TOKEN", "ghp_literal0123"),
                Map.entry("mcp.gh.env.DB_PASSWORD", "hunter22"), Map.entry("GH_KEY", "sk-from-env"));
    }

    @Test
    void aWrittenValueUnderANameThatOnlyDescribesACredentialIsNotMaskedInEveryResult() {
        // "AUTH_MODE": "browser" or "--auth-mode browser" would mask every "browser" the server writes; an author's name,
        // a key's name or a token endpoint's URL are not credentials either.
        McpConfig config = McpConfig.parse("{\"mcpServers\": {\"svc\": {\"command\": \"svc\", \"args\": [\"--auth-mode\","
                + " \"browser\", \"--token-url=https://auth.example.com/token\", \"--author\", \"Jane Doe\"], \"env\": {"
                + "\"AUTH_MODE\": \"browser\", \"GIT_AUTHOR_NAME\": \"Jane Doe\", \"API_KEY_NAME\": \"primary-key\","
                + " \"OAUTH_TOKEN_URL\": \"https://auth.example.com/token\", \"AUTH_TYPE\": \"bearer\", \"API_KEY\": \"sk-written-1\"}}}}",
                "servers.json", Map.of());
        assertThat(config.servers().getFirst().secrets().values()).containsExactly("sk-written-1");
    }

    @Test
    void aPersonalAccessTokenAndTheDatabasePasswordOfAUrlWrittenIntoEnvAreSecrets() {
        // "GITLAB_PAT" and a DATABASE_URL with its password, as servers' READMEs write them into env; PATH-like names stay shown.
        McpConfig config = McpConfig.parse("{\"mcpServers\": {\"db\": {\"command\": \"db-mcp\", \"env\": {"
                + "\"GITLAB_PAT\": \"glpat-literal0123\", \"DATABASE_URL\": \"postgresql://me:pw-literal-9@db:5432/notes\","
                + " \"NOTES_PATH\": \"/home/me/notes\", \"PUBLIC_URL\": \"https://example.com/notes\"}}}}", "servers.json", Map.of());
        assertThat(config.servers().getFirst().secrets().values()).containsExactlyInAnyOrder("glpat-literal0123", "pw-literal-9");
    }

    @Test
    void aCredentialWrittenLiterallyIntoArgsIsASecretAfterAFlagNamingOneOrAsAUrlsPassword() {
        // READMEs write "--api-key", "<key>" and "postgresql://user:password@host/db" into args as they are; before,
        // only a value from ${VAR} was a secret. Paths and other arguments stay shown.
        McpConfig config = McpConfig.parse("{\"mcpServers\": {\"svc\": {\"command\": \"svc\", \"args\": [\"-y\", \"@x/server\","
                + " \"--api-key\", \"sk-literal-1\", \"--auth-token=tok-literal-2\", \"postgresql://me:pw-literal-3@db/notes\","
                + " \"--root\", \"/home/me/work\", \"--key-file\", \"/home/me/key.pem\", \"--max-tokens\", \"4000\","
                + " \"--token\", \"${SVC_TOKEN}\"]}}}",
                "servers.json", Map.of("SVC_TOKEN", "tok-from-env"));
        McpServerConfig svc = config.servers().getFirst();
        assertThat(svc.secrets().values()).containsExactlyInAnyOrder("sk-literal-1", "tok-literal-2", "pw-literal-3", "tok-from-env");
        assertThat(svc.secrets()).containsEntry("SVC_TOKEN", "tok-from-env");
        assertThat(((McpServerConfig.Stdio) svc.transport()).args()).contains("sk-literal-1", "--auth-token=tok-literal-2");
    }

    @Test
    void aVariableSubstitutedIntoAUrlIsASecret() {
        // Some servers take their key in the URL (https://host/mcp?api_key=...): a token read from the
        // environment is masked wherever it could show, as one in a header is.
        McpConfig config = parse("\"web\": {\"url\": \"https://mcp.example.com/mcp?api_key=${TOKEN}\"}");
        McpServerConfig web = config.servers().getFirst();
        assertThat(web.secrets()).containsEntry("TOKEN", "s3cret-token");
        assertThat(web.transport().toString()).doesNotContain("s3cret-token");
    }

    @Test
    void aUrlWithoutAHostIsRefusedWhenReadAndNoMessageShowsAVariablesValue() {
        rejects("\"a\": {\"url\": \"http://\"}", "has an invalid \"url\": \"http://\"; write an http:// or https:// URL with a host");
        rejects("\"a\": {\"url\": \"http:///mcp\"}", "it needs a host");
        // java.net.URI reads no host in a name with '_', and the JDK client the SDK uses refuses it
        rejects("\"a\": {\"url\": \"http://mcp_server:3000/mcp\"}", "cannot address a host name with '_'");
        for (String url : new String[] {"ftp://h/${TOKEN}", "http://h/mcp?k=${TOKEN} x", "http://${TOKEN}_x/mcp"}) {
            assertThatThrownBy(() -> parse("\"a\": {\"url\": \"" + url + "\"}"))
                    .as(url)
                    .isInstanceOf(McpConfigException.class)
                    .hasMessageContaining("${TOKEN}")
                    .message().doesNotContain("s3cret-token");
        }
    }

    @Test
    void aVariableMayHaveADefault() {
        McpConfig config = McpConfig.parse("{\"mcpServers\": {\"a\": {\"command\": \"x\", \"args\": [\"${PORT:-8080}\"]}}}", "f", Map.of());
        assertThat(((McpServerConfig.Stdio) config.servers().getFirst().transport()).args()).containsExactly("8080");
    }

    @Test
    void aVariableSetToNothingIsSaidToBeEmptyNotUnset() {
        // Refused like an unset one (a token that is "" is no token), but the user did set it.
        assertThatThrownBy(() -> McpConfig.parse("{\"mcpServers\": {\"a\": {\"url\": \"https://h/mcp\","
                + " \"headers\": {\"Authorization\": \"Bearer ${TOKEN}\"}}}}", "f", Map.of("TOKEN", "")))
                .isInstanceOf(McpConfigException.class)
                .hasMessage("f: MCP server 'a' \"headers.Authorization\" uses ${TOKEN}, which is set but empty; set the environment"
                        + " variable TOKEN to a value or give a default as ${TOKEN:-value}");
        McpConfig config = McpConfig.parse("{\"mcpServers\": {\"a\": {\"command\": \"x\", \"args\": [\"${PORT:-8080}\"]}}}", "f",
                Map.of("PORT", ""));
        assertThat(((McpServerConfig.Stdio) config.servers().getFirst().transport()).args()).containsExactly("8080");
    }

    @Test
    void aHeaderOrEnvironmentVariableNoRequestOrProcessCanCarryIsRefusedWhenReadNamingItNotItsValue() {
        // Before, the server's start failed with the SDK's 'RuntimeException: Client failed to initialize by explicit API
        // call Caused by: IllegalArgumentException: invalid header name: "Bad Name"', or, for "A=B" in env, the hint to
        // check that the command runs from a shell.
        rejects("\"a\": {\"url\": \"https://h/mcp\", \"headers\": {\"Bad Name\": \"v\"}}",
                "MCP server 'a' \"headers\" has the name \"Bad Name\", which is not a valid HTTP header name");
        rejects("\"a\": {\"url\": \"https://h/mcp\", \"headers\": {\"Host\": \"h\"}}",
                "MCP server 'a' \"headers.Host\" is set by the HTTP client itself; remove it");
        assertThatThrownBy(() -> McpConfig.parse("{\"mcpServers\": {\"a\": {\"url\": \"https://h/mcp\","
                + " \"headers\": {\"Authorization\": \"Bearer ${TOKEN}\"}}}}", "f", Map.of("TOKEN", "tok-secret-1\n")))
                .isInstanceOf(McpConfigException.class)
                .hasMessage("f: MCP server 'a' \"headers.Authorization\" holds a line break or another control character (character 20"
                        + " of its value, after ${...} are replaced), which an HTTP header cannot carry; check the value (a token read from"
                        + " a file often ends in a line break)")
                .hasMessageNotContaining("tok-secret");
        rejects("\"a\": {\"url\": \"https://h/mcp\", \"headers\": {\"X-Key\": \"秘密\"}}",
                "\"headers.X-Key\" holds a character beyond Latin-1 (character 1 of its value");
        rejects("\"a\": {\"command\": \"x\", \"env\": {\"A=B\": \"v\"}}",
                "MCP server 'a' \"env\" has the name \"A=B\", which no environment variable can have (it is empty or holds '=')");
        rejects("\"a\": {\"command\": \"x\", \"env\": {\"\": \"v\"}}", "\"env\" has the name \"\", which no environment variable");
    }

    @Test
    void aHeaderTheProtocolGivesItsOwnValueIsRefusedWhenReadNotSentInPlaceOfIt() {
        // Configured headers replace the client's: "Accept": "application/json" (as in curl examples) dropped the
        // text/event-stream every POST must accept (servers answer 406), a fixed Mcp-Session-Id replaced the session's.
        for (String name : List.of("Accept", "content-type", "Mcp-Session-Id", "MCP-Protocol-Version", "Last-Event-ID")) {
            rejects("\"a\": {\"url\": \"https://h/mcp\", \"headers\": {\"" + name + "\": \"application/json\"}}",
                    "MCP server 'a' \"headers." + name + "\" is set by Rein itself, as the MCP transport requires; remove it");
        }
    }

    @Test
    void aVariableMayComeFromTheAgentsSecrets() {
        McpConfig config = McpConfig.parse("{\"mcpServers\": {\"a\": {\"url\": \"https://h/mcp\", \"headers\": {\"X-Key\": \"${API_TOKEN}\"}}}}",
                "f", Map.of(), dev.rein.tool.Secrets.of(Map.of("API_TOKEN", "from-secrets-123")));
        assertThat(((McpServerConfig.Http) config.servers().getFirst().transport()).headers()).containsEntry("X-Key", "from-secrets-123");
        assertThat(config.servers().getFirst().secrets()).containsEntry("API_TOKEN", "from-secrets-123");
    }

    @Test
    void riskIsSafeByDefault() {
        assertThat(McpRisk.derive(true, null)).isEqualTo(Risk.READ);
        assertThat(McpRisk.derive(true, true)).isEqualTo(Risk.READ);
        assertThat(McpRisk.derive(false, false)).isEqualTo(Risk.WRITE);
        assertThat(McpRisk.derive(null, false)).isEqualTo(Risk.WRITE);
        assertThat(McpRisk.derive(false, true)).isEqualTo(Risk.IRREVERSIBLE);
        assertThat(McpRisk.derive(false, null)).isEqualTo(Risk.IRREVERSIBLE);
        assertThat(McpRisk.derive(null, null)).isEqualTo(Risk.IRREVERSIBLE);
    }

    @Test
    void aMissingFileIsAClearError() {
        assertThatThrownBy(() -> McpConfig.load(Path.of("no/such/servers.json"), Map.of()))
                .hasMessageContaining("MCP servers file no/such/servers.json does not exist");
    }

    @Test
    void aFileSavedWithAByteOrderMarkIsRead(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        // Windows editors save "UTF-8 with BOM"; RFC 8259 lets a parser ignore it. It was 'is not valid JSON (line 1,
        // column 1): Unexpected character ('\uFEFF' (code 65279 / 0xfeff))', naming a character no editor shows.
        Path file = dir.resolve("servers.json");
        java.nio.file.Files.writeString(file, "\uFEFF{\"mcpServers\": {\"notes\": {\"command\": \"npx\"}}}",
                java.nio.charset.StandardCharsets.UTF_8);
        assertThat(McpConfig.load(file, Map.of()).servers()).extracting(McpServerConfig::name).containsExactly("notes");
    }

    @Test
    void anUnreadableFileIsSaidToBeSoWithWhatToDo(@org.junit.jupiter.api.io.TempDir Path dir) {
        // Tests run as root, where chmod does not deny reading: the message is built from the exception the JDK throws.
        // That exception's message is the path alone, so it was 'cannot read MCP servers file F: F'.
        Path file = dir.resolve("servers.json");
        String message = McpConfig.unreadable(file, new java.nio.file.AccessDeniedException(file.toString()));
        assertThat(message).contains("MCP servers file " + file).contains("permission denied")
                .contains("read permission").doesNotContain(file + ": " + file);
        String other = McpConfig.unreadable(file, new java.nio.file.FileSystemException(file.toString(), null, "Input/output error"));
        assertThat(other).isEqualTo("cannot read MCP servers file " + file + ": Input/output error");
    }

    @Test
    void aFolderGivenAsTheFileIsSaidToBeOne(@org.junit.jupiter.api.io.TempDir Path dir) {
        assertThatThrownBy(() -> McpConfig.load(dir, Map.of())).isInstanceOf(McpConfigException.class)
                .hasMessageContaining("MCP servers file " + dir + " is a folder, not a file")
                .hasMessageContaining("{\"mcpServers\": {...}}");
    }
}
