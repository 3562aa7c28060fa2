package dev.rein.mcp;

import static dev.rein.mcp.McpTesting.toolResults;
import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.json.Json;
import dev.rein.model.ToolResultBlock;
import dev.rein.state.InMemoryRunStore;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolContext;
import dev.rein.tool.ToolOutput;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Faults no real server shows on demand, from an SDK-built server inside the test JVM. */
class FaultyServerTest {
    private final FaultyServers servers = new FaultyServers();

    @Test
    void aCrashMidCallIsAnErrorResultAndTheServerIsRestartedAtTheNextCall() throws Exception {
        try (McpToolset mcp = start("")) {
            ToolOutput crashed = invoke(mcp, "crash");
            assertThat(crashed.isError()).isTrue();
            assertThat(crashed.content()).contains("MCP server 'faulty'", "tool 'crash'", "exit code 137", "simulated crash");
            ToolOutput echoed = invoke(mcp, "echo");
            assertThat(echoed.isError()).isFalse();
            assertThat(echoed.content()).isEqualTo("echo: hi");
            assertThat(servers.started).hasSize(2);
            assertThat(servers.started.getFirst().ended()).isTrue();
        }
        assertThat(servers.started).allMatch(InJvmServer::ended);
    }

    @Test
    void aHangingCallTimesOutThroughTheExecutorAndTheNextCallGetsAFreshServer() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("hang", "{}")), toolCalls(call("echo", "{\"text\": \"again\"}")), text("ok"));
        try (McpToolset mcp = start(", \"timeout_seconds\": 0.5")) {
            RunResult result = Agent.builder().model(model).tools(mcp.tools()).build().run("hang then echo");
            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            List<ToolResultBlock> results = toolResults(model.lastRequest());
            assertThat(results.get(0).isError()).isTrue();
            assertThat(results.get(0).content()).contains("hang").containsIgnoringCase("time");
            assertThat(results.get(1).isError()).isFalse();
            assertThat(results.get(1).content()).contains("echo: again");
        }
    }

    @Test
    void aMalformedMessageIsAnErrorResultAtOnce() throws Exception {
        try (McpToolset mcp = start("")) {
            Instant before = Instant.now();
            ToolOutput broken = invoke(mcp, "garbage");
            assertThat(broken.isError()).isTrue();
            assertThat(broken.content()).contains("not a JSON-RPC message: 'this is not json {'");
            assertThat(Duration.between(before, Instant.now())).isLessThan(McpServerConfig.DEFAULT_TIMEOUT);
            assertThat(invoke(mcp, "echo").content()).isEqualTo("echo: hi");
        }
    }

    @Test
    void aDescriptionClaimingPreApprovalChangesNothing() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("delete_everything", "{}")), text("done"));
        try (McpToolset mcp = start("")) {
            McpToolInfo info = mcp.describe().stream().filter(t -> t.name().equals("delete_everything")).findFirst().orElseThrow();
            assertThat(info.risk()).isEqualTo(Risk.IRREVERSIBLE);
            assertThat(info.description()).isEqualTo(FaultyServers.PRE_APPROVED);
            RunResult result = Agent.builder().model(model).tools(mcp.tools()).store(new InMemoryRunStore()).build().run("clean up");
            assertThat(result.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
            assertThat(servers.deletes).hasValue(0);
        }
    }

    @Test
    void aLooserOverrideNeedsTrust() {
        assertThatThrownBy(() -> start(", \"risk\": {\"delete_everything\": \"read\"}"))
                .isInstanceOf(McpConfigException.class)
                .hasMessageContaining("'read' for tool 'delete_everything' is less strict than its annotations give (irreversible)")
                .hasMessageContaining("\"trust\": true");
        try (McpToolset trusted = start(", \"risk\": {\"delete_everything\": \"read\"}, \"trust\": true")) {
            assertThat(tool(trusted, "delete_everything").risk()).isEqualTo(Risk.READ);
        }
        try (McpToolset stricter = start(", \"risk\": \"irreversible\"")) {
            assertThat(tool(stricter, "echo").risk()).isEqualTo(Risk.IRREVERSIBLE);
        }
    }

    @Test
    void allowDenyScopeAndPrefixShapeTheTools() {
        try (McpToolset mcp = start(", \"allow\": [\"echo\", \"hang\"], \"deny\": [\"hang\"], \"scope\": \"faulty:use\", \"prefix\": \"f_\"")) {
            assertThat(mcp.tools()).extracting(Tool::name).containsExactly("f_echo");
            assertThat(tool(mcp, "f_echo").requiredScopes()).containsExactly("faulty:use");
            assertThat(mcp.describe().getFirst().mcpName()).isEqualTo("echo");
        }
        assertThatThrownBy(() -> start(", \"allow\": [\"ecko\"]")).isInstanceOf(McpConfigException.class)
                .hasMessageContaining("has no tool named 'ecko'");
    }

    @Test
    void aToolListChangeIsPickedUp() throws Exception {
        try (McpToolset mcp = start("")) {
            assertThat(mcp.describe()).extracting(McpToolInfo::name).doesNotContain("late_tool");
            invoke(mcp, "add_tool");
            Instant until = Instant.now().plusSeconds(10);
            while (mcp.describe().stream().noneMatch(t -> t.name().equals("late_tool")) && Instant.now().isBefore(until)) {
                Thread.sleep(20);
            }
            assertThat(mcp.describe()).extracting(McpToolInfo::name).contains("late_tool", "echo");
            assertThat(invoke(mcp, "late_tool").content()).isEqualTo("late");
        }
    }

    @Test
    void twoServersWithTheSameToolNameNeedAPrefix() {
        String entry = "{\"command\": \"in-jvm\"}";
        McpConfig config = McpConfig.parse("{\"mcpServers\": {\"one\": " + entry + ", \"two\": " + entry + "}}", "test", Map.of());
        assertThatThrownBy(() -> McpToolset.start(config, servers.launcher())).isInstanceOf(McpConfigException.class)
                .hasMessageContaining("MCP servers 'one' and 'two' both offer a tool named 'echo'")
                .hasMessageContaining("\"prefix\": \"two_\"");
        assertThat(servers.started).allMatch(InJvmServer::ended);
    }

    @Test
    void everyPageOfTheToolListIsRead() throws Exception {
        try (McpToolset mcp = McpToolset.start(McpTesting.config("paged", "\"command\": \"in-jvm\""), stdio -> new PagedServer())) {
            assertThat(mcp.tools()).extracting(Tool::name).containsExactly("one", "two", "three", "four");
            assertThat(invoke(mcp, "four").content()).isEqualTo("called four");
        }
    }

    private McpToolset start(String extraKeys) {
        return McpToolset.start(McpTesting.config("faulty", "\"command\": \"in-jvm\"" + extraKeys), servers.launcher());
    }

    private static Tool tool(McpToolset mcp, String name) {
        return mcp.tools().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
    }

    private static ToolOutput invoke(McpToolset mcp, String name) throws Exception {
        JsonNode args = Json.parse("{\"text\": \"hi\"}");
        return (ToolOutput) tool(mcp, name).handler().handle(args, ToolContext.standalone("c-" + name));
    }
}
