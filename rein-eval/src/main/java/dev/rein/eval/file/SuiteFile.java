package dev.rein.eval.file;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.rein.ReinException;
import dev.rein.eval.Environment;
import dev.rein.eval.Suite;
import dev.rein.eval.Task;
import dev.rein.eval.TaskCategory;
import dev.rein.json.Json;
import dev.rein.testkit.ScriptedModel;
import dev.rein.internal.text.FileProblems;
import dev.rein.eval.internal.TaskIds;
import dev.rein.internal.text.RunIds;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.yaml.snakeyaml.error.Mark;

/**
 * Loads a suite from a YAML ({@code .yaml}, {@code .yml}) or JSON ({@code .json}) file. The file
 * names environments, toolsets, checks and agents registered in an {@link EvalRegistry}, and
 * carries a scripted-model script per task, so an offline suite is fully declarative. Every
 * problem is reported as a {@link ReinException} naming the place in the file.
 */
public final class SuiteFile {
    private static final ObjectMapper YAML = YAMLMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT) // trials: 1.5 is a mistake, not 1
            .build();
    private static final ObjectMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT) // trials: 1.5 is a mistake, not 1
            .build();

    private static final Pattern DUPLICATE = Pattern.compile("Duplicate field '([^']*)'");

    /** The syntax of a suite file. */
    public enum Format { YAML, JSON }

    /**
     * The next step of an error that finds no suite in the file at all (not YAML or JSON, or not a mapping): where it
     * is, alone, did not say what the file should be.
     */
    private static final String WHAT_A_SUITE_IS = "; a suite file is a YAML mapping (or JSON object) with suite: NAME and"
            + " tasks: [...], each task with an id and a goal: see 'Suite files' in docs/eval.md, or start from"
            + " docs/eval-suite-example.yaml";

    private SuiteFile() {}

    /** Loads {@code file}; its extension picks the syntax. */
    public static Suite load(Path file, EvalRegistry registry) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
        Format format;
        if (name.endsWith(".yaml") || name.endsWith(".yml")) {
            format = Format.YAML;
        } else if (name.endsWith(".json")) {
            format = Format.JSON;
        } else {
            throw new ReinException("cannot tell the format of suite file " + file + ": name it .yaml, .yml or .json");
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ReinException("suite file not found: " + file.toAbsolutePath() + "; give the path of a suite file (YAML or JSON,"
                    + " see docs/eval.md)");
        } catch (CharacterCodingException e) {
            throw new ReinException("suite file " + file + " is not UTF-8 text; save it as UTF-8");
        } catch (IOException e) {
            // the reason in words (a file on the way, permission denied), not the JDK's path-then-reason
            throw new ReinException("cannot read suite file " + file + ": " + FileProblems.why(e) + "; give the path of a"
                    + " suite file (YAML or JSON, see docs/eval.md)");
        }
        return parse(text, format, file.toString(), registry);
    }

    /** Parses suite text; {@code source} names it in error messages. */
    public static Suite parse(String text, Format format, String source, EvalRegistry registry) {
        // a byte order mark (Windows editors save UTF-8 with one) is no part of the text; YAML skips it, JSON's parser would not
        String body = text.startsWith("\uFEFF") ? text.substring(1) : text;
        SuiteSpec spec = empty(body, format) ? null : bind(body, format, source);
        if (spec == null) {
            // the binder's words for no content were 'wrong kind of value: expected a mapping of fields'
            throw new ReinException("suite file " + source + " is empty: give at least suite: NAME and tasks: [...] (see"
                    + " docs/eval.md)");
        }
        try {
            return build(spec, source, registry, format);
        } catch (ReinException e) {
            throw placed(e, text, format, source);
        }
    }

    /** True when the text holds no value at all (nothing, blank lines, comments only, or a lone null). */
    private static boolean empty(String text, Format format) {
        try (JsonParser parser = (format == Format.YAML ? new YAMLFactory() : new JsonFactory()).createParser(text)) {
            JsonToken first = parser.nextToken();
            return first == null || first == JsonToken.VALUE_NULL && parser.nextToken() == null;
        } catch (IOException e) {
            return false; // not valid YAML or JSON: binding says what and where
        }
    }

    private static Suite build(SuiteSpec spec, String source, EvalRegistry registry, Format format) {
        if (spec.suite() == null || spec.suite().isBlank()) {
            throw new ReinException(source + ": the suite needs a name (suite: ...)");
        }
        if (spec.tasks() == null || spec.tasks().isEmpty()) {
            throw new ReinException(source + ": the suite has no tasks; list them under tasks:, each with an id and a goal"
                    + " (and a script to run offline); docs/eval-suite-example.yaml is a suite to start from (format:"
                    + " docs/eval.md)");
        }
        Suite.Builder suite = Suite.builder(spec.suite()).description(spec.description());
        if (spec.trials() != null) {
            // checked here as well as by the builder, whose words name neither the file nor the field
            if (spec.trials() < 1) {
                throw new ReinException(source + ": trials must be at least 1, was " + spec.trials());
            }
            suite.trials(spec.trials());
        }
        Map<String, Integer> ids = new HashMap<>();
        for (int i = 0; i < spec.tasks().size(); i++) {
            SuiteSpec.TaskSpec task = spec.tasks().get(i);
            // the id as every message shows it: a line feed or an escape in it would reach the terminal or the log
            String where = source + ": tasks[" + i + "]"
                    + (task != null && task.id() != null ? " (" + RunIds.shown(task.id()) + ")" : "");
            if (task == null) {
                throw new ReinException(where + " is empty: give each task an id and a goal (- id: release-date, goal: ...)");
            }
            if (task.id() == null || task.id().isBlank()) {
                // the builder's words were "task id 'null' is invalid"
                throw new ReinException(where + " has no id: give every task a unique id, such as id: release-date");
            }
            if (task.goal() == null || task.goal().isBlank()) {
                throw new ReinException(where + " has no goal: give the text the agent is asked to work on (goal: ...)");
            }
            // ids that differ only in case are one trace file where case is ignored (macOS, Windows): one trial's lost
            // an id not in NFC is refused as such by the task below, not as meeting its composed form
            Integer earlier = ids.putIfAbsent(TaskIds.problem(task.id()) == null ? TaskIds.caseKey(task.id()) : task.id(), i);
            String other = earlier == null ? null : spec.tasks().get(earlier).id();
            if (other != null && other.equals(task.id())) {
                throw new ReinException(where + ": another task has the id '" + RunIds.shown(task.id()) + "' (tasks["
                        + earlier + "]); task ids must be unique");
            }
            if (other != null) {
                throw new ReinException(where + ": its id differs only in case from '" + RunIds.shown(other) + "' (tasks["
                        + earlier + "]), one trace file on a file system that ignores case (macOS, Windows); task ids must"
                        + " be unique ignoring case");
            }
            suite.task(task(spec, task, registry, where, source, format));
        }
        return suite.build();
    }

    private static SuiteSpec bind(String text, Format format, String source) {
        try {
            return (format == Format.YAML ? YAML : JSON).readValue(text, SuiteSpec.class);
        } catch (JsonMappingException e) {
            String path = e.getPath().stream().map(ref -> ref.getFieldName() != null ? "." + ref.getFieldName()
                    : "[" + ref.getIndex() + "]").collect(Collectors.joining()).replaceFirst("^\\.", "");
            Matcher duplicate = DUPLICATE.matcher(String.valueOf(e.getOriginalMessage()));
            if (duplicate.lookingAt()) {
                throw duplicateField(duplicate.group(1), e.getPath(), e.getLocation(), text, format, source);
            }
            String tooLarge = numberOutOfRange(e, e.getPath(), format);
            if (tooLarge != null) {
                throw new ReinException(source + (path.isEmpty() ? "" : ", at " + path) + location(e.getLocation()) + ": " + tooLarge);
            }
            String syntax = syntaxProblem(e, format);
            if (syntax != null) {
                throw new ReinException(source + (path.isEmpty() ? "" : ", at " + path) + syntax + WHAT_A_SUITE_IS);
            }
            // Jackson places an unknown field of a record where the record's mapping ends: find its name instead
            JsonLocation where = e instanceof UnrecognizedPropertyException ? fieldName(text, format, e.getPath()) : null;
            // the whole file of the wrong kind (a list, a line of text) is no suite at all; a field's says what it takes
            boolean noSuite = path.isEmpty() && e instanceof MismatchedInputException;
            throw new ReinException(source + (path.isEmpty() ? "" : ", at " + path)
                    + location(where != null ? where : e.getLocation()) + ": " + mappingProblem(e)
                    + (noSuite ? WHAT_A_SUITE_IS : example(e, format)));
        } catch (JsonProcessingException e) {
            Matcher duplicate = DUPLICATE.matcher(String.valueOf(e.getOriginalMessage()));
            if (duplicate.lookingAt() && e.getProcessor() instanceof JsonParser parser) {
                List<JsonMappingException.Reference> container = new ArrayList<>();
                for (JsonStreamContext c = parser.getParsingContext().getParent(); c != null && !c.inRoot(); c = c.getParent()) {
                    container.add(0, c.inArray() ? new JsonMappingException.Reference(null, c.getCurrentIndex())
                            : new JsonMappingException.Reference(null, c.getCurrentName()));
                }
                throw duplicateField(duplicate.group(1), container, e.getLocation(), text, format, source);
            }
            String syntax = syntaxProblem(e, format);
            throw new ReinException(source + (syntax != null ? syntax
                    : location(e.getLocation()) + ": not valid " + format + ": " + e.getOriginalMessage()) + WHAT_A_SUITE_IS);
        }
    }

    /**
     * Why the text is not YAML or JSON and where, as " (line L, column C): not valid YAML: ...", or
     * null when {@code e} is no syntax error. SnakeYAML's message leads with what it was parsing
     * ("while parsing a flow sequence") and puts the cause on a later line after an echo of the text,
     * so its first line said nothing of what was wrong; Jackson's names its position inside the
     * message as "[Source: REDACTED ...]", which reads as a masked secret.
     */
    private static String syntaxProblem(Throwable e, Format format) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof org.yaml.snakeyaml.error.MarkedYAMLException yaml && yaml.getProblem() != null) {
                Mark at = yaml.getProblemMark() != null ? yaml.getProblemMark() : yaml.getContextMark();
                Mark context = yaml.getContextMark();
                return (at == null ? "" : " (line " + (at.getLine() + 1) + ", column " + (at.getColumn() + 1) + ")")
                        + ": not valid YAML: " + yaml.getProblem()
                        + (yaml.getContext() == null ? "" : " (" + yaml.getContext()
                        + (context == null ? "" : " at line " + (context.getLine() + 1) + ", column " + (context.getColumn() + 1)) + ")");
            }
            if (format == Format.JSON && cause instanceof StreamReadException json) {
                String reason = JACKSON_SOURCE.matcher(String.valueOf(json.getOriginalMessage())).replaceAll("line $1, column $2");
                return location(json.getLocation()) + ": not valid JSON: " + reason;
            }
        }
        return null;
    }

    /** Where Jackson names a position inside its message, e.g. the start of an array that is not closed. */
    private static final Pattern JACKSON_SOURCE = Pattern.compile("\\[Source: [^;\\]]*; line: (\\d+), column: (\\d+)]");

    /**
     * A field given twice in one mapping: the keys of a mapping are unique (YAML 1.2), and taking the
     * last one, as a parser does by default, would drop the first without a word.
     */
    private static ReinException duplicateField(String name, List<JsonMappingException.Reference> container,
                                                JsonLocation fallback, String text, Format format, String source) {
        List<JsonMappingException.Reference> field = new ArrayList<>(container);
        field.add(new JsonMappingException.Reference(null, name));
        String path = field.stream().map(ref -> ref.getFieldName() != null ? "." + ref.getFieldName()
                : "[" + ref.getIndex() + "]").collect(Collectors.joining()).replaceFirst("^\\.", "");
        JsonLocation second = fieldName(text, format, field);
        return new ReinException(source + ", at " + path + location(second != null ? second : fallback) + ": the field '"
                + name + "' is given twice; merge the two into one");
    }

    /**
     * Where the field name at {@code path} starts in {@code text} (its last occurrence, for a field
     * given twice), or null when it cannot be found.
     */
    private static JsonLocation fieldName(String text, Format format, List<JsonMappingException.Reference> path) {
        StringBuilder pointer = new StringBuilder();
        for (JsonMappingException.Reference ref : path) {
            pointer.append('/').append(ref.getFieldName() != null
                    ? ref.getFieldName().replace("~", "~0").replace("/", "~1") : String.valueOf(ref.getIndex()));
        }
        String wanted = pointer.toString();
        JsonLocation found = null;
        // plain factories: the mappers' duplicate detection would stop at the second occurrence
        try (JsonParser parser = (format == Format.YAML ? new YAMLFactory() : new JsonFactory()).createParser(text)) {
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                if (token == JsonToken.FIELD_NAME && parser.getParsingContext().pathAsPointer().toString().equals(wanted)) {
                    found = parser.currentTokenLocation();
                }
            }
        } catch (IOException e) {
            return found; // the text parsed once already; without the name's place the caller keeps Jackson's
        }
        return found;
    }

    private static final Pattern OUT_OF_RANGE = Pattern.compile("Numeric value \\(([^)]*)\\) out of range");

    /**
     * For a whole number too large for its field (trials: 99999999999999): that, the most the field takes and an example,
     * in place of Jackson's "Numeric value (...) out of range of int (-2147483648 - 2147483647)", which names a Java type
     * and a range of negative numbers no field takes. Null for another error.
     */
    private static String numberOutOfRange(Throwable e, List<JsonMappingException.Reference> path, Format format) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof com.fasterxml.jackson.core.exc.InputCoercionException coercion) {
                Matcher number = OUT_OF_RANGE.matcher(String.valueOf(coercion.getOriginalMessage()));
                Class<?> type = coercion.getTargetType();
                if (!number.lookingAt() || type == null) {
                    return null;
                }
                boolean small = type == Integer.class || type == int.class;
                if (number.group(1).startsWith("-")) {
                    // "at most 2147483647" named the wrong end: the least the field takes, as its own check says it
                    String field = path.isEmpty() ? null : path.getLast().getFieldName();
                    long least = field != null && LEAST.containsKey(field) ? LEAST.get(field)
                            : small ? Integer.MIN_VALUE : Long.MIN_VALUE;
                    return "the number " + number.group(1) + " is too small: give a whole number of at least " + least
                            + example(path, format);
                }
                long most = small ? Integer.MAX_VALUE : Long.MAX_VALUE;
                return "the number " + number.group(1) + " is too large: give a whole number of at most " + most
                        + example(path, format);
            }
        }
        return null;
    }

    /**
     * The least whole number each numeric field takes, as the checks after binding say it (trials, timeout_ms, an agent's
     * or an expectation's max_steps ... "must be at least 1"; a turn's delay_ms and usage counts at least 0).
     */
    private static final Map<String, Long> LEAST = Map.ofEntries(
            Map.entry("trials", 1L), Map.entry("timeout_ms", 1L), Map.entry("max_steps", 1L), Map.entry("max_seconds", 1L),
            Map.entry("tool_timeout_ms", 1L), Map.entry("max_tokens", 1L), Map.entry("delay_ms", 0L),
            Map.entry("input_tokens", 0L), Map.entry("output_tokens", 0L), Map.entry("cache_read_input_tokens", 0L),
            Map.entry("cache_write_input_tokens", 0L));

    /** What is wrong, in the suite file's terms: Jackson's own messages name Java classes, which mean nothing to its author. */
    private static String mappingProblem(JsonMappingException e) {
        if (e instanceof UnrecognizedPropertyException unknown) {
            List<String> known = unknown.getKnownPropertyIds().stream().map(String::valueOf).sorted().toList();
            return "unknown field '" + unknown.getPropertyName() + "'" + (known.isEmpty() ? "" : "; known fields here: "
                    + String.join(", ", known));
        }
        if (e instanceof MismatchedInputException mismatched && mismatched.getTargetType() != null) {
            return "wrong kind of value: expected " + expected(mismatched.getTargetType());
        }
        // Any other binding problem: keep Jackson's explanation, without the Java type names in it.
        return e.getOriginalMessage().replaceAll("\\s*\\(class [^)]*\\)", "").replaceAll("`[^`]*`", "a value")
                .replaceAll("\\s*\\R.*", "");
    }

    /**
     * How the field of a value of the wrong kind is written (", e.g. must_call: [read_file]"), in the file's format;
     * empty for another error or a field without an example. "expected a list" alone did not say how a list is written.
     */
    private static String example(JsonMappingException e, Format format) {
        if (!(e instanceof MismatchedInputException) || e instanceof UnrecognizedPropertyException) {
            return "";
        }
        return example(e.getPath(), format);
    }

    /** How the field at {@code path} is written, as {@link #example(JsonMappingException, Format)} says it. */
    private static String example(List<JsonMappingException.Reference> path, Format format) {
        List<String> fields = path.stream().map(JsonMappingException.Reference::getFieldName)
                .filter(java.util.Objects::nonNull).toList();
        if (fields.isEmpty()) {
            return "";
        }
        String field = fields.getLast();
        String parent = fields.size() > 1 ? fields.get(fields.size() - 2) : "";
        String value = EXAMPLES.getOrDefault(parent + "." + field, EXAMPLES.get(field));
        if (value == null) {
            return "";
        }
        return ", e.g. " + written(field, value, format);
    }

    /**
     * A field with its value (YAML) as a file of {@code format} writes it: "agent: {use: NAME}", or in JSON
     * "\"agent\": {\"use\": \"NAME\"}", so an example can be copied into the file it is about.
     */
    static String written(String field, String value, Format format) {
        if (format == Format.YAML) {
            return field + ": " + value;
        }
        try {
            return "\"" + field + "\": " + JSON.writeValueAsString(YAML.readTree(value));
        } catch (JsonProcessingException unexpected) {
            throw new IllegalStateException("the example of " + field + " is no YAML: " + value, unexpected);
        }
    }

    /**
     * An example value (YAML) of each field the format binds, as docs/eval.md and docs/eval-suite-example.yaml write
     * them; "PARENT.FIELD" where a name takes another kind of value elsewhere (an agent's approvals is a policy, an
     * expectation's a list of tools).
     */
    private static final Map<String, String> EXAMPLES = Map.ofEntries(
            Map.entry("suite", "files-demo"),
            Map.entry("description", "A note-taking assistant over an in-memory file tree"),
            Map.entry("trials", "3"),
            Map.entry("agent", "{toolsets: [files_read], max_steps: 6}"),
            Map.entry("tasks", "[{id: release-date, goal: \"When is the release?\"}]"),
            Map.entry("id", "release-date"),
            Map.entry("goal", "When is the release, according to the meeting notes?"),
            Map.entry("category", "should_succeed"),
            Map.entry("script", "[{text: The final answer.}]"),
            Map.entry("scripts", "[[{text: The first script's answer.}], [{text: The second's.}]]"),
            Map.entry("expect", "{must_call: [read_file]}"),
            Map.entry("timeout_ms", "600000"),
            Map.entry("use", "orders_agent"),
            Map.entry("toolsets", "[files_read]"),
            Map.entry("system_prompt", "You help with the team's notes."),
            Map.entry("finish_tool", "true"),
            Map.entry("max_steps", "6"),
            Map.entry("max_cost_usd", "\"0.05\""),
            Map.entry("max_seconds", "60"),
            Map.entry("tool_timeout_ms", "30000"),
            Map.entry("required_facts", "[20 January]"),
            Map.entry("scopes", "[files:write]"),
            Map.entry("user", "alice"),
            Map.entry("max_tokens", "8192"),
            Map.entry("agent.approvals", "side_effects"),
            Map.entry("approvals", "[write_file]"),
            Map.entry("finish.status", "completed"),
            Map.entry("status", "succeeded"),
            Map.entry("must_call", "[read_file]"),
            Map.entry("must_not_call", "[delete_file]"),
            Map.entry("must_not_attempt", "[delete_file]"),
            Map.entry("answer_contains", "[INV-7]"),
            Map.entry("answer_matches", "\"INV-[0-9]+\""),
            Map.entry("observed_errors", "[timeout]"),
            Map.entry("state", "[{path: /files/summary.md, equals: \"Release: 20 January\"}]"),
            Map.entry("state_hash", "\"<the sha256 of the final state, 64 hex digits>\""),
            Map.entry("checks", "[unchanged]"),
            Map.entry("path", "/files/summary.md"),
            Map.entry("absent", "true"),
            Map.entry("text", "The final answer."),
            Map.entry("tool_calls", "[{name: read_file, input: {path: notes/meeting.md}}]"),
            Map.entry("finish", "{status: completed, summary: Found the date, result: The release is on 20 January.}"),
            Map.entry("usage", "{input_tokens: 900, output_tokens: 40}"),
            Map.entry("delay_ms", "5000"),
            Map.entry("stop_reason", "max_tokens"),
            Map.entry("error", "{kind: overloaded, message: Overloaded, retryable: true, http_status: 529}"),
            Map.entry("name", "read_file"),
            Map.entry("summary", "Found the date"),
            Map.entry("result", "The release is on 20 January."),
            Map.entry("input_tokens", "900"),
            Map.entry("output_tokens", "40"),
            Map.entry("cache_read_input_tokens", "800"),
            Map.entry("cache_write_input_tokens", "0"),
            Map.entry("kind", "overloaded"),
            Map.entry("message", "Overloaded"),
            Map.entry("retryable", "true"),
            Map.entry("http_status", "529"));

    private static String expected(Class<?> type) {
        if (type == String.class || type.isEnum()) {
            return "a text value";
        } else if (type == Integer.class || type == Long.class || type == int.class || type == long.class) {
            return "a whole number";
        } else if (Number.class.isAssignableFrom(type) || type == double.class) {
            return "a number";
        } else if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        } else if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "a list";
        }
        return "a mapping of fields (key: value)";
    }

    /** The place an error's message starts with after the file's name: tasks[0] (id).expect.checks[1], or trials. */
    private static final Pattern PLACE = Pattern.compile("(tasks\\[\\d+\\](?: \\([^)]*\\))?|[a-z_]+)((?:\\.[a-z_]+|\\[\\d+\\])*)");
    private static final Pattern SEGMENT = Pattern.compile("\\.([a-z_]+)|\\[(\\d+)\\]");

    /**
     * An error in what the file means (a wrong value, an unknown name, a missing field) placed as a syntax
     * error is, by the line and column of the value its message names: "suite.yaml (line 7, column 17):
     * tasks[0] (t).timeout_ms must be ...". A task's agent or environment field it does not set itself is
     * placed where the suite's defaults set it; a place not in the file (a field left out) goes to the
     * nearest enclosing one. {@code e} is kept as it is when its message names no place in the file.
     */
    private static ReinException placed(ReinException e, String text, Format format, String source) {
        String message = String.valueOf(e.getMessage());
        String prefix = source + ": ";
        Matcher place = PLACE.matcher(message);
        if (!message.startsWith(prefix) || !place.region(prefix.length(), message.length()).lookingAt()) {
            return e;
        }
        List<String> segments = new ArrayList<>();
        Matcher task = Pattern.compile("tasks\\[(\\d+)\\]").matcher(place.group(1));
        if (task.lookingAt()) {
            segments.add("tasks");
            segments.add(task.group(1));
        } else {
            segments.add(place.group(1));
        }
        for (Matcher segment = SEGMENT.matcher(place.group(2)); segment.find(); ) {
            segments.add(segment.group(1) != null ? segment.group(1) : segment.group(2));
        }
        JsonLocation at = valueAt(values(text, format), segments);
        return at == null ? e : new ReinException(source + location(at) + ": " + message.substring(prefix.length()), e);
    }

    private static JsonLocation valueAt(Map<String, JsonLocation> values, List<String> segments) {
        JsonLocation exact = values.get(pointer(segments));
        if (exact != null) {
            return exact;
        }
        boolean suiteDefault = segments.size() > 2 && segments.get(0).equals("tasks")
                && (segments.get(2).equals("agent") || segments.get(2).equals("environment"));
        if (suiteDefault && values.containsKey(pointer(segments.subList(2, segments.size())))) {
            return values.get(pointer(segments.subList(2, segments.size())));
        }
        for (int n = segments.size() - 1; n > 0; n--) {
            JsonLocation enclosing = values.get(pointer(segments.subList(0, n)));
            if (enclosing != null) {
                return enclosing;
            }
        }
        return null;
    }

    private static String pointer(List<String> segments) {
        StringBuilder pointer = new StringBuilder();
        segments.forEach(s -> pointer.append('/').append(s.replace("~", "~0").replace("/", "~1")));
        return pointer.toString();
    }

    /** Where each value of the text starts, by its JSON pointer (the first, for a field given twice). */
    private static Map<String, JsonLocation> values(String text, Format format) {
        Map<String, JsonLocation> values = new HashMap<>();
        try (JsonParser parser = (format == Format.YAML ? new YAMLFactory() : new JsonFactory())
                .createParser(text.startsWith("\uFEFF") ? text.substring(1) : text)) {
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                if (token == JsonToken.FIELD_NAME || token.isStructEnd()) {
                    continue;
                }
                // a mapping's or list's own context is the one it opens: its place is in the enclosing one
                JsonStreamContext context = token.isStructStart() ? parser.getParsingContext().getParent()
                        : parser.getParsingContext();
                values.putIfAbsent(context.pathAsPointer().toString(), parser.currentTokenLocation());
            }
        } catch (IOException e) {
            return values; // the text bound once already; what was read still places the error
        }
        return values;
    }

    private static String location(JsonLocation location) {
        return location == null ? "" : " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    }

    private static Task<?> task(SuiteSpec suite, SuiteSpec.TaskSpec spec, EvalRegistry registry, String where, String source,
                                Format format) {
        JsonNode envRef = spec.environment() != null ? spec.environment() : suite.environment();
        if (envRef == null) {
            throw new ReinException(where + " has no environment: set environment on the task or the suite, e.g. "
                    + written("environment", "{name: file_tree, options: {files: {notes.md: ...}}}", format)
                    + "; the environments are: "
                    + (registry.names().isEmpty() ? "(none registered)" : String.join(", ", registry.names())));
        }
        String name = envName(envRef, where);
        EnvironmentType<?> type;
        try {
            type = registry.environment(name);
        } catch (ReinException e) {
            // the registry's words name the environment, not where the file asks for it
            throw new ReinException((spec.environment() != null ? where + "." : source + ": ") + "environment: " + e.getMessage());
        }
        return typedTask(type, envOptions(envRef, where), suite, spec, where, format);
    }

    private static <E extends Environment> Task<E> typedTask(EnvironmentType<E> type, JsonNode options, SuiteSpec suite,
                                                             SuiteSpec.TaskSpec spec, String where, Format format) {
        List<List<SuiteSpec.TurnSpec>> scripts = scripts(spec, where);
        List<List<ScriptedModel.Turn>> turns = new ArrayList<>();
        for (int i = 0; i < scripts.size(); i++) {
            turns.add(ScriptTurns.of(scripts.get(i), where + (spec.scripts() != null ? ".scripts[" + i + "]" : ".script")));
        }
        boolean finish = scripts.stream().anyMatch(ScriptTurns::usesFinish);
        SuiteSpec.AgentSpec agent = InlineAgent.merge(suite.agent(), spec.agent());
        Task.Builder<E> task = Task.<E>builder(spec.id(), () -> type.create(options.deepCopy()))
                .goal(spec.goal())
                .category(spec.category() == null ? TaskCategory.SHOULD_SUCCEED : category(spec.category(), where))
                .agent(InlineAgent.of(type, agent, where, finish, format));
        InlineAgent.checkSharedClashes(type, agent, () -> type.create(options.deepCopy()), where);
        turns.forEach(task::script);
        if (spec.expect() != null) {
            var ending = FileExpectations.ending(spec.expect().status(), where);
            if (ending != null) {
                task.expect(ending);
            }
            FileExpectations.graders(spec.expect(), type, where).forEach(task::grader);
            InlineAgent.ToolNames tools = FileExpectations.namesTools(spec.expect())
                    ? InlineAgent.toolNames(type, agent, () -> type.create(options.deepCopy())) : null;
            if (tools != null) {
                FileExpectations.checkToolNames(spec.expect(), tools, type.name(), where);
            }
        }
        if (spec.timeoutMs() != null) {
            if (spec.timeoutMs() < 1) {
                // the builder's words ('the timeout must be positive') named neither the field nor the value
                throw new ReinException(where + ".timeout_ms must be at least 1 (milliseconds), was " + spec.timeoutMs());
            }
            task.timeout(Duration.ofMillis(spec.timeoutMs()));
        }
        try {
            return task.build();
        } catch (ReinException e) {
            throw new ReinException(where + ": " + e.getMessage());
        }
    }

    private static List<List<SuiteSpec.TurnSpec>> scripts(SuiteSpec.TaskSpec spec, String where) {
        if (spec.script() != null && spec.scripts() != null) {
            throw new ReinException(where + ": give either script (one) or scripts (several), not both");
        }
        if (spec.scripts() != null && spec.scripts().isEmpty()) {
            // would load as a task without scripts, refused only when the suite runs, without the file's name
            throw new ReinException(where + ".scripts is empty: give at least one script (a list of turns), or leave"
                    + " scripts out for a task that runs only with a real model (--model)");
        }
        return spec.script() != null ? List.of(spec.script()) : spec.scripts() != null ? spec.scripts() : List.of();
    }

    private static TaskCategory category(String text, String where) {
        try {
            return TaskCategory.parse(text);
        } catch (ReinException e) {
            throw new ReinException(where + ".category: " + e.getMessage());
        }
    }

    private static String envName(JsonNode ref, String where) {
        JsonNode name = ref.isTextual() ? ref : ref.path("name");
        if (!name.isTextual() || name.asText().isBlank()) {
            throw new ReinException(where + ".environment must be a name, or {name: ..., options: {...}}");
        }
        if (ref.isObject()) {
            for (Iterator<String> fields = ref.fieldNames(); fields.hasNext(); ) {
                String field = fields.next();
                if (!field.equals("name") && !field.equals("options")) {
                    throw new ReinException(where + ".environment has an unknown field '" + field + "' (use name and options)");
                }
            }
        }
        return name.asText();
    }

    private static JsonNode envOptions(JsonNode ref, String where) {
        JsonNode options = ref.path("options");
        if (options.isMissingNode() || options.isNull()) {
            return Json.object();
        }
        if (!(options instanceof ObjectNode)) {
            throw new ReinException(where + ".environment.options must be an object");
        }
        return options;
    }
}
