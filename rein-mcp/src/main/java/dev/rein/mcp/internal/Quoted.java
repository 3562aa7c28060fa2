package dev.rein.mcp.internal;

import dev.rein.internal.text.Controls;

/**
 * A server's tool and server names in the toolset's warnings, and its error messages in error results
 * ({@code ServerConnection.quoted}), as Rein quotes them: cut to a bound, saying so and how long they were, then their
 * control characters escaped ({@code \x1b}), so a caller printing or logging the message is not sent the server's
 * escape sequences (a retitle, a cleared screen, a bidi override). Other quotes of what a server sent are cut their
 * own way and only end in {@code …}: {@code StdioTransport.abbreviate} (a line of its output, an SDK's failure, on one
 * line, 200 characters) and {@code StderrTail} (its stderr); both escape control characters too.
 */
public final class Quoted {
    private Quoted() {
    }

    /**
     * {@code said} cut to its first {@code max} characters (code points, never half a pair), followed by
     * {@code … [Rein cut it to its first MAX of LENGTH characters]} when it was longer, control characters escaped.
     * Mask secrets before: a secret cut in two would no longer be found.
     */
    public static String of(String said, int max) {
        int length = said.codePointCount(0, said.length());
        return length <= max ? Controls.visible(said, false)
                : Controls.visible(said.substring(0, said.offsetByCodePoints(0, max)), false)
                + "… [Rein cut it to its first " + max + " of " + length + " characters]";
    }
}
