package dev.rein.model;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** An immutable set of {@link ModelOption}s, at most one per option type. */
public final class ModelOptions {
    public static final ModelOptions NONE = new ModelOptions(Map.of());

    private final Map<Class<? extends ModelOption>, ModelOption> options;

    private ModelOptions(Map<Class<? extends ModelOption>, ModelOption> options) {
        this.options = options;
    }

    /** The given options; a later option replaces an earlier one of the same type. */
    public static ModelOptions of(Collection<? extends ModelOption> options) {
        ModelOptions result = NONE;
        for (ModelOption option : options) {
            result = result.with(option);
        }
        return result;
    }

    /** A copy with {@code option} added, replacing any option of the same type. */
    public ModelOptions with(ModelOption option) {
        if (option == null) {
            throw new dev.rein.ReinException("a model option was given as null: give the option, or leave it out");
        }
        Map<Class<? extends ModelOption>, ModelOption> copy = new LinkedHashMap<>(options);
        copy.put(option.getClass(), option);
        return new ModelOptions(java.util.Collections.unmodifiableMap(copy));
    }

    /** The option of type {@code type}, if set. */
    public <T extends ModelOption> Optional<T> get(Class<T> type) {
        // asked a dozen times per model call, mostly for an option not set: no Optional chain for those
        ModelOption option = options.get(type);
        return option == null ? Optional.empty() : Optional.of(type.cast(option));
    }

    /** All options, in the order they were first set. */
    public List<ModelOption> all() {
        return List.copyOf(options.values());
    }

    /**
     * Checks each option against {@code request} ({@link ModelOption#check}), in the order they were set.
     *
     * @throws dev.rein.ReinException from the first option that cannot work with the request's settings
     */
    public void check(ModelRequest request) {
        for (ModelOption option : options.values()) {
            option.check(request);
        }
    }

    /**
     * How traces show the options: by type name. {@link RewrittenHistory} is left out: the agent derives it from
     * settings whose effect the trace already shows (the messages), and a replay must not take it for a change. So is
     * {@link TraceContextHeaders}: a tracing stage sets new ones on every call, so a replay (whose requests are
     * compared with the recorded ones) would take every call for a change, and they are not part of what the model is
     * asked.
     */
    @com.fasterxml.jackson.annotation.JsonValue
    Map<String, ModelOption> byTypeName() {
        Map<String, ModelOption> named = new LinkedHashMap<>();
        options.forEach((type, option) -> {
            if (type != RewrittenHistory.class && type != TraceContextHeaders.class) {
                named.put(type.getSimpleName(), option);
            }
        });
        return named;
    }

    public boolean isEmpty() {
        return options.isEmpty();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ModelOptions other && options.equals(other.options);
    }

    @Override
    public int hashCode() {
        return options.hashCode();
    }

    @Override
    public String toString() {
        return "ModelOptions" + options.values();
    }
}
