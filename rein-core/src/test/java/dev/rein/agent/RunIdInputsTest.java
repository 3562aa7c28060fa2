package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.state.InMemoryRunStore;
import dev.rein.testkit.ScriptedModel;
import org.junit.jupiter.api.Test;

/**
 * A run id an application supplies (Agent.Builder.runIds) or passes (resume, reply, Runs): one that no store could keep
 * as it is is refused saying why, before anything runs or is looked up.
 */
class RunIdInputsTest {
    private static final String HALF = "run_荷物" + "😀".substring(0, 1);

    private static Agent agent(java.util.function.Supplier<String> ids) {
        return Agent.builder().model(ScriptedModel.of(text("done"))).store(new InMemoryRunStore()).runIds(ids).build();
    }

    /** Before: the run ran under a null id (its result said runId null) and the store failed to keep it. */
    @Test
    void aSupplierThatReturnsNullOrABlankIdIsRefused() {
        assertThatThrownBy(() -> agent(() -> null).run("go")).isInstanceOf(ReinException.class)
                .hasMessage("the run id supplier given to runIds(...) returned null: it must return a new, non-blank id for each run");
        assertThatThrownBy(() -> agent(() -> " ").run("go")).isInstanceOf(ReinException.class)
                .hasMessageContaining("returned a blank id");
    }

    /** Before: the run ran, and a database store, a trace file and OpenTelemetry kept the id with '?' in place of the half. */
    @Test
    void aSuppliedIdWithHalfASurrogatePairIsRefusedAndAWholeEmojiIsKept() {
        assertThatThrownBy(() -> agent(() -> HALF).run("go")).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("the run id supplier given to runIds(...) returned 'run_荷物\\ud83d', which cannot be a run's id:")
                .hasMessageContaining("half a UTF-16 surrogate pair (U+D83D alone, at character 6");
        assertThat(agent(() -> "run_荷物😀").run("go").runId()).isEqualTo("run_荷物😀");
    }

