package dev.rein.tool;

import dev.rein.ReinException;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Secrets the executor hands to tool handlers. They never enter the model's context or the trace:
 * the executor masks every value it knows of in tool results, and the run masks them in every
 * trace event.
 *
 * <p>A secret is known once it is registered ({@link #of(Map)}) or handed out by {@link #get}
 * during the run. Values shorter than {@value #MIN_LENGTH} characters cannot be masked reliably and
 * are refused by {@link #of(Map)}.
 */
@FunctionalInterface
public interface Secrets {
    Secrets NONE = name -> Optional.empty();

    /** The shortest secret value that can be registered. */
    int MIN_LENGTH = 4;

    /** The secret called {@code name}, if one is registered. */
    Optional<String> get(String name);

    /**
     * The secret values known so far, by name, for masking. A fixed set knows all of its values; a
     * lookup function knows none until {@link #tracking(Secrets)} records what it hands out.
     */
    default Map<String, String> known() {
        return Map.of();
    }

    /** A fixed set of secrets. */
    static Secrets of(Map<String, String> values) {
        Map<String, String> copy = Map.copyOf(values);
        copy.forEach((name, value) -> {
            if (value.length() < MIN_LENGTH) {
                throw new ReinException("secret '" + name + "' is shorter than " + MIN_LENGTH
                        + " characters; a value that short cannot be masked in traces without masking ordinary text");
            }
        });
        return new Secrets() {
            @Override
            public Optional<String> get(String name) {
                return Optional.ofNullable(copy.get(name));
            }

            @Override
            public Map<String, String> known() {
                return copy;
            }
        };
    }

    /** Wraps {@code base} so that every value it hands out becomes known and is masked from then on. */
    static Secrets tracking(Secrets base) {
        Map<String, String> handedOut = new ConcurrentHashMap<>();
        return new Secrets() {
            @Override
            public Optional<String> get(String name) {
                Optional<String> value = base.get(name);
                value.filter(v -> v.length() >= MIN_LENGTH).ifPresent(v -> handedOut.put(name, v));
                return value;
            }

            @Override
            public Map<String, String> known() {
                Map<String, String> fixed = base.known();
                // Asked for every trace event, checkpoint and tool result: no copy while there is nothing to mask.
                if (handedOut.isEmpty() && fixed.isEmpty()) {
                    return Map.of();
                }
                Map<String, String> all = new LinkedHashMap<>(fixed);
                all.putAll(handedOut);
                return all;
            }
        };
    }

    /**
     * {@code text} with every value of {@code secrets} replaced by {@code [REDACTED:name]}. Longer
     * values are replaced first, so a secret that contains another is masked whole.
     */
    static String mask(String text, Map<String, String> secrets) {
        if (text == null || text.isEmpty() || secrets.isEmpty()) {
            return text;
        }
        String masked = text;
        var byLength = secrets.entrySet().stream()
                .sorted(Comparator.comparingInt((Map.Entry<String, String> e) -> e.getValue().length()).reversed())
                .toList();
        for (Map.Entry<String, String> secret : byLength) {
            if (secret.getValue().length() >= MIN_LENGTH && masked.contains(secret.getValue())) {
                masked = masked.replace(secret.getValue(), "[REDACTED:" + secret.getKey() + "]");
            }
        }
        return masked;
    }
}
