package dev.rein.tool;

import java.util.Map;
import java.util.Optional;

/**
 * Secrets the executor hands to tool handlers. They never enter the model's context or the trace.
 */
@FunctionalInterface
public interface Secrets {
    Secrets NONE = name -> Optional.empty();

    /** The secret called {@code name}, if one is registered. */
    Optional<String> get(String name);

    static Secrets of(Map<String, String> values) {
        Map<String, String> copy = Map.copyOf(values);
        return name -> Optional.ofNullable(copy.get(name));
    }
}
