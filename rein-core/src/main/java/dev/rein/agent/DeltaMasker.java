package dev.rein.agent;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.rein.tool.Secrets;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Masks secrets in a stream of text fragments, where a secret may be split across fragments: it
 * holds back the end of the text that could still be the start of a secret (one character less
 * than the longest secret) until the next fragment or the end of the stream decides it.
 *
 * <p>A masker of JSON text (streamed tool input) also masks a secret as JSON writes it inside a
 * string: with its quotes, backslashes and control characters escaped, and with every non-ASCII
 * character as a {@code \\u} escape (lower or upper case hex), since that is how the value appears
 * in the raw text before it is parsed.
 */
final class DeltaMasker {
    private final Supplier<Map<String, String>> secrets;
    private final boolean json;
    private final StringBuilder pending = new StringBuilder();

    DeltaMasker(Supplier<Map<String, String>> secrets) {
        this(secrets, false);
    }

    DeltaMasker(Supplier<Map<String, String>> secrets, boolean json) {
        this.secrets = secrets;
        this.json = json;
    }

    /** A masker for a stream of JSON text. */
    static DeltaMasker forJson(Supplier<Map<String, String>> secrets) {
        return new DeltaMasker(secrets, true);
    }

    /** The masked text that can be released after {@code fragment}; may be empty. */
    String accept(String fragment) {
        Map<String, String> known = secrets.get();
        if (known.isEmpty() && pending.isEmpty()) {
            return fragment;
        }
        pending.append(fragment);
        String masked = mask(pending.toString(), known);
        int hold = known.values().stream().mapToInt(v -> json ? longestForm(v) : v.length()).max().orElse(1) - 1;
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
        String rest = mask(pending.toString(), secrets.get());
        pending.setLength(0);
        return rest;
    }

    private String mask(String text, Map<String, String> known) {
        String masked = Secrets.mask(text, known);
        if (!json || masked.isEmpty() || known.isEmpty()) {
            return masked;
        }
        var byLength = known.entrySet().stream()
                .sorted(Comparator.comparingInt((Map.Entry<String, String> e) -> longestForm(e.getValue())).reversed())
                .toList();
        for (Map.Entry<String, String> secret : byLength) {
            if (secret.getValue().length() < Secrets.MIN_LENGTH) {
                continue;
            }
            for (String form : jsonForms(secret.getValue())) {
                if (masked.contains(form)) {
                    masked = masked.replace(form, "[REDACTED:" + secret.getKey() + "]");
                }
            }
        }
        return masked;
    }

    /** {@code value} as it can appear inside a JSON string: escaped, and with non-ASCII as \\u escapes. */
    static List<String> jsonForms(String value) {
        String escaped = new String(JsonStringEncoder.getInstance().quoteAsString(value));
        StringBuilder lower = new StringBuilder();
        StringBuilder upper = new StringBuilder();
        for (int i = 0; i < escaped.length(); i++) {
            char c = escaped.charAt(i);
            if (c > 0x7e) {
                String hex = String.format("\\u%04x", (int) c);
                lower.append(hex);
                upper.append(hex.substring(0, 2)).append(hex.substring(2).toUpperCase(java.util.Locale.ROOT));
            } else {
                lower.append(c);
                upper.append(c);
            }
        }
        return List.of(upper.toString(), lower.toString(), escaped).stream().distinct()
                .filter(form -> !form.equals(value)).toList();
    }

    private static int longestForm(String value) {
        return Math.max(value.length(), jsonForms(value).stream().mapToInt(String::length).max().orElse(0));
    }
}
