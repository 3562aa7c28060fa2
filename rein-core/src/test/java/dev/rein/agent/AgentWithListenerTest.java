package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.trace.RunListener;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.TraceEvent;
import org.junit.jupiter.api.Test;

class AgentWithListenerTest {
    @Test
    void aCopyReportsToTheExtraListenerAndTheOriginalIsUnchanged() {
        RecordingListener configured = new RecordingListener();
        RecordingListener extra = new RecordingListener();
        Agent agent = Agent.builder().model(ScriptedModel.of(ScriptedModel.text("one"), ScriptedModel.text("two")))
                .listener(configured).build();
        Agent recorded = agent.withListener(extra);

        assertThat(recorded.run("first").answer()).isEqualTo("one");
        assertThat(extra.events(TraceEvent.RunFinished.class)).hasSize(1);
        assertThat(configured.events(TraceEvent.RunFinished.class)).hasSize(1);

        assertThat(agent.run("second").answer()).isEqualTo("two");
        assertThat(extra.events(TraceEvent.RunFinished.class)).hasSize(1);
        assertThat(configured.events(TraceEvent.RunFinished.class)).hasSize(2);
        assertThat(agent.config().listeners()).hasSize(1);
        assertThat(recorded.config().listeners()).hasSize(2);
    }

    @Test
    void aListenerFactoryThatThrowsIsAConfigurationErrorAndTheListenersMadeBeforeItAreClosed() {
        AtomicBoolean closed = new AtomicBoolean();
        RunListener first = new RunListener() {
            @Override
            public void close() {
                closed.set(true);
            }
        };
        ScriptedModel model = ScriptedModel.of(ScriptedModel.text("done"));
        Agent agent = Agent.builder().model(model).listener(runId -> first).listener(runId -> {
            throw new IllegalStateException("no trace directory");
        }).build();
        assertThatThrownBy(() -> agent.run("go")).isInstanceOf(ReinException.class)
                .hasMessageContaining("listener").hasMessageContaining("no trace directory")
                .hasMessageContaining("not started");
        assertThat(closed).isTrue();
        assertThat(model.requests()).isEmpty();
    }

    /**
     * What fails after the listeners are made, before the run starts (here a tool source that cannot list its
     * tools), still closes them: a listener holding a file or an exporter's span is not left open.
     */
    @Test
    void theListenersAreClosedWhenTheRunFailsToStartAfterTheyWereMade() {
        AtomicBoolean closed = new AtomicBoolean();
        RunListener listener = new RunListener() {
            @Override
            public void close() {
                closed.set(true);
            }
        };
        java.util.concurrent.atomic.AtomicInteger listings = new java.util.concurrent.atomic.AtomicInteger();
        dev.rein.tool.ToolSource broken = new dev.rein.tool.ToolSource() {
            @Override
            public long version() {
                return 1;
            }

            @Override
            public java.util.List<dev.rein.tool.Tool> tools() {
                if (listings.getAndIncrement() > 0) { // the agent's build lists them once; the run's start fails
                    throw new IllegalStateException("the tool server is down");
                }
                return java.util.List.of();
            }
        };
        ScriptedModel model = ScriptedModel.of(ScriptedModel.text("done"));
        Agent agent = Agent.builder().model(model).toolSource(broken).listener(runId -> listener).build();
        assertThatThrownBy(() -> agent.run("go")).hasMessageContaining("the tool server is down");
        assertThat(closed).isTrue();
        assertThat(model.requests()).isEmpty();
    }

