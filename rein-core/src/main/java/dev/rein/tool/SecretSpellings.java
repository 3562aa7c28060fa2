package dev.rein.tool;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The escaped spellings of secret values ({@link Secrets#forms} without the value itself), worked
 * out once per value: masking asks for them for every string of every trace event, and working
 * them out takes microseconds for a value with a {@code /} (most base64 keys).
 */
final class SecretSpellings {
    /**
     * Weak keys: a value's spellings are kept while something (the run's secrets) holds the value,
     * and no longer. The lists never hold the key itself, or the entry could never be cleared.
     */
    private static final Map<String, List<String>> ESCAPED = Collections.synchronizedMap(new WeakHashMap<>());

    private SecretSpellings() {}

    /** {@link Secrets#forms}{@code (value)} but {@code value}, longest first; empty for a value JSON writes as it is. */
    static List<String> escaped(String value) {
        List<String> escaped = ESCAPED.get(value);
        if (escaped == null) {
            escaped = Secrets.forms(value).stream().filter(form -> !form.equals(value)).toList();
            ESCAPED.put(value, escaped);
        }
        return escaped;
    }
}
