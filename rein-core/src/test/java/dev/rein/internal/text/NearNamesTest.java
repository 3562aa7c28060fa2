package dev.rein.internal.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The one "did you mean" rule of the rein command and the examples' library entry points. */
class NearNamesTest {
    private static final List<String> NAMES = List.of("run", "runs", "demo", "date", "orders");

    @Test
    void namesWithinOneOrTwoEditsAreSuggestedNearestFirst() {
        assertThat(NearNames.unknown("command", "runn", NAMES, "x")).isEqualTo("unknown command 'runn'; did you mean run or runs?");
        assertThat(NearNames.unknown("command", "dmeo", NAMES, "x")).isEqualTo("unknown command 'dmeo'; did you mean demo?");
        assertThat(NearNames.unknown("example", " Ordres ", NAMES, "x")).isEqualTo("unknown example ' Ordres '; did you mean orders?");
    }

    @Test
    void aShortWordGetsOneEditAndAFarWordTheList() {
        assertThat(NearNames.unknown("command", "rxx", NAMES, "the commands are: a, b")).isEqualTo("unknown command 'rxx';"
                + " the commands are: a, b");
        assertThat(NearNames.unknown("command", "frobnicate", NAMES, "see the list")).endsWith("; see the list");
    }

    @Test
    void controlCharactersInTheWordAreShownAsEscapes() {
        assertThat(NearNames.unknown("example", "\u001b[2Jdate", NAMES, "x")).startsWith("unknown example '\\x1b[2Jdate';");
    }

    @Test
    void aSwapOfNeighboursIsOneEdit() {
        assertThat(NearNames.editDistance("rnu", "run")).isEqualTo(1);
        assertThat(NearNames.editDistance("kitten", "sitting")).isEqualTo(3);
    }
}
