package dev.rein.provider;

/**
 * Text made fit for a request body. Half a UTF-16 surrogate pair has no UTF-8 form, yet it reaches
 * requests from outside: a tool that cut a string in the middle of an emoji, an MCP server whose
 * JSON escaped a lone {@code \ud83d}. A JSON writer then refuses the request, or writes the escape,
 * which strict servers refuse; since the text stays in the history, every later request of the run
 * would fail too.
 *
 * <p>For provider modules: write each string of a request through {@link #wellFormed} once, when
 * its wire form is made (a {@link WireCache} keeps it), so the check costs nothing on later requests.
 */
public final class WireText {
    private WireText() {}

    /**
     * {@code text} with each unpaired surrogate replaced by U+FFFD, as a UTF-8 decoder reads a bad
     * byte; whole pairs (emoji) pass unchanged. The same instance when there is nothing to replace.
     */
    public static String wellFormed(String text) {
        StringBuilder out = null;
        for (int i = 0, n = text.length(); i < n; i++) {
            char c = text.charAt(i);
            if (!Character.isSurrogate(c)) {
                if (out != null) {
                    out.append(c);
                }
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(text.charAt(i + 1))) {
                if (out != null) {
                    out.append(c).append(text.charAt(i + 1));
                }
                i++;
            } else {
                if (out == null) {
                    out = new StringBuilder(n).append(text, 0, i);
                }
                out.append('\uFFFD');
            }
        }
        return out == null ? text : out.toString();
    }
}
