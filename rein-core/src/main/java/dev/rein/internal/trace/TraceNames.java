package dev.rein.internal.trace;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import dev.rein.trace.TraceEvent;
import java.util.HashMap;
import java.util.Map;

/** The JSONL type name of each trace event, read from its Jackson mapping so the two never differ. */
public final class TraceNames {
    private static final Map<Class<?>, String> NAMES = names();

    private TraceNames() {}

    /** {@code event}'s type name in the trace ({@code model_response}); its class's simple name if it has none. */
    public static String of(TraceEvent event) {
        return NAMES.getOrDefault(event.getClass(), event.getClass().getSimpleName());
    }

    private static Map<Class<?>, String> names() {
        Map<Class<?>, String> names = new HashMap<>();
        for (JsonSubTypes.Type type : TraceEvent.class.getAnnotation(JsonSubTypes.class).value()) {
            names.put(type.value(), type.name());
        }
        return Map.copyOf(names);
    }
}
