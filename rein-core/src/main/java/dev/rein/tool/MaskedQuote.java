package dev.rein.tool;

import dev.rein.internal.secret.MaskedText;

/**
 * Outside text one of Rein's messages quotes in a fence (a scope policy's deny reason), with every known secret masked
 * before the fence cuts it at 500 characters: masked after the cut, as the whole result is later, a secret across the
 * cut would keep its first part in clear, which no masking recognises any more.
 */
final class MaskedQuote {
    private MaskedQuote() {}

    /**
     * {@code text} masked; a secret found is audited as a masked result is ({@code secret_masked}), since the masking of
     * the whole result no longer sees it. {@code what} names the text in the audit event ("the scope policy's deny reason").
     */
    static String of(String text, ToolInvocation invocation, ToolEvents events, String what) {
        MaskedText masked = MaskedText.of(text, invocation.context().secrets().known());
        if (masked.found()) {
            events.audit(invocation, "secret_masked", masked.audited(what + " for tool '" + invocation.tool().name() + "'"));
        }
        return masked.text();
    }
}
