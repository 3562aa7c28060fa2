package dev.rein.internal.secret;

import java.util.Collections;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * A text with every known secret masked ({@link Masking#mask}), and the names of the secrets it held, for the
 * {@code secret_masked} audit event of whoever masked it: a tool's output, a rejection reason or deny reason before the
 * fence cuts it, the model's text. One place collects the names as masking finds the values (in any spelling it looks for).
 *
 * @param text    the masked text (null for a null text)
 * @param secrets the names of the secrets the text held, sorted; empty when nothing was masked
 */
public record MaskedText(String text, SortedSet<String> secrets) {
    public MaskedText {
        secrets = Collections.unmodifiableSortedSet(new TreeSet<>(secrets));
    }

    /** {@code text} masked with the {@code known} secrets (by name). */
    public static MaskedText of(String text, Map<String, String> known) {
        String masked = Masking.mask(text, known);
        return new MaskedText(masked, masked == null || masked.equals(text) ? new TreeSet<>() : namesIn(text, known));
    }

    /**
     * {@code text} masked with the {@code known} secrets, for a text one of Rein's messages quotes (masked before a fence
     * or an excerpt cuts it, which could leave part of a secret that the masking of the whole result no longer knows);
     * when it held a secret, {@code audit} is given the {@code secret_masked} detail, {@code what} naming the text ("the
     * rejection reason for tool 'x'"), since no later masking will see it. The one place the tool chain's stages (public
     * and internal) mask and audit a quote, so that every such event reads alike.
     */
    public static String masked(String text, Map<String, String> known, String what, Consumer<String> audit) {
        MaskedText masked = of(text, known);
        if (masked.found()) {
            audit.accept(masked.audited(what));
        }
        return masked.text();
    }

    /** The names of the {@code known} secrets that {@code text} holds in any spelling masking looks for, sorted. */
    public static SortedSet<String> namesIn(String text, Map<String, String> known) {
        SortedSet<String> names = new TreeSet<>();
        known.forEach((name, value) -> {
            if (Masking.forms(value).stream().anyMatch(text::contains)) {
                names.add(name);
            }
        });
        return names;
    }

    /** Whether a secret was masked. */
    public boolean found() {
        return !secrets.isEmpty();
    }

    /**
     * The {@code secret_masked} audit detail: {@code what} ("the rejection reason for tool 'x'") contained the secrets,
     * masked before the model or the trace saw them.
     */
    public String audited(String what) {
        return audited(what, secrets);
    }

    /**
     * The {@code secret_masked} audit detail: {@code what} contained the secrets named {@code names}, masked before the
     * model or the trace saw them. Every such detail is written here, so that they all read alike.
     */
    public static String audited(String what, SortedSet<String> names) {
        return audited(what, names, "the model or the trace");
    }

    /**
     * {@link #audited(String, SortedSet)} for a text masked before others than the model saw it: {@code seenBy} ("the
     * answer, the store or the trace") is what the masking came before.
     */
    public static String audited(String what, SortedSet<String> names, String seenBy) {
        return what + " contained the secret(s) " + names + "; they were masked before " + seenBy + " saw them";
    }
}