    /**
     * A factory that returns null for a run (one that traces only some runs: {@code id -> enabled ?
     * listener : null}) gives that run no listener of its own; the run and the other listeners go on
     * as usual, where the null listener's NullPointerException on the first event, thrown again by the
     * log line naming its class, escaped agent.run.
     */
    @Test
    void aListenerFactoryThatReturnsNullGivesTheRunNoListenerOfItsOwn() {
        RecordingListener other = new RecordingListener();
        ScriptedModel model = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("echo", "{\"text\":\"東京\"}")),
                ScriptedModel.text("done"));
        RunResult result = Agent.builder().model(model).tools(TestTools.echo()).listener(runId -> null).listener(other)
                .build().run("go");
        assertThat(result.status()).isEqualTo(dev.rein.run.RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("done");
        assertThat(other.events(TraceEvent.RunStarted.class)).hasSize(1);
        assertThat(other.events(TraceEvent.RunFinished.class)).hasSize(1);
        assertThat(other.streamedText()).contains("done");
    }

    @Test
    void aListenerThatThrowsAnErrorOnAParallelToolResultIsIgnoredNotTakenForACancel() {
        RunListener asserting = new RunListener() {
            @Override
            public void onEvent(dev.rein.trace.TraceEvent event) {
                if (event instanceof dev.rein.trace.TraceEvent.ToolCompleted) {
                    throw new AssertionError("a test's listener assertion");
                }
            }
        };
        ScriptedModel model = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("echo", "{\"text\":\"a\"}"),
                ScriptedModel.call("echo", "{\"text\":\"b\"}")), ScriptedModel.text("done"));
        RunResult result = Agent.builder().model(model).tools(TestTools.echo()).listener(runId -> asserting).build().run("go");
        assertThat(result.status()).isEqualTo(dev.rein.run.RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("done");
    }
    /**
     * A listener that throws an Error other than AssertionError (a StackOverflowError of a recursive
     * formatter, a NoClassDefFoundError of a missing exporter class) on every event, on streamed text and
     * on close is logged and ignored as the README says of a listener that throws, where it ended the run
     * FAILED/internal_error after its first event.
     */
    @Test
    void aListenerThatThrowsAnyErrorIsIgnoredAndTheRunGoesOn() {
        RunListener failing = new RunListener() {
            @Override
            public void onEvent(TraceEvent event) {
                throw new StackOverflowError("a recursive formatter");
            }

            @Override
            public void onTextDelta(String text) {
                throw new NoClassDefFoundError("io/example/Exporter");
            }

            @Override
            public void close() {
                throw new StackOverflowError("on close");
            }
        };
        RecordingListener other = new RecordingListener();
        ScriptedModel model = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("echo", "{\"text\":\"東京\"}")),
                ScriptedModel.text("done"));
        RunResult result = Agent.builder().model(model).tools(TestTools.echo()).listener(runId -> failing).listener(other)
                .build().run("go");
        assertThat(result.status()).isEqualTo(dev.rein.run.RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("done");
        assertThat(other.events(TraceEvent.RunFinished.class)).hasSize(1);
        assertThat(other.streamedText()).contains("done");
    }
    /**
     * A listener factory that throws an Error (a NoClassDefFoundError: an exporter's class missing from the
     * class path) stops the run before it starts as one that throws an exception does: agent.run throws a
     * ReinException saying why and the listeners already made are closed, where the bare Error escaped and
     * they were left open.
     */
    @Test
    void aListenerFactoryThatThrowsAnErrorIsAConfigurationErrorAndTheListenersMadeBeforeItAreClosed() {
        AtomicBoolean closed = new AtomicBoolean();
        RunListener first = new RunListener() {
            @Override
            public void close() {
                closed.set(true);
            }
        };
        ScriptedModel model = ScriptedModel.of(ScriptedModel.text("done"));
        Agent agent = Agent.builder().model(model).listener(runId -> first).listener(runId -> {
            throw new NoClassDefFoundError("io/opentelemetry/sdk/OpenTelemetrySdk");
        }).build();
        assertThatThrownBy(() -> agent.run("go")).isInstanceOf(ReinException.class)
                .hasMessageContaining("listener").hasMessageContaining("io/opentelemetry/sdk/OpenTelemetrySdk")
                .hasMessageContaining("not started");
        assertThat(closed).isTrue();
        assertThat(model.requests()).isEmpty();
    }
}
