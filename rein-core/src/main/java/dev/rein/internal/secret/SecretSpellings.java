package dev.rein.internal.secret;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The spellings of secret values ({@link Masking#forms}), worked out once per value: masking asks
 * for them for every string of every trace event and every streamed fragment, and working them out
 * takes microseconds for a value with a {@code /} (most base64 keys).
 */
final class SecretSpellings {
    /**
     * Weak keys: a value's spellings are kept while something (the run's secrets) holds the value,
     * and no longer. The lists never hold the key itself (the value's own spelling is a copy), or
     * the entry could never be cleared.
     */
    private static final Map<String, List<String>> FORMS = Collections.synchronizedMap(new WeakHashMap<>());

    private SecretSpellings() {}

    /** {@link Masking#forms}{@code (value)}, longest first, the value's own spelling last. */
    static List<String> of(String value) {
        List<String> forms = FORMS.get(value);
        if (forms == null) {
            forms = Masking.forms(value).stream().map(form -> form.equals(value) ? new String(value) : form).toList();
            FORMS.put(value, forms);
        }
        return forms;
    }
}
