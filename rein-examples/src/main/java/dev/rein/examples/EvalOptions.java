package dev.rein.examples;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.ReinException;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads the {@code options} of an example environment named in a suite file; unknown options are errors. */
public final class EvalOptions {
    private final String environment;
    private final JsonNode options;

    private EvalOptions(String environment, JsonNode options, Set<String> known) {
        this.environment = environment;
        this.options = options;
        for (Iterator<String> names = options.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!known.contains(name)) {
                throw new ReinException("environment '" + environment + "' has no option '" + name + "'; its options are "
                        + (known.isEmpty() ? "(none)" : String.join(", ", known.stream().sorted().toList())));
            }
        }
    }

    public static EvalOptions of(String environment, JsonNode options, String... known) {
        return new EvalOptions(environment, options == null ? dev.rein.json.Json.object() : options, Set.of(known));
    }

    /** A map of names to milliseconds, e.g. {@code delays_ms: {get_order: 5000}}; any name is taken (paths of a site). */
    public Map<String, Duration> durations(String option) {
        return durations(option, null);
    }

    /**
     * A map of tool names to milliseconds, each name one of {@code names}: a misspelt tool would be delayed in no call,
     * and a task meant to provoke a timeout would run without one.
     */
    public Map<String, Duration> durations(String option, Set<String> names) {
        Map<String, Duration> out = new LinkedHashMap<>();
        JsonNode node = options.path(option);
        if (node.isMissingNode()) {
            return out;
        }
        String example = (names == null || names.isEmpty() ? "get_order" : names.stream().sorted().findFirst().orElseThrow()) + ": 5000";
        if (!node.isObject()) {
            throw new ReinException("environment '" + environment + "': option " + option + " must map names to milliseconds, e.g. "
                    + option + ": {" + example + "}; was " + node);
        }
        node.fields().forEachRemaining(e -> {
            if (names != null && !names.contains(e.getKey())) {
                throw new ReinException("environment '" + environment + "': option " + option + " names '" + e.getKey()
                        + "', which is not one of its tools that can be delayed; give one of "
                        + String.join(", ", names.stream().sorted().toList()));
            }
            // a fraction (1.5) would be read as its whole part (1)
            JsonNode value = e.getValue();
            if (!value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < 0) {
                throw new ReinException("environment '" + environment + "': " + option + "." + e.getKey() + " must be a whole"
                        + " number of milliseconds, 0 or more, e.g. {" + e.getKey() + ": 5000}; was " + value);
            }
            out.put(e.getKey(), Duration.ofMillis(value.asLong()));
        });
        return out;
    }

    /** A number of milliseconds, or {@code fallback}. */
    public Duration millis(String option, Duration fallback) {
        JsonNode node = options.path(option);
        if (node.isMissingNode()) {
            return fallback;
        }
        // a fraction (1.5) would be read as its whole part (1), and 0.5 as 0
        if (!node.isIntegralNumber() || !node.canConvertToLong() || node.asLong() < 1) {
            throw new ReinException("environment '" + environment + "': option " + option + " must be a whole number of"
                    + " milliseconds, 1 or more, e.g. " + option + ": 2000; was " + node);
        }
        return Duration.ofMillis(node.asLong());
    }

    // An option of the wrong kind is an error rather than its default: the trial would run in a
    // world other than the one the file describes, and fail as the agent's fault.

    /** A map of names to text, e.g. {@code files: {path: content}}. */
    public Map<String, String> texts(String option) {
        Map<String, String> out = new LinkedHashMap<>();
        JsonNode node = options.path(option);
        if (node.isMissingNode()) {
            return out;
        }
        if (!node.isObject()) {
            throw new ReinException("environment '" + environment + "': option " + option + " must map paths to their text");
        }
        node.fields().forEachRemaining(e -> {
            if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                throw new ReinException("environment '" + environment + "': option " + option + " must map paths to their"
                        + " text; " + e.getKey() + " has none");
            }
            out.put(e.getKey(), e.getValue().asText());
        });
        return out;
    }

    /** A list of text, e.g. {@code traveller_items: [captain's pass]}. */
    public List<String> list(String option) {
        JsonNode node = options.path(option);
        if (node.isMissingNode()) {
            return List.of();
        }
        if (!node.isArray() || java.util.stream.StreamSupport.stream(node.spliterator(), false)
                .anyMatch(item -> !item.isValueNode() || item.isNull())) {
            throw new ReinException("environment '" + environment + "': option " + option + " must be a list of text, e.g. ["
                    + "a, b]");
        }
        return java.util.stream.StreamSupport.stream(node.spliterator(), false).map(JsonNode::asText).toList();
    }

    public boolean flag(String option, boolean fallback) {
        JsonNode node = options.path(option);
        if (node.isMissingNode()) {
            return fallback;
        }
        if (!node.isBoolean()) {
            throw new ReinException("environment '" + environment + "': option " + option + " must be true or false");
        }
        return node.asBoolean();
    }
}
