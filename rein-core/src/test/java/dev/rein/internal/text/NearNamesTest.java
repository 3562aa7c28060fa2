package dev.rein.internal.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
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
        // two edits of four letters is half the word: no near miss (before: "did you mean code or npc?", "... date?")
        assertThat(NearNames.unknown("example", "nope", List.of("code", "npc"), "see the list")).isEqualTo("unknown example 'nope';"
                + " see the list");
        assertThat(NearNames.unknown("command", "dxxe", NAMES, "see the list")).isEqualTo("unknown command 'dxxe'; see the list");
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

    /**
     * The distance with swaps is that of the full table it was computed with before it shared the stall detector's
     * banded one (EditDistance), on words of code units; a character outside the BMP is one edit now, not two.
     */
    @Property(tries = 2000)
    void theSharedTableGivesTheFullTablesDistance(@ForAll("words") String a, @ForAll("words") String b) {
        assertThat(NearNames.editDistance(a, b)).isEqualTo(fullTable(a, b));
    }

    @Test
    void aCharacterOutsideTheBasicPlaneIsOneEdit() {
        assertThat(NearNames.editDistance("😀un", "run")).isEqualTo(1);
        assertThat(NearNames.editDistance("ru😀n", "run")).isEqualTo(1);
    }

    @Provide
    Arbitrary<String> words() {
        return Arbitraries.strings().withChars("abcd東").ofMaxLength(9);
    }

    /** Optimal string alignment in a whole table, as NearNames computed it. */
    private static int fullTable(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
