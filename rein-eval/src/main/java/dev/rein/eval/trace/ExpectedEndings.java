package dev.rein.eval.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.ReinException;
import dev.rein.internal.text.FileProblems;
import dev.rein.json.Json;
import dev.rein.run.RunStatus;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The optional {@value TraceSuite#EXPECTATIONS} of a trace folder: endings that differ from the
 * recorded ones, by trace file name or {@code FILE#RUN_ID}, e.g.
 * {@code {"a.jsonl": {"status": "failed", "reason": "stalled", "allow_divergence": true}}}.
 */
final class ExpectedEndings {
    private static final Set<String> FIELDS = Set.of("status", "reason", "allow_divergence");
    private static final String EXAMPLE = "{\"a.jsonl\": {\"status\": \"failed\", \"reason\": \"stalled\"}}";

    /** One entry: each field null when the file leaves it to the recording. */
    record Ending(RunStatus status, String reason, Boolean allowDivergence) {}

    private final Path file;
    private final Map<String, Ending> endings;
    private final Set<String> used = new HashSet<>();

    private ExpectedEndings(Path file, Map<String, Ending> endings) {
        this.file = file;
        this.endings = endings;
    }

    /** The expectations file of {@code dir}; empty when there is none. */
    static ExpectedEndings of(Path dir) {
        Path file = dir.resolve(TraceSuite.EXPECTATIONS);
        // a link to a file that is gone is a file that cannot be read, not silently no expectations
        if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
            return new ExpectedEndings(file, Map.of());
        }
        if (Files.isDirectory(file)) {
            throw new ReinException(file + " is a folder, not a file: the expected endings of a trace folder are one JSON"
                    + " file, e.g. " + EXAMPLE + "; move the folder away");
        }
        JsonNode root;
        try {
            root = Json.mapper().readTree(Files.readString(file, StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            throw new ReinException(file + " is not valid JSON (line " + e.getLocation().getLineNr() + ", column "
                    + e.getLocation().getColumnNr() + "): " + reason(e) + "; write it as " + EXAMPLE);
        } catch (CharacterCodingException e) {
            throw new ReinException("cannot read " + file + ": it is not UTF-8 text; save it as UTF-8 or remove it");
        } catch (IOException e) {
            // the reason in words (permission denied, no such file), not the JDK's path-then-reason
            throw new ReinException("cannot read " + file + ": " + FileProblems.why(e) + "; make it a readable file or remove it");
        }
        if (root == null || !root.isObject()) {
            throw new ReinException(file + " must be a JSON object of expected endings by trace, e.g. " + EXAMPLE);
        }
        Map<String, Ending> endings = new LinkedHashMap<>();
        root.fields().forEachRemaining(e -> endings.put(e.getKey(), ending(file, e.getKey(), e.getValue())));
        return new ExpectedEndings(file, endings);
    }

    /**
     * Jackson's reason, positions it names inside it as lines and columns: its "[Source: REDACTED
     * (`StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION` disabled); ...]" reads as a masked secret.
     */
    private static String reason(JsonProcessingException e) {
        return String.valueOf(e.getOriginalMessage())
                .replaceAll("\\[Source: [^;\\]]*; line: (\\d+), column: (\\d+)]", "line $1, column $2");
    }

    private static Ending ending(Path file, String key, JsonNode value) {
        String at = file + ", at \"" + key + "\": ";
        if (!value.isObject()) {
            throw new ReinException(at + "expected an object with status, reason and/or allow_divergence, e.g. " + EXAMPLE);
        }
        for (String name : (Iterable<String>) value::fieldNames) {
            if (!FIELDS.contains(name)) {
                throw new ReinException(at + "unknown field \"" + name + "\"; the fields are status, reason, allow_divergence");
            }
        }
        RunStatus status = null;
        if (value.has("status")) {
            String text = value.get("status").asText().toUpperCase(Locale.ROOT);
            try {
                status = RunStatus.valueOf(text);
            } catch (IllegalArgumentException e) {
                throw new ReinException(at + "status \"" + value.get("status").asText() + "\" is not a run status; use one of "
                        + Arrays.stream(RunStatus.values()).map(s -> s.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", ")));
            }
        }
        if (value.has("reason") && !value.get("reason").isTextual()) {
            throw new ReinException(at + "reason must be a string such as \"stalled\"");
        }
        if (value.has("allow_divergence") && !value.get("allow_divergence").isBoolean()) {
            throw new ReinException(at + "allow_divergence must be true or false");
        }
        return new Ending(status, value.has("reason") ? value.get("reason").asText() : null,
                value.has("allow_divergence") ? value.get("allow_divergence").asBoolean() : null);
    }

    /** The entry for run {@code runId} of {@code trace}: its own, else the trace's, else null. */
    Ending forRun(String trace, String runId) {
        String runKey = trace + "#" + runId;
        if (endings.containsKey(runKey)) {
            used.add(runKey);
            return endings.get(runKey);
        }
        if (endings.containsKey(trace)) {
            used.add(trace);
            return endings.get(trace);
        }
        return null;
    }

    /** Refuses entries that named no trace or run of the folder: a typo must not silently expect nothing. */
    void requireAllUsed(List<String> traces) {
        for (String key : endings.keySet()) {
            if (!used.contains(key)) {
                throw new ReinException(file + " names \"" + key + "\", which is no trace (or FILE#RUN_ID of a run) in the folder;"
                        + " the traces are: " + String.join(", ", traces));
            }
        }
    }
}
