package dev.rein.internal.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A fenced quote is cut at 500 characters, and an excerpt at its own limit; a masking marker ({@code [REDACTED:name]})
 * across the cut is left out whole, never shown in half ({@code [REDA...}) as if it were the text's.
 */
class FenceCutTest {
    private static final String MARKER = "[REDACTED:api_key]";

    @Test
    void aMarkerAcrossTheFencesCutIsLeftOutWholeAndCounted() {
        for (int before = Fence.MAX_QUOTED - MARKER.length() + 1; before < Fence.MAX_QUOTED; before++) {
            String text = "y".repeat(before) + MARKER + " tail";

            String quoted = Fence.quoted(text, "s");

            assertThat(quoted).as("marker from %d", before)
                    .contains("y".repeat(before) + "... (" + (MARKER.length() + 5) + " more characters cut)")
                    .doesNotContain("[RED");
        }
    }

    @Test
    void aMarkerEndingAtTheCutIsKeptWholeAndOneAfterItIsCutAsText() {
        String whole = "y".repeat(Fence.MAX_QUOTED - MARKER.length()) + MARKER + " tail";
        assertThat(Fence.quoted(whole, "s")).contains(MARKER + "... (5 more characters cut)");

        // no closing bracket after it: no marker, cut as any text
        String open = "y".repeat(495) + "[REDACTED:" + "z".repeat(20);
        assertThat(Fence.quoted(open, "s")).contains("y".repeat(495) + "[REDA... (25 more characters cut)");
    }

    @Test
    void anExcerptLeavesOutAMarkerItWouldSplit() {
        assertThat(Excerpts.first("y".repeat(95) + MARKER, 100)).isEqualTo("y".repeat(95) + "...");
        assertThat(Excerpts.first("y".repeat(80) + MARKER + "more", 100)).isEqualTo("y".repeat(80) + MARKER + "mo...");
        assertThat(Excerpts.end("short", 100)).isEqualTo(5);
    }
    private static String quotedBody(String text) {
        String q = Fence.quoted(text, "s");
        return q.substring(q.indexOf(">\n") + 2, q.indexOf("\n</untrusted_data>"));
    }

    @Test
    void aBracketFarAfterALookAlikeClosesNoMarkerAndAMarkerAtTheStartIsNeverAnEmptyQuote() {
        // a marker at 0 longer than the cut: cut as text, never an empty quote
        assertThat(quotedBody("[REDACTED:" + "n".repeat(600) + "] tail")).startsWith("[REDACTED:nnn").contains("more characters cut");
        assertThat(Excerpts.first("[REDACTED:" + "n".repeat(120) + "] tail", 100)).startsWith("[REDACTED:nnn").endsWith("...");
        // the text's own unclosed '[REDACTED:' early, a ']' long after: no marker, the quote is not blanked
        String fake = "ten chars " + "[REDACTED: is how we write it " + "z".repeat(600) + " [1]";
        assertThat(quotedBody(fake)).startsWith("ten chars [REDACTED: is how we write it zzz");
        String json = "{\"note\":\"[REDACTED:\",\"items\":[" + "1,".repeat(300) + "2]}";
        assertThat(Excerpts.first(json, 200)).hasSize(203).startsWith("{\"note\":\"[REDACTED:\",\"items\":[1,");
    }
}
