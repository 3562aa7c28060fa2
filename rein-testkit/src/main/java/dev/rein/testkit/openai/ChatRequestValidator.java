package dev.rein.testkit.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.rein.testkit.RecordedRequest;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Checks a Chat Completions request the way the real API does where that is cheap, with messages
 * worded like the real ones: a model, a non-empty list of messages with known roles, each
 * assistant message's {@code tool_calls} answered by one {@code tool} message per id right after
 * it, no {@code tool} message for an unknown id, {@code tools} present when the history holds tool
 * calls or a {@code tool_choice} or {@code parallel_tool_calls} is set, a named choice naming a defined function, argument text as
 * strings, positive output limits, no {@code max_tokens} for one of OpenAI's reasoning models (o1, o3, o4-mini, the gpt-5
 * family, codex-mini: they take only {@code max_completion_tokens}), no {@code reasoning_effort} for one of its models
 * that do not reason (gpt-4o, gpt-4.1, gpt-5-chat) nor one of its reasoning models does not take ({@link #efforts}), no {@code stop} for o3, o4-mini and the first gpt-5 models, a temperature from 0 to 2 and a top_p from 0 to 1,
 * no temperature or top_p but 1 for the o-series, the first gpt-5 models and a later gpt-5.N asked for a reasoning effort
 * other than none, {@code stream_options} only with {@code stream}, no array schema
 * without {@code items} in a tool's parameters or a {@code response_format} schema, and the API reference's limits: at most {@value #MAX_TOOLS} tools,
 * {@value #MAX_STOP} stop sequences, {@value #MAX_DESCRIPTION} characters in a function's description and {@value
 * #MAX_CALL_ID} in a tool call's id.
 */
final class ChatRequestValidator {
    /** Why a request was refused: 400 {@code invalid_request_error} with this message, param and code. */
    record Violation(String message, String param, String code) {}

    static final int MAX_TOOLS = 128;
    static final int MAX_STOP = 4;
    static final int MAX_DESCRIPTION = 1024;
    static final int MAX_CALL_ID = 40;

    private static final Set<String> ROLES = Set.of("system", "developer", "user", "assistant", "tool", "function");

    private ChatRequestValidator() {}

    static Optional<Violation> validate(RecordedRequest request) {
        JsonNode body = request.body();
        if (!body.isObject()) {
            return fail("We could not parse the JSON body of your request. (HINT: This likely means you aren't using"
                    + " your HTTP library correctly. The OpenAI API expects a JSON payload.)", null, null);
        }
        if (!body.path("model").isTextual() || body.path("model").asText().isEmpty()) {
            return fail("you must provide a model parameter", null, null);
        }
        JsonNode messages = body.get("messages");
        if (messages == null) {
            return fail("Missing required parameter: 'messages'.", "messages", "missing_required_parameter");
        }
        if (!messages.isArray() || messages.isEmpty()) {
            return fail("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty"
                    + " array instead.", "messages", "empty_array");
        }
        for (String field : new String[] {"max_tokens", "max_completion_tokens"}) {
            JsonNode limit = body.get(field);
            if (limit != null && !limit.isNull() && (!limit.canConvertToLong() || limit.asLong() < 1)) {
                return fail("Invalid '" + field + "': integer below minimum value. Expected a value >= 1, but got "
                        + limit + " instead.", field, "integer_below_min_value");
            }
        }
        Optional<Violation> range = range(body, "temperature", 2).or(() -> range(body, "top_p", 1));
        if (range.isPresent()) {
            return range;
        }
        if (limitsOnlyMaxCompletionTokens(body.path("model").asText()) && body.hasNonNull("max_tokens")) {
            return fail("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens'"
                    + " instead.", "max_tokens", "unsupported_parameter");
        }
        if (body.hasNonNull("reasoning_effort") && reasonsNot(body.path("model").asText())) {
            return fail("Unsupported parameter: 'reasoning_effort' is not supported with this model.", "reasoning_effort",
                    "unsupported_parameter");
        }
        List<String> efforts = efforts(body.path("model").asText());
        if (efforts != null && body.path("reasoning_effort").isTextual() && !efforts.contains(body.path("reasoning_effort").asText())) {
            List<String> quoted = efforts.stream().map(e -> "'" + e + "'").toList();
            return fail("Unsupported value: '" + body.path("reasoning_effort").asText() + "' is not supported with the '"
                    + body.path("model").asText() + "' model. Supported values are: "
                    + String.join(", ", quoted.subList(0, quoted.size() - 1)) + ", and " + quoted.get(quoted.size() - 1) + ".",
                    "reasoning_effort", "unsupported_value");
        }
        if (samplesOnlyByDefault(body.path("model").asText())
                || samplesOnlyWithoutReasoning(body.path("model").asText()) && reasons(body)) {
            for (String field : new String[] {"temperature", "top_p"}) {
                JsonNode value = body.get(field);
                if (value != null && value.isNumber() && value.doubleValue() != 1) {
                    return fail("Unsupported value: '" + field + "' does not support " + value + " with this model. Only"
                            + " the default (1) value is supported.", field, "unsupported_value");
                }
            }
        }
        JsonNode stop = body.get("stop");
        if (stop != null && !stop.isNull() && stopsNot(body.path("model").asText())) {
            return fail("Unsupported parameter: 'stop' is not supported with this model.", "stop", "unsupported_parameter");
        }
        if (body.has("stream_options") && !body.path("stream").asBoolean(false)) {
            return fail("The 'stream_options' parameter is only allowed when 'stream' is enabled.",
                    "stream_options", null);
        }
        return limits(body).or(() -> tools(body)).or(() -> history(messages, hasTools(body)));
    }

    /** A sampling setting outside the API reference's range, from 0 to {@code most}, refused in the API's words. */
    private static Optional<Violation> range(JsonNode body, String field, int most) {
        JsonNode value = body.get(field);
        if (value == null || !value.isNumber()) {
            return Optional.empty();
        }
        if (value.doubleValue() > most) {
            return fail("Invalid '" + field + "': decimal above maximum value. Expected a value <= " + most + ", but got "
                    + value + " instead.", field, "decimal_above_max_value");
        }
        return value.doubleValue() >= 0 ? Optional.empty() : fail("Invalid '" + field + "': decimal below minimum value."
                + " Expected a value >= 0, but got " + value + " instead.", field, "decimal_below_min_value");
    }

    /**
     * Whether the model is one of OpenAI's reasoning models, which refuse the deprecated {@code max_tokens} (the API
     * reference: "not compatible with o-series models"): the o-series (o1, o1-mini, o3-pro, o4-mini, dated snapshots),
     * the gpt-5 family and codex-mini.
     */
    static boolean limitsOnlyMaxCompletionTokens(String model) {
        String name = model.toLowerCase(java.util.Locale.ROOT);
        return name.matches("o[1-9][0-9]*(-.*)?") || name.startsWith("gpt-5") || name.startsWith("codex-mini");
    }

    /**
     * Whether the model takes only the default temperature and top_p (1): the o-series and the first gpt-5 models
     * (gpt-5, gpt-5-mini, gpt-5-nano, their snapshots), which refuse any other with 400 {@code unsupported_value}. The
     * later gpt-5.N take them with reasoning effort none ({@link #samplesOnlyWithoutReasoning}); gpt-5-chat takes them.
     */
    static boolean samplesOnlyByDefault(String model) {
        String name = model.toLowerCase(java.util.Locale.ROOT);
        return name.matches("o[1-9][0-9]*(-.*)?") || name.startsWith("gpt-5") && !name.startsWith("gpt-5.")
                && !name.startsWith("gpt-5-chat");
    }

    /**
     * Whether the model is a later gpt-5.N (gpt-5.1, gpt-5.2, ..., their snapshots; not a chat model), which takes a
     * temperature or top_p only with reasoning effort none, its default, and refuses one but 1 with any other effort as
     * the first gpt-5 models do (the API reference's GPT-5.1 and later parameter compatibility).
     */
    static boolean samplesOnlyWithoutReasoning(String model) {
        String name = model.toLowerCase(java.util.Locale.ROOT);
        return name.matches("gpt-5\\.[0-9]+.*") && !name.contains("-chat");
    }

    /**
     * Whether the model is one of OpenAI's that do not reason, which refuse {@code reasoning_effort}: gpt-3.5, the gpt-4
     * family (gpt-4, gpt-4-turbo, gpt-4o, gpt-4.1 and their minis) and the gpt-5 chat models. Another server's model is
     * not judged.
     */
    static boolean reasonsNot(String model) {
        String name = model.toLowerCase(java.util.Locale.ROOT);
        return name.startsWith("gpt-3.5") || name.startsWith("gpt-4") || name.matches("gpt-5(\\.[0-9]+)?-chat.*");
    }

    /**
     * Whether the model is one of OpenAI's reasoning models that take no stop sequences: o3 (not o3-mini), o4-mini and the
     * first gpt-5 models (gpt-5, gpt-5-mini, gpt-5-nano, their snapshots; not gpt-5-chat).
     */
    static boolean stopsNot(String model) {
        String name = model.toLowerCase(java.util.Locale.ROOT);
        return name.matches("o3(-pro)?(-[0-9]{4}-[0-9]{2}-[0-9]{2})?|o4-mini.*")
                || name.startsWith("gpt-5") && !name.startsWith("gpt-5.") && !name.startsWith("gpt-5-chat");
    }

    /**
     * Whether the model is one of OpenAI's reasoning models that refuse {@code parallel_tool_calls} whatever its value
     * (400 {@code unsupported_parameter}): o1, o3, o3-mini and o4-mini, and their dated snapshots. The gpt-5 family
     * takes it.
     */
    static boolean parallelCallsNot(String model) {
        String name = model.toLowerCase(java.util.Locale.ROOT);
        return name.matches("(o1|o3|o3-mini|o4-mini)(-[0-9]{4}-[0-9]{2}-[0-9]{2})?");
    }

    /**
     * The reasoning efforts the model takes, as the API reference lists them: low, medium and high for o1, o3, o3-mini and
     * o4-mini; minimal to high for the first gpt-5 models (none only from gpt-5.1 on); none to high for gpt-5.1; none to
     * xhigh for the later gpt-5.N ("xhigh is supported for all models after gpt-5.1-codex-max"). Null for another model
     * (a pro, codex or chat variant, another server's), which is not judged.
     */
    static List<String> efforts(String model) {
        String name = model.toLowerCase(java.util.Locale.ROOT);
        String snapshot = "(-[0-9]{4}-[0-9]{2}-[0-9]{2})?";
        if (name.matches("o(1|3|3-mini|4-mini)" + snapshot)) {
            return List.of("low", "medium", "high");
        }
        if (name.matches("gpt-5(-mini|-nano)?" + snapshot)) {
            return List.of("minimal", "low", "medium", "high");
        }
        if (name.matches("gpt-5\\.1" + snapshot)) {
            return List.of("none", "low", "medium", "high");
        }
        return name.matches("gpt-5\\.([2-9]|[1-9][0-9]+)" + snapshot) ? List.of("none", "low", "medium", "high", "xhigh") : null;
    }

    /** Whether the request asks for a reasoning effort other than none (absent, a later gpt-5.N does not reason). */
    private static boolean reasons(JsonNode body) {
        JsonNode effort = body.get("reasoning_effort");
        return effort != null && effort.isTextual() && !effort.asText().equals("none");
    }

    /** The lengths the real API checks before anything else, in its words (counted in characters, as Python counts them). */
    private static Optional<Violation> limits(JsonNode body) {
        JsonNode tools = body.path("tools");
        if (tools.isArray() && tools.size() > MAX_TOOLS) {
            return tooMany("tools", MAX_TOOLS, tools.size());
        }
        JsonNode stop = body.path("stop");
        if (stop.isArray() && stop.size() > MAX_STOP) {
            return tooMany("stop", MAX_STOP, stop.size());
        }
        for (int i = 0; i < tools.size(); i++) {
            JsonNode description = tools.get(i).path("function").path("description");
            if (description.isTextual()) {
                Optional<Violation> tooLong = tooLong("tools[" + i + "].function.description", MAX_DESCRIPTION, description.asText());
                if (tooLong.isPresent()) {
                    return tooLong;
                }
            }
        }
        JsonNode messages = body.path("messages");
        for (int i = 0; i < messages.size(); i++) {
            JsonNode calls = messages.get(i).path("tool_calls");
            for (int j = 0; j < calls.size(); j++) {
                if (calls.get(j).path("id").isTextual()) {
                    Optional<Violation> tooLong = tooLong("messages[" + i + "].tool_calls[" + j + "].id", MAX_CALL_ID,
                            calls.get(j).path("id").asText());
                    if (tooLong.isPresent()) {
                        return tooLong;
                    }
                }
            }
            JsonNode answered = messages.get(i).path("tool_call_id");
            if (answered.isTextual()) {
                Optional<Violation> tooLong = tooLong("messages[" + i + "].tool_call_id", MAX_CALL_ID, answered.asText());
                if (tooLong.isPresent()) {
                    return tooLong;
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<Violation> tooMany(String param, int most, int got) {
        return fail("Invalid '" + param + "': array too long. Expected an array with maximum length " + most
                + ", but got an array with length " + got + " instead.", param, "array_above_max_length");
    }

    private static Optional<Violation> tooLong(String param, int most, String text) {
        int length = text.codePointCount(0, text.length());
        return length <= most ? Optional.empty() : fail("Invalid '" + param + "': string too long. Expected a string with"
                + " maximum length " + most + ", but got a string with length " + length + " instead.", param,
                "string_above_max_length");
    }

    private static boolean hasTools(JsonNode body) {
        return body.path("tools").isArray() && !body.path("tools").isEmpty();
    }

    private static Optional<Violation> tools(JsonNode body) {
        JsonNode tools = body.path("tools");
        for (int i = 0; i < tools.size(); i++) {
            JsonNode function = tools.get(i).path("function");
            List<Object> context = bareArray(function.path("parameters"), new ArrayList<>());
            if (context != null) {
                return fail("Invalid schema for function '" + function.path("name").asText() + "': In context="
                        + tuple(context) + ", array schema missing items.", "tools[" + i + "].function.parameters",
                        "invalid_function_parameters");
            }
            String strict = function.path("strict").asBoolean(false) ? strictViolation(function.path("parameters"),
                    new ArrayList<>()) : null;
            if (strict != null) {
                return fail("Invalid schema for function '" + function.path("name").asText() + "': " + strict,
                        "tools[" + i + "].function.parameters", "invalid_function_parameters");
            }
        }
        JsonNode format = body.path("response_format");
        if (format.path("type").asText("").equals("json_schema")) {
            // An output schema is refused for an array without items as a tool's parameters are.
            List<Object> context = bareArray(format.path("json_schema").path("schema"), new ArrayList<>());
            if (context != null) {
                return fail("Invalid schema for response_format '" + format.path("json_schema").path("name").asText()
                        + "': In context=" + tuple(context) + ", array schema missing items.", "response_format",
                        "invalid_json_schema");
            }
            String strict = format.path("json_schema").path("strict").asBoolean(false)
                    ? strictViolation(format.path("json_schema").path("schema"), new ArrayList<>()) : null;
            if (strict != null) {
                return fail("Invalid schema for response_format '" + format.path("json_schema").path("name").asText()
                        + "': " + strict, "response_format", "invalid_json_schema");
            }
        }
        if (format.path("type").asText("").equals("json_object") && !mentionsJson(body.path("messages"))) {
            // The JSON mode guide: the API refuses it when the word does not appear in the conversation.
            return fail("'messages' must contain the word 'json' in some form, to use 'response_format' of type"
                    + " 'json_object'.", "messages", null);
        }
        JsonNode parallel = body.get("parallel_tool_calls");
        if (parallel != null && !parallel.isNull() && !hasTools(body)) {
            return fail("Invalid value for 'parallel_tool_calls': 'parallel_tool_calls' is only allowed when 'tools' are"
                    + " specified.", "parallel_tool_calls", null);
        }
        if (parallel != null && !parallel.isNull() && parallelCallsNot(body.path("model").asText())) {
            return fail("Unsupported parameter: 'parallel_tool_calls' is not supported with this model.", "parallel_tool_calls",
                    "unsupported_parameter");
        }
        JsonNode choice = body.get("tool_choice");
        if (choice == null || choice.isNull()) {
            return Optional.empty();
        }
        if (!hasTools(body)) {
            return fail("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
                    "tool_choice", null);
        }
        if (choice.isTextual()) {
            return Set.of("none", "auto", "required").contains(choice.asText()) ? Optional.empty()
                    : fail("Invalid value: '" + choice.asText() + "'. Supported values are: 'none', 'auto', and"
                            + " 'required'.", "tool_choice", "invalid_value");
        }
        // allowed_tools ({"mode", "tools"}) and a named custom tool are choices the API reference lists beside a named
        // function; only the named function is checked against the tools.
        String kind = choice.path("type").asText("function");
        if (kind.equals("allowed_tools") || kind.equals("custom")) {
            return Optional.empty();
        }
        String name = choice.path("function").path("name").asText(null);
        for (JsonNode tool : body.path("tools")) {
            if (tool.path("function").path("name").asText("").equals(name)) {
                return Optional.empty();
            }
        }
        return fail("Invalid value for 'tool_choice': function '" + name + "' was not found in 'tools'.",
                "tool_choice", null);
    }

    /** Whether a message's text (a string, or a list's text parts) holds the word json in any case. */
    private static boolean mentionsJson(JsonNode messages) {
        for (JsonNode message : messages) {
            JsonNode content = message.path("content");
            if (content.isTextual() && content.asText().toLowerCase(java.util.Locale.ROOT).contains("json")) {
                return true;
            }
            for (JsonNode part : content.isArray() ? content : MissingNode.getInstance()) {
                if (part.path("text").asText("").toLowerCase(java.util.Locale.ROOT).contains("json")) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Keywords whose values are data, not schemas. */
    private static final Set<String> DATA_KEYWORDS = Set.of("default", "examples", "example", "const", "enum");

    /**
     * Where a schema holds an array schema without {@code items} (a tuple with only {@code prefixItems} too), as
     * the keys from its root; null when none does. The real API refuses such a tool whether or not it is called.
     */
    private static List<Object> bareArray(JsonNode schema, List<Object> at) {
        if (schema.isObject()) {
            JsonNode type = schema.get("type");
            boolean array = type != null && (type.asText().equals("array")
                    || type.isArray() && type.toString().contains("\"array\""));
            if (array && !schema.has("items")) {
                return at;
            }
            for (var field : schema.properties()) {
                if (!DATA_KEYWORDS.contains(field.getKey()) || at.size() > 0 && "properties".equals(at.get(at.size() - 1))) {
                    List<Object> found = bareArray(field.getValue(), append(at, field.getKey()));
                    if (found != null) {
                        return found;
                    }
                }
            }
        } else if (schema.isArray()) {
            for (int i = 0; i < schema.size(); i++) {
                List<Object> found = bareArray(schema.get(i), append(at, i));
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    /**
     * Where a strict schema breaks Structured Outputs' rules for objects (the guide: every object sets {@code
     * additionalProperties} false and lists every property in {@code required}), in the real message's words from
     * its context on; null when it keeps them. Walked as {@link #bareArray} walks a schema.
     */
    private static String strictViolation(JsonNode schema, List<Object> at) {
        if (schema.isObject()) {
            JsonNode type = schema.get("type");
            boolean object = type != null && (type.asText().equals("object")
                    || type.isArray() && type.toString().contains("\"object\"")) || schema.has("properties");
            // A map of names to schemas (properties, $defs) is no schema, whatever its names.
            boolean map = !at.isEmpty() && Set.of("properties", "$defs", "definitions").contains(at.get(at.size() - 1));
            if (object && !map) {
                JsonNode additional = schema.get("additionalProperties");
                if (additional == null || !additional.isBoolean() || additional.asBoolean()) {
                    return "In context=" + tuple(at) + ", 'additionalProperties' is required to be supplied and to be false.";
                }
                Set<String> required = new LinkedHashSet<>();
                schema.path("required").forEach(name -> required.add(name.asText()));
                for (String name : (Iterable<String>) () -> schema.path("properties").fieldNames()) {
                    if (!required.contains(name)) {
                        return "In context=" + tuple(at) + ", 'required' is required to be supplied and to be an array"
                                + " including every key in properties. Missing '" + name + "'.";
                    }
                }
            }
            for (var field : schema.properties()) {
                if (!DATA_KEYWORDS.contains(field.getKey()) || at.size() > 0 && "properties".equals(at.get(at.size() - 1))) {
                    String found = strictViolation(field.getValue(), append(at, field.getKey()));
                    if (found != null) {
                        return found;
                    }
                }
            }
        } else if (schema.isArray()) {
            for (int i = 0; i < schema.size(); i++) {
                String found = strictViolation(schema.get(i), append(at, i));
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    private static List<Object> append(List<Object> path, Object key) {
        List<Object> longer = new ArrayList<>(path);
        longer.add(key);
        return longer;
    }

    /** The keys as the real message shows them, a Python tuple: {@code ('properties', 'paths')}, {@code ()}. */
    private static String tuple(List<Object> keys) {
        List<String> parts = keys.stream().map(k -> k instanceof String text ? "'" + text + "'" : k.toString()).toList();
        return "(" + String.join(", ", parts) + (parts.size() == 1 ? "," : "") + ")";
    }

    private static Optional<Violation> history(JsonNode messages, boolean hasTools) {
        Set<String> open = new LinkedHashSet<>();
        int openedAt = -1;
        for (int i = 0; i < messages.size(); i++) {
            JsonNode message = messages.get(i);
            String role = message.path("role").asText("");
            if (!ROLES.contains(role)) {
                return fail("Invalid value: '" + role + "'. Supported values are: 'system', 'assistant', 'user',"
                        + " 'function', 'tool', and 'developer'.", "messages.[" + i + "].role", "invalid_value");
            }
            if (role.equals("tool")) {
                String id = message.path("tool_call_id").asText(null);
                if (id == null || !open.remove(id)) {
                    return fail("Invalid parameter: messages with role 'tool' must be a response to a preceeding"
                            + " message with 'tool_calls'.", "messages.[" + i + "].role", null);
                }
                continue;
            }
            if (!open.isEmpty()) {
                return unanswered(open, openedAt);
            }
            if (role.equals("assistant") && message.path("tool_calls").isArray() && !message.path("tool_calls").isEmpty()) {
                if (!hasTools) {
                    return fail("Invalid value for 'messages': the messages contain 'tool_calls', so 'tools' must be"
                            + " specified.", "tools", null);
                }
                Optional<Violation> calls = calls(message.path("tool_calls"), i, open);
                if (calls.isPresent()) {
                    return calls;
                }
                openedAt = i;
            }
        }
        return open.isEmpty() ? Optional.empty() : unanswered(open, openedAt);
    }

    private static Optional<Violation> calls(JsonNode calls, int index, Set<String> open) {
        for (int j = 0; j < calls.size(); j++) {
            JsonNode call = calls.get(j);
            String param = "messages.[" + index + "].tool_calls.[" + j + "]";
            if (!call.path("id").isTextual()) {
                return fail("Missing required parameter: '" + param + ".id'.", param + ".id", "missing_required_parameter");
            }
            // A custom tool's call carries custom.input, not function.arguments.
            if (!call.path("type").asText("").equals("custom") && !call.path("function").path("arguments").isTextual()) {
                return fail("Invalid type for '" + param + ".function.arguments': expected a string.",
                        param + ".function.arguments", "invalid_type");
            }
            open.add(call.path("id").asText());
        }
        return Optional.empty();
    }

    private static Optional<Violation> unanswered(Set<String> open, int index) {
        return fail("An assistant message with 'tool_calls' must be followed by tool messages responding to each"
                + " 'tool_call_id'. The following tool_call_ids did not have response messages: "
                + String.join(", ", open), "messages.[" + index + "].role", null);
    }

    private static Optional<Violation> fail(String message, String param, String code) {
        return Optional.of(new Violation(message, param, code));
    }
}