    /** Before: a database store looked the id up with '?' in place of the half, so it could find another run (run_荷物?). */
    @Test
    void aRunIdWithHalfASurrogatePairIsRefusedByResumeReplyAndRuns() {
        Agent agent = agent(() -> "run_1");
        assertThatThrownBy(() -> agent.resume(HALF)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("resume(...) was given run id 'run_荷物\\ud83d', which no run has:");
        assertThatThrownBy(() -> agent.reply(HALF, "次")).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("reply(...) was given run id 'run_荷物\\ud83d', which no run has:");
        assertThatThrownBy(() -> agent.runs().show(HALF)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("Runs was given run id 'run_荷物\\ud83d', which no run has:");
        assertThatThrownBy(() -> agent.runs().cancel(HALF, "x")).isInstanceOf(ReinException.class)
                .hasMessageContaining("half a UTF-16 surrogate pair");
    }

    /**
     * Before: a supplied id with a line break ran, and a log line quoting it (the store's warning that it could not keep a
     * trace event, 'run {} was cancelled ...') carried the break as it is: a forged second line.
     */
    @Test
    void aSuppliedIdWithAControlCharacterIsRefusedAndJapaneseIsKept() {
        assertThatThrownBy(() -> agent(() -> "run_1\nINFO forged").run("go")).isInstanceOf(ReinException.class)
                .hasMessage("the run id supplier given to runIds(...) returned 'run_1\\x0aINFO forged', which cannot be a run's id:"
                        + " it holds the control character U+000A (a line feed) at index 5, which a log line quoting the id would"
                        + " carry as it is and no file name or HTTP header can hold; return ids of whole characters and no control"
                        + " characters");
        assertThatThrownBy(() -> agent(() -> "run_\u001b[2J").run("go")).isInstanceOf(ReinException.class)
                .hasMessageContaining("U+001B (an escape) at index 4");
        assertThatThrownBy(() -> agent(() -> "run_\u0085").run("go")).isInstanceOf(ReinException.class)
                .hasMessageContaining("U+0085 at index 4");
        assertThat(agent(() -> "run_荷物 一").run("go").runId()).isEqualTo("run_荷物 一");
    }

    /**
     * Before: an id over 1,000 bytes of UTF-8 (the most the JDBC store indexes and Temporal takes) ran with the in-memory
     * store, and the JDBC store refused it only at the run's first save, so an agent ran or failed by its store.
     */
    @Test
    void aSuppliedIdOverOneThousandBytesOfUtf8IsRefusedAtTheStartNamingItsLength() {
        InMemoryRunStore store = new InMemoryRunStore();
        Agent agent = Agent.builder().model(ScriptedModel.of(text("done"))).store(store).runIds(() -> "run_" + "荷".repeat(333))
                .build();
        assertThatThrownBy(() -> agent.run("go")).isInstanceOf(ReinException.class)
                .hasMessage("the run id supplier given to runIds(...) returned 'run_" + "荷".repeat(36) + "…' (337 characters,"
                        + " 1003 bytes of UTF-8), longer than the 1000 bytes of UTF-8 a run id may have (the most the JDBC store"
                        + " indexes and Temporal takes): return shorter ids");
        assertThat(store.list()).isEmpty();
        assertThat(agent(() -> "run_" + "荷".repeat(332)).run("go").runId()).as("996 bytes").hasSize(336);
        assertThat(agent(() -> "r".repeat(1000)).run("go").runId()).hasSize(1000);
    }

    /**
     * Before: the limit was checked on every supplier, the replay's too (it takes the recorded run's id), so an older
     * recording whose run id is over 1,000 bytes (a store without the limit kept it) could no longer be replayed
     * ({@code rein replay}, {@code rein eval DIR}). A replay keeps its run in a store of its own: the limit is not its.
     */
    @Test
    void aRecordingWhoseRunIdIsOverTheLimitIsStillReplayed(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path trace = dir.resolve("run.jsonl");
        Agent.builder().model(ScriptedModel.of(text("done"))).runIds(() -> "run_short_1")
                .listener(dev.rein.trace.JsonlTraceListener.to(trace)).build().run("go");
        String longId = "run_" + "荷".repeat(333);
        java.nio.file.Files.writeString(trace, java.nio.file.Files.readString(trace).replace("run_short_1", longId));
        var report = dev.rein.replay.Replay.from(trace).replay(Agent.builder().model(ScriptedModel.of()).build());
        assertThat(report.reproduced()).isTrue();
        assertThat(report.result().runId()).isEqualTo(longId);
    }

    @Test
    void aRunIdWithAControlCharacterIsRefusedByResumeReplyAndRuns() {
        Agent agent = agent(() -> "run_1");
        assertThatThrownBy(() -> agent.resume("run_1\r")).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("resume(...) was given run id 'run_1\\x0d', which no run has: it holds the control"
                        + " character U+000D (a carriage return) at index 5");
        assertThatThrownBy(() -> agent.reply("run_1\t", "次")).isInstanceOf(ReinException.class)
                .hasMessageContaining("U+0009 (a tab)");
        // Runs looks such an id up (an older version saved runs under some: LegacyRunIdTest), said with its escapes
        assertThatThrownBy(() -> agent.runs().show("run_1\n")).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("there is no run 'run_1\\x0a' in the store");
        assertThatThrownBy(() -> agent.runs().approve("run_1\n", "a".repeat(64), "alice")).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("run 'run_1\\x0a' cannot be resumed, so no decision on it can be carried out:");
    }

    @Test
    void aDrivenRunIsNotBegunUnderAnIdWithAControlCharacter() {
        DrivenRun driven = new DrivenRun(agent(() -> "run_1"), new InMemoryRunStore());
        assertThatThrownBy(() -> driven.begin("run_1\n", "go")).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("begin(...) was given run id 'run_1\\x0a', which cannot be a run's id: it holds the"
                        + " control character U+000A (a line feed)");
    }

    /** Before: only Agent's start held a run id to the 1,000 bytes; an engine's begin(...) (rein-temporal) took any length. */
    @Test
    void aDrivenRunIsNotBegunUnderAnIdOverTheLimit() {
        InMemoryRunStore store = new InMemoryRunStore();
        DrivenRun driven = new DrivenRun(agent(() -> "run_1"), store);
        assertThatThrownBy(() -> driven.begin("run_" + "荷".repeat(333), "go")).isInstanceOf(ReinException.class)
                .hasMessage("begin(...) was given run id 'run_" + "荷".repeat(36) + "…' (337 characters, 1003 bytes of UTF-8),"
                        + " longer than the 1000 bytes of UTF-8 a run id may have (the most the JDBC store indexes and"
                        + " Temporal takes): give shorter ids");
        assertThat(store.list()).isEmpty();
        assertThat(driven.begin("r".repeat(1000), "go").runId()).hasSize(1000);
    }
}
