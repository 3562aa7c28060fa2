package dev.rein.mcp.internal;

import dev.rein.internal.text.Controls;

/**
 * A server's tool and server names in the toolset's warnings, and its error messages in error results
 * ({@code ServerConnection.quoted}), as Rein quotes them: cut to a bound, saying so and how long they were, then their
 * control characters escaped ({@code \x1b}), so a caller printing or logging the message is not sent the server's
 * escape sequences (a retitle, a cleared screen, a bidi override). Every other cut of what a server sent is made here
 * too, so each says how much was left out: {@code StdioTransport.abbreviate} (a message of its output quoted in an
 * error, an SDK's failure: on one line, 200 characters) and {@code StderrTail} (its stderr, 300 characters a line; the
 * lines of its stdout that were skipped, 200). What a server said is masked for secrets before it is cut, so a count is
 * of the masked text: a secret counts as its {@code [REDACTED:NAME]} marker.
 */
public final class Quoted {
    private Quoted() {
    }

    /**
     * {@code said} cut to its first {@code max} characters (code points, never half a pair, nor part of a grapheme
     * cluster: a flag or an emoji sequence is kept whole or left out, see {@link #clusterCut}), followed by
     * {@code … [Rein cut it to its first MAX of LENGTH characters]} when it was longer, control characters escaped.
     * Mask secrets before: a secret cut in two would no longer be found.
     */
    public static String of(String said, int max) {
        return of(said, max, 0, false);
    }

    /**
     * As {@link #of(String, int)}, for a line of a server's stdout as Rein read it ({@code StdioTransport.decode}), in
     * which each lone surrogate U+DC80 to U+DCFF stands for a byte that was not UTF-8 ({@link #forByte}) and is shown
     * {@code \xe9}; in any other text (a JSON value) such a surrogate came from a JSON escape and is shown as one.
     */
    static String ofLine(String said, int max) {
        return of(said, max, 0, true);
    }

    /**
     * As {@link #of(String, int)}, for the start of a text of which {@code dropped} more characters were read and not
     * kept (a stderr line past what its reader holds): they count in the length said.
     */
    static String of(String said, int max, long dropped) {
        return of(said, max, dropped, false);
    }

    private static String of(String said, int max, long dropped, boolean line) {
        int kept = said.codePointCount(0, said.length());
        long length = kept + dropped;
        if (length <= max) {
            return visible(said, line);
        }
        int at = clusterCut(said, said.offsetByCodePoints(0, Math.min(max, kept)));
        return cut(said.substring(0, at), said.codePointCount(0, at), length, line);
    }

    /**
     * Where to cut {@code text} at or before {@code at} (between code points) so that no grapheme cluster is split: a flag
     * (two regional indicators), an emoji sequence joined by U+200D or a letter and its combining marks cut in two shows
     * something the server did not send. The last cluster boundary up to {@code at}; {@code at} itself when the cluster
     * reaching past it is longer than the part kept (a letter under hundreds of combining marks), which no cut of that
     * length could show whole: left out, it took the characters before it that fit with it ({@code ab} and 300 marks was
     * shown {@code a}), and a first such cluster nothing at all. {@code text} should hold as many characters after
     * {@code at} as before it, so such a cluster is told from one that ends within them.
     */
    static int clusterCut(String text, int at) {
        if (at <= 0 || at >= text.length()) {
            return at;
        }
        int before = dev.rein.internal.text.Clusters.startOf(text, at);
        if (before == at || before <= 0) {
            return at;
        }
        // The cluster from before: kept whole or left out when it ends within as many characters as are kept, else cut.
        int kept = text.codePointCount(0, at);
        int window = before;
        for (int n = 0; n <= kept && window < text.length(); n++) {
            window += Character.charCount(text.codePointAt(window));
        }
        int end = before + dev.rein.internal.text.Clusters.firstEnd(text.substring(before, window));
        return text.codePointCount(before, end) > kept ? at : before;
    }

    /**
     * {@code shown}, the part kept of a text of {@code length} characters that stands for its first {@code first} (more
     * than it has when runs of whitespace were shown as one space), its control characters escaped, and the note of the cut:
     * {@code first N (shown on one line) of LENGTH} when the part shown stands for more characters than it has, since
     * "first 300" beside 200 characters shown reads as a miscount.
     */
    static String cut(String shown, long first, long length, boolean line) {
        String folded = first > shown.codePointCount(0, shown.length()) ? " (shown on one line)" : "";
        return visible(shown, line) + "… [Rein cut it to its first " + first + folded + " of " + length + " characters]";
    }

    /**
     * The character standing for byte {@code b} (0x80 to 0xff: every byte below is UTF-8) of a line that is not UTF-8:
     * U+DC80 to U+DCFF, a lone low surrogate, which no decoded UTF-8 holds alone (Python's "surrogateescape"). One
     * character for one byte, so a cut counts it as one; {@link #ofLine} shows it {@code \xff}, as a control character.
     */
    static char forByte(byte b) {
        return (char) (0xDC00 | (b & 0xFF));
    }

    /**
     * {@code text} with its control characters escaped ({@link Controls#visible}) and each lone surrogate, which is no
     * text (JSON allows one as an escape, and JSON writers refuse it raw), shown as its JSON escape (<code>&#92;udce9</code>); in a
     * {@code line} as read ({@link #ofLine}), one standing for a byte that was no UTF-8 ({@link #forByte}) as {@code \\xe9}.
     * Escaped after the cut, so a cut never splits an escape.
     */
    private static String visible(String text, boolean line) {
        return loneSurrogatesEscaped(Controls.visible(text, false), line);
    }

    /**
     * {@code text} with each lone surrogate written as its JSON escape (<code>&#92;udce9</code>): for a JSON text Rein wrote
     * again from what it read (a message of a batch), which holds one where the server wrote that escape, before it is
     * quoted as a line ({@link #ofLine}), where such a surrogate would stand for a byte that was no UTF-8.
     */
    static String jsonEscapes(String text) {
        return loneSurrogatesEscaped(text, false);
    }

    private static String loneSurrogatesEscaped(String controls, boolean line) {
        StringBuilder sb = null; // only for a text holding a lone surrogate
        for (int i = 0; i < controls.length(); i++) {
            char c = controls.charAt(i);
            boolean lone = Character.isHighSurrogate(c)
                    ? i + 1 == controls.length() || !Character.isLowSurrogate(controls.charAt(i + 1))
                    : Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(controls.charAt(i - 1)));
            if (lone && sb == null) {
                sb = new StringBuilder(controls.length() + 16).append(controls, 0, i);
            }
            if (lone) {
                sb.append(line && c >= 0xDC80 && c <= 0xDCFF ? String.format(java.util.Locale.ROOT, "\\x%02x", c & 0xFF)
                        : String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
            } else if (sb != null) {
                sb.append(c);
            }
        }
        return sb == null ? controls : sb.toString();
    }
}
