package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.state.Handoff;
import dev.rein.testkit.RecordingListener;
import dev.rein.trace.TraceEvent;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The probes' one comparison: an agent's run on Temporal (the in-process test server) against the same agent's run in
 * process, field by field, each named in a failure. The status, reason, answer and steps are always compared; what else
 * a probe compares it names ({@link Also}).
 */
final class SameAsLocal {
    private SameAsLocal() {}

    /** A run's result and the trace its listener recorded. */
    record Ran(RunResult result, RecordingListener trace) {}

    /** What a probe compares besides the status, reason, answer and steps. */
    enum Also {
        MESSAGE, USAGE, COST, HISTORY, FINISH,
        /** the handoff as a person reads it (its facts' observation times are each run's own) */
        HANDOFF,
        /** the kinds of the interventions traced, in order */
        INTERVENTIONS,
        /** the types of all trace events, in order */
        TRACE_EVENTS
    }

    /** Runs {@code agent} (made with the listener it is to trace to) in process. */
    static Ran local(Function<RecordingListener, Agent> agent, String goal) {
        RecordingListener trace = new RecordingListener();
        return new Ran(agent.apply(trace).run(goal), trace);
    }

    /** Runs {@code agent} on a test server of its own as {@code runId}, until it ends. */
    static Ran onTemporal(Function<RecordingListener, Agent> agent, String goal, String runId) {
        RecordingListener trace = new RecordingListener();
        try (TemporalTestServer server = new TemporalTestServer()) {
            return new Ran(server.start(agent.apply(trace)).start(goal, runId).result(), trace);
        }
    }

    /**
     * Runs {@code agent} in process and on Temporal (two agents made by {@code agent}, so nothing is shared between
     * the runs), compares them as {@link #assertSameAsLocal(Ran, Ran, Also...)} does, and returns the run on Temporal.
     */
    static Ran assertSameAsLocal(Function<RecordingListener, Agent> agent, String goal, String runId, Also... also) {
        Ran local = local(agent, goal);
        Ran remote = onTemporal(agent, goal, runId);
        assertSameAsLocal(remote, local, also);
        return remote;
    }

    /** Asserts that {@code remote} ended as {@code local} did: status, reason, answer, steps, and {@code also}. */
    static void assertSameAsLocal(Ran remote, Ran local, Also... also) {
        RunResult r = remote.result();
        RunResult l = local.result();
        Set<Also> more = also.length == 0 ? Set.of() : Set.of(also);
        assertThat(r.status()).as("status").isEqualTo(l.status());
        assertThat(r.reason()).as("reason").isEqualTo(l.reason());
        if (more.contains(Also.MESSAGE)) {
            assertThat(r.message()).as("message").isEqualTo(l.message());
        }
        assertThat(r.answer()).as("answer").isEqualTo(l.answer());
        if (more.contains(Also.FINISH)) {
            assertThat(r.finish()).as("finish report").isEqualTo(l.finish());
        }
        assertThat(r.steps()).as("steps").isEqualTo(l.steps());
        if (more.contains(Also.USAGE)) {
            assertThat(r.usage()).as("usage").isEqualTo(l.usage());
        }
        if (more.contains(Also.COST)) {
            assertThat(r.costUsd()).as("cost").isEqualByComparingTo(l.costUsd());
        }
        if (more.contains(Also.HISTORY)) {
            assertThat(r.history()).as("history").isEqualTo(l.history());
        }
        if (more.contains(Also.HANDOFF)) {
            assertThat(r.handoff().map(SameAsLocal::shown)).as("handoff").isEqualTo(l.handoff().map(SameAsLocal::shown));
        }
        if (more.contains(Also.INTERVENTIONS)) {
            assertThat(interventions(remote)).as("interventions").isEqualTo(interventions(local));
        }
        if (more.contains(Also.TRACE_EVENTS)) {
            assertThat(eventTypes(remote)).as("trace events").isEqualTo(eventTypes(local));
        }
    }

    private static List<String> interventions(Ran run) {
        return run.trace().events(TraceEvent.Intervention.class).stream().map(TraceEvent.Intervention::kind).toList();
    }

    private static List<String> eventTypes(Ran run) {
        return run.trace().events(TraceEvent.class).stream().map(e -> e.getClass().getSimpleName()).toList();
    }

    private static List<Object> shown(Handoff h) {
        return List.of(h.reason(), h.question(), h.summary(), h.facts().stream().map(f -> f.text()).toList(),
                h.openQuestions(), h.hypotheses(), h.attemptedActions());
    }
}
