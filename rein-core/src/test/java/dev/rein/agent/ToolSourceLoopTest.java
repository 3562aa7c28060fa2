package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ToolDefinition;
import dev.rein.model.ToolResultBlock;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolSource;
import dev.rein.trace.TraceEvent;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A tool source's changes reach a running agent at its next model request, through the same executor gate. */
class ToolSourceLoopTest {
    private static final String X_SCHEMA = "{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"string\"}},\"required\":[\"x\"]}";
    private static final String Y_SCHEMA = "{\"type\":\"object\",\"properties\":{\"y\":{\"type\":\"integer\"}},\"required\":[\"y\"],"
            + "\"additionalProperties\":false}";

    /** A source whose list the test swaps, counting how often it is read. */
    static final class Swappable implements ToolSource {
        private volatile List<Tool> tools;
        private volatile long version;
        final AtomicInteger reads = new AtomicInteger();

        Swappable(List<Tool> tools) {
            this.tools = tools;
        }

        void set(List<Tool> next) {
            tools = next;
            version++;
        }

        @Override
        public long version() {
            return version;
        }

        @Override
        public List<Tool> tools() {
            reads.incrementAndGet();
            return tools;
        }
    }

    private final AtomicInteger betaRuns = new AtomicInteger();
    private final AtomicInteger alphaRuns = new AtomicInteger();

    private Tool tool(String name, String schema, Risk risk, AtomicInteger runs) {
        return Tool.builder(name).description("The " + name + " tool.").inputSchema(schema).risk(risk)
                .handler((args, ctx) -> name + " ran " + runs.incrementAndGet()).build();
    }

    @Test
    void theNextRequestOffersTheCurrentToolsAndTheGateUsesThem() {
        Swappable source = new Swappable(List.of(tool("alpha", X_SCHEMA, Risk.READ, alphaRuns),
                tool("gamma", "{\"type\":\"object\"}", Risk.READ, new AtomicInteger())));
        Tool change = Tool.builder("change").description("Changes the tools.").handler((args, ctx) -> {
            source.set(List.of(tool("alpha", Y_SCHEMA, Risk.READ, alphaRuns), tool("beta", "{\"type\":\"object\"}", Risk.WRITE, betaRuns)));
            return "changed";
        }).build();
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("change", "{}")),
                toolCalls(call("gamma", "{}"), call("alpha", "{\"x\":\"old\"}")),
                toolCalls(call("alpha", "{\"y\":7}")),
                toolCalls(call("beta", "{}")),
                text("done"));
        RecordingListener trace = new RecordingListener();
        InMemoryRunStore store = new InMemoryRunStore();
        Agent agent = Agent.builder().model(model).tools(change).toolSource(source).store(store).listener(trace).build();
        int readsAtBuild = source.reads.get();

        RunResult paused = agent.run("change the tools, then use them");

        List<ModelRequest> requests = model.requests();
        assertThat(names(requests.get(0))).containsExactly("change", "alpha", "gamma");
        assertThat(names(requests.get(1))).containsExactly("change", "alpha", "beta");
        assertThat(requests.get(1).tools().get(1).inputSchema().path("required").get(0).asText()).isEqualTo("y");
        // the dropped tool is unknown now; the old arguments fail the new schema; neither handler ran
        List<ToolResultBlock> second = results(requests.get(2));
        assertThat(second.get(0).isError()).isTrue();
        assertThat(second.get(0).content()).contains("Unknown tool 'gamma'").contains("change, alpha, beta");
        assertThat(second.get(1).isError()).isTrue();
        assertThat(second.get(1).content()).contains("y");
        assertThat(results(requests.get(3)).get(0).content()).contains("alpha ran 1");
        // the new WRITE tool waits for a person like any other
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(paused.pendingApprovals()).singleElement().satisfies(r -> assertThat(r.tool()).isEqualTo("beta"));
        assertThat(betaRuns).hasValue(0);
        assertThat(trace.events(TraceEvent.Audit.class)).filteredOn(e -> e.kind().equals("tools_changed")).singleElement()
                .satisfies(e -> assertThat(e.detail()).contains("added: beta").contains("removed: gamma").contains("changed: alpha"));
        // read once when the run started and once after the change, not on every step
        assertThat(source.reads.get() - readsAtBuild).isEqualTo(2);

        agent.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "carol");
        RunResult done = agent.resume(paused.runId());
        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(betaRuns).hasValue(1);
    }

    @Test
    void aClashAtBuildFailsAndALaterClashIsLeftOutAndRecorded() {
        Tool fixed = tool("alpha", X_SCHEMA, Risk.READ, alphaRuns);
        assertThatThrownBy(() -> Agent.builder().model(ScriptedModel.of()).tools(fixed)
                .toolSource(new Swappable(List.of(tool("alpha", X_SCHEMA, Risk.READ, alphaRuns)))).build())
                .isInstanceOf(ReinException.class).hasMessageContaining("alpha");

        Swappable source = new Swappable(List.of());
        Tool change = Tool.builder("change").description("Changes the tools.").handler((args, ctx) -> {
            source.set(List.of(tool("change", "{\"type\":\"object\"}", Risk.IRREVERSIBLE, new AtomicInteger()),
                    tool("bad", "{\"type\":\"object\",\"properties\":5}", Risk.READ, new AtomicInteger())));
            return "changed";
        }).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("change", "{}")), text("done"));
        RecordingListener trace = new RecordingListener();
        RunResult result = Agent.builder().model(model).tools(change).toolSource(source).listener(trace).build().run("go");

        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(names(model.lastRequest())).containsExactly("change");
        assertThat(trace.events(TraceEvent.Audit.class)).filteredOn(e -> e.kind().equals("tools_changed")).singleElement()
                .satisfies(e -> assertThat(e.detail()).contains("'change' (a tool of that name is already offered)")
                        .contains("'bad'").contains("meta-schema"));
    }

    private static List<String> names(ModelRequest request) {
        return request.tools().stream().map(ToolDefinition::name).toList();
    }

    private static List<ToolResultBlock> results(ModelRequest request) {
        return request.messages().get(request.messages().size() - 1).content().stream()
                .filter(ToolResultBlock.class::isInstance).map(ToolResultBlock.class::cast).toList();
    }
}
