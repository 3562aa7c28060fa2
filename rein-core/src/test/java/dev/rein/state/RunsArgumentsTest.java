package dev.rein.state;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.json.Json;
import dev.rein.tool.Secrets;
import dev.rein.tool.ToolRegistry;
import java.time.Clock;
import org.junit.jupiter.api.Test;

/** Runs is made and called by application code: a missing store, clock or run id is a ReinException saying what to pass. */
class RunsArgumentsTest {
    private static final String HASH = "a".repeat(64);

    @Test
    void aMissingStoreOrClockIsRefusedWhenRunsIsMade() {
        // before, both were taken, and the first list() or decision threw a bare NullPointerException
        assertThatThrownBy(() -> Runs.in(null)).isInstanceOf(ReinException.class).hasMessageContaining("RunStore");
        assertThatThrownBy(() -> Runs.in(null, ToolRegistry.of(), Clock.systemUTC())).isInstanceOf(ReinException.class)
                .hasMessageContaining("RunStore");
        assertThatThrownBy(() -> Runs.in(new InMemoryRunStore(), ToolRegistry.of(), null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("Clock.systemUTC()");
        assertThatThrownBy(() -> Runs.in(new InMemoryRunStore(), ToolRegistry.of(), null, Secrets.NONE)).isInstanceOf(ReinException.class)
                .hasMessageContaining("Clock.systemUTC()");
    }

    @Test
    void aMissingRunIdIsRefusedSayingWhereToFindOne() {
        Runs runs = Runs.in(new InMemoryRunStore());
        for (org.assertj.core.api.ThrowableAssert.ThrowingCallable call : new org.assertj.core.api.ThrowableAssert.ThrowingCallable[] {
                () -> runs.find(null), () -> runs.show(null), () -> runs.pending(null), () -> runs.approve(null, HASH, "alice"),
                () -> runs.reject(null, HASH, "宛先が違います", "alice"), () -> runs.edit(null, HASH, Json.parse("{}"), "alice"),
                () -> runs.cancel(null, "x")}) {
            assertThatThrownBy(call).isInstanceOf(ReinException.class).hasMessageContaining("no run id")
                    .hasMessageContaining("Runs.list()");
        }
    }

    @Test
    void aDecisionWithoutWhoMadeItIsRefusedSayingWhatToPass() {
        // a null decidedBy was stored, and RunView showed the decision as made "by null"
        Runs runs = Runs.in(new InMemoryRunStore());
        for (String nobody : new String[] {null, " "}) {
            String expected = "was given no decidedBy (" + (nobody == null ? "null" : "blank")
                    + "): pass the name of the person deciding (\"alice\"); it is recorded with the decision";
            assertThatThrownBy(() -> runs.approve("run-1", HASH, nobody)).isInstanceOf(ReinException.class)
                    .hasMessage("approve(...) " + expected);
            assertThatThrownBy(() -> runs.reject("run-1", HASH, "宛先が違います", nobody)).isInstanceOf(ReinException.class)
                    .hasMessage("reject(...) " + expected);
            assertThatThrownBy(() -> runs.edit("run-1", HASH, Json.parse("{}"), nobody)).isInstanceOf(ReinException.class)
                    .hasMessage("edit(...) " + expected);
        }
    }
}
