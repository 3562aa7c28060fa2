package dev.rein.tool;

import java.util.Map;
import java.util.TreeSet;

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
        Map<String, String> known = invocation.context().secrets().known();
        String masked = Secrets.mask(text, known);
        if (masked != null && !masked.equals(text)) {
            TreeSet<String> names = new TreeSet<>();
            known.forEach((name, value) -> {
                if (Secrets.forms(value).stream().anyMatch(text::contains)) {
                    names.add(name);
                }
            });
            events.audit(invocation, "secret_masked", what + " for tool '" + invocation.tool().name() + "' contained the"
                    + " secret(s) " + names + "; they were masked before the model or the trace saw them");
        }
        return masked;
    }
}
