package dev.rein.tool;

import dev.rein.internal.secret.MaskedText;

/**
 * Outside text one of Rein's messages quotes in a fence (a scope policy's deny reason, the schema validator's or the
 * argument reader's message, argument text that is not JSON, an unknown tool's name), with every known secret masked
 * before the fence (or an excerpt) cuts it: masked after the cut, as the whole result is later, a secret across the cut
 * would keep its first part in clear, which no masking recognises any more. The masking and its audit are
 * {@link MaskedText#masked}'s, which the approval gate and the idempotency guard (outside this package) call too.
 */
final class MaskedQuote {
    private MaskedQuote() {}

    /**
     * {@code text} masked; a secret found is audited as a masked result is ({@code secret_masked}), since the masking of
     * the whole result no longer sees it. {@code what} names the text in the audit event ("the scope policy's deny reason"),
     * followed by the tool's name.
     */
    static String of(String text, ToolInvocation invocation, ToolEvents events, String what) {
        return of(text, invocation.context(), audit -> events.audit(invocation, "secret_masked", audit),
                what + " for tool '" + invocation.tool().name() + "'");
    }

    /**
     * {@code text} masked with the secrets {@code context} knows; {@code audit} is given the {@code secret_masked} detail
     * when a secret was found, {@code what} naming the text (for a call that has no tool, whose invocation cannot be made).
     */
    static String of(String text, ToolContext context, java.util.function.Consumer<String> audit, String what) {
        return MaskedText.masked(text, context.secrets().known(), what, audit);
    }
}
