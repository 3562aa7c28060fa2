package dev.rein.agent;

import dev.rein.state.RunSnapshot;
import dev.rein.tool.Secrets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A run's secrets ({@link Secrets#tracking}), knowing from its start the values a lookup handed out before the run paused
 * ({@link RunSnapshot#secretsHandedOut()}), so that they are masked in what the resumed run sees, stores and traces.
 */
final class ResumedSecrets {
    private ResumedSecrets() {}

    /** {@code lookup} tracked; the values it hands out for {@code from}'s recorded names known at once (none for a new run). */
    static Secrets tracking(Secrets lookup, RunSnapshot from) {
        Map<String, String> resumed = new LinkedHashMap<>();
        if (from != null) {
            for (String name : from.secretsHandedOut()) {
                try {
                    // the lookup itself, not the tracked get: that refuses a name an older Rein handed out (one holding ']'),
                    // and a marker that may break is better than the value in clear
                    lookup.get(name).filter(value -> value.length() >= Secrets.MIN_LENGTH)
                            .ifPresent(value -> resumed.put(name, value));
                } catch (RuntimeException e) {
                    // a lookup that fails now leaves that value unmasked rather than failing the resume
                }
            }
        }
        if (resumed.isEmpty()) {
            return Secrets.tracking(lookup);
        }
        Map<String, String> handedOut = Collections.unmodifiableMap(resumed);
        return Secrets.tracking(new Secrets() {
            @Override
            public Optional<String> get(String name) {
                return lookup.get(name);
            }

            @Override
            public Map<String, String> known() {
                Map<String, String> fixed = lookup.known();
                if (fixed.isEmpty()) {
                    return handedOut;
                }
                Map<String, String> all = new LinkedHashMap<>(fixed);
                all.putAll(handedOut);
                return all;
            }
        });
    }
}
