package dev.rein.agent;

import dev.rein.tool.Secrets;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Masks secrets in a stream of text fragments, where a secret may be split across fragments: it
 * holds back the end of the text that could still be the start of a secret (one character less
 * than the longest secret) until the next fragment or the end of the stream decides it.
 */
final class DeltaMasker {
    private final Supplier<Map<String, String>> secrets;
    private final StringBuilder pending = new StringBuilder();

    DeltaMasker(Supplier<Map<String, String>> secrets) {
        this.secrets = secrets;
    }

    /** The masked text that can be released after {@code fragment}; may be empty. */
    String accept(String fragment) {
        Map<String, String> known = secrets.get();
        if (known.isEmpty() && pending.isEmpty()) {
            return fragment;
        }
        pending.append(fragment);
        String masked = Secrets.mask(pending.toString(), known);
        // The longest spelling Secrets.mask looks for (a value JSON-escaped in streamed tool input is longer).
        int hold = known.values().stream().mapToInt(v -> Secrets.forms(v).get(0).length()).max().orElse(1) - 1;
        int cut = Math.max(0, masked.length() - hold);
        if (cut > 0 && cut < masked.length() && Character.isHighSurrogate(masked.charAt(cut - 1))) {
            cut--;
        }
        pending.setLength(0);
        pending.append(masked, cut, masked.length());
        return masked.substring(0, cut);
    }

    /** The rest of the text, masked, at the end of the stream (or before a non-text event). */
    String flush() {
        String rest = Secrets.mask(pending.toString(), secrets.get());
        pending.setLength(0);
        return rest;
    }
}
