package dev.rein.agent;

import dev.rein.tool.Secrets;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Masks secrets in a stream of text fragments, where a secret may be split across fragments: it
 * holds back the end of the text that could still be the start of a secret (one character less
 * than the longest secret) until the next fragment or the end of the stream decides it, and with
 * it any whole secret that reaches into that end, since another secret may overlap it there. A
 * fragment never ends in the first half of a surrogate pair (a provider that cut its stream by
 * UTF-16 units, or escaped each half in a chunk of its own): that half waits for the next fragment,
 * since no UTF-8 writer can write it alone.
 */
final class DeltaMasker {
    private final Supplier<Map<String, String>> secrets;
    /** Text not released yet, as received: masking it only on release lets a later fragment complete an overlapping secret. */
    private final StringBuilder pending = new StringBuilder();

    DeltaMasker(Supplier<Map<String, String>> secrets) {
        this.secrets = secrets;
    }

    /** The masked text that can be released after {@code fragment}; may be empty. */
    String accept(String fragment) {
        Map<String, String> known = secrets.get();
        if (known.isEmpty() && pending.isEmpty() && !endsInHighSurrogate(fragment)) {
            return fragment;
        }
        pending.append(fragment);
        String raw = pending.toString();
        // The longest spelling Secrets.mask looks for (a value JSON-escaped in streamed tool input is longer).
        int hold = known.values().stream().mapToInt(v -> Secrets.spellings(v).get(0).length()).max().orElse(1) - 1;
        int cut = before(raw, Math.max(0, raw.length() - hold), known);
        if (cut > 0 && Character.isHighSurrogate(raw.charAt(cut - 1))) {
            cut--;
        }
        pending.setLength(0);
        pending.append(raw, cut, raw.length());
        return Secrets.mask(raw.substring(0, cut), known);
    }

    private static boolean endsInHighSurrogate(String text) {
        return !text.isEmpty() && Character.isHighSurrogate(text.charAt(text.length() - 1));
    }

    /**
     * {@code cut}, moved back to the start of any spelling of a secret that reaches past it: masked
     * now, it could no longer be masked together with a secret that overlaps its end.
     */
    private static int before(String raw, int cut, Map<String, String> known) {
        boolean moved = true;
        while (moved && cut > 0) {
            moved = false;
            for (String value : known.values()) {
                if (value.length() < Secrets.MIN_LENGTH) {
                    continue;
                }
                for (String form : Secrets.spellings(value)) {
                    int at = raw.indexOf(form, Math.max(0, cut - form.length() + 1));
                    if (at >= 0 && at < cut) {
                        cut = at;
                        moved = true;
                    }
                }
            }
        }
        return cut;
    }

    /** The rest of the text, masked, at the end of the stream (or before a non-text event). */
    String flush() {
        if (pending.isEmpty()) { // the common case: every text fragment ends the block's thinking, which held nothing
            return "";
        }
        String rest = Secrets.mask(pending.toString(), secrets.get());
        pending.setLength(0);
        return rest;
    }
}
