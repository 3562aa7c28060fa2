package dev.rein.openai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.OutputSchema;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * OpenAI's documented limits of one Chat Completions request that a run can reach: at most 128
 * tools (an agent with a few MCP servers easily offers more), 4 stop sequences, a temperature in
 * [0, 2] and a top_p in [0, 1]; and its limit
 * on a tool's description, which {@link #description} fits a description to. The public API
 * and Azure OpenAI refuse a request beyond them with HTTP 400 ("Invalid 'tools': array too long.
 * Expected an array with maximum length 128, ...", code {@code array_above_max_length}), at every
 * step of the run; Rein says so before sending, with what to do. So too for an output schema sent as structured output
 * whose top is not an object ({@link #objectTop}). Other servers set limits of their
 * own (vLLM and Ollama none), so there their own answer decides, with the same advice added when it
 * is OpenAI's error (a proxy in front of OpenAI, GitHub Copilot's). MiniMax's API documents a
 * temperature and a top_p in (0, 1] ({@link #miniMax}): 0, which a user sets for repeatable answers,
 * is refused there.
 */
final class RequestLimits {
    static final int MAX_TOOLS = 128;
    static final int MAX_STOP_SEQUENCES = 4;
    /** The longest tool description the public API and Azure OpenAI take, in characters (code points). */
    static final int MAX_DESCRIPTION = 1024;

    /** The API's refusal of a list too long: its field and the length it got. */
    private static final Pattern TOO_LONG = Pattern.compile(
            "Invalid '(tools|stop)': array too long\\. Expected an array with maximum length (\\d+), but got an array with length (\\d+)");

    private RequestLimits() {}

    /**
     * The refusal of a request beyond OpenAI's limits, or null when it is within them.
     *
     * @param server how the message names the server, e.g. "the OpenAI API"
     */
    static ModelException exceeded(ModelRequest request, String server) {
        String what = null;
        if (request.tools().size() > MAX_TOOLS) {
            what = tools(request.tools().size(), MAX_TOOLS, server);
        } else if (request.stopSequences().size() > MAX_STOP_SEQUENCES) {
            what = stops(request.stopSequences().size(), MAX_STOP_SEQUENCES, server);
        } else if (request.temperature() != null && request.temperature() > 2) {
            what = temperature(request.temperature(), "[0, 2]", server);
        } else if (request.topP() != null && (request.topP() < 0 || request.topP() > 1)) {
            what = topP(request.topP(), "[0, 1]", server);
        } else if (request.option(OpenAiStructuredOutput.class).map(OpenAiStructuredOutput::enabled).orElse(false)) {
            what = request.option(OutputSchema.class).map(schema -> objectTop(schema, server)).orElse(null);
        }
        return refused(what);
    }

    /**
     * The refusal of a request beyond MiniMax's documented limits (its API reference: temperature and top_p in (0, 1]),
     * or null when it is within them. Its documented cap on max_tokens (2048) is not checked: it is below what its
     * models write (its model pages and other hosts of them give 128K), and an output limit a server does not take
     * is answered by its own error, with the advice {@link ErrorMapper} adds.
     */
    static ModelException miniMax(ModelRequest request) {
        String what = null;
        if (request.temperature() != null && !(request.temperature() > 0 && request.temperature() <= 1)) {
            what = temperature(request.temperature(), "(0, 1]", "MiniMax's API");
        } else if (request.topP() != null && !(request.topP() > 0 && request.topP() <= 1)) {
            what = topP(request.topP(), "(0, 1]", "MiniMax's API");
        }
        return refused(what);
    }

    private static ModelException refused(String what) {
        return what == null ? null
                : new ModelException(ModelException.Kind.INVALID_REQUEST, 0, what + " (not sent)", false, null, null, null);
    }

    /**
     * Why an output schema whose top is not an object ({@code "type": "object"}) cannot be sent as {@code
     * response_format}, or null when it is one. The Structured Outputs docs ask for an object there, and the API answers
     * another top with a 400 ({@code schema must be a JSON Schema of 'type: "object"', got 'type: "array"'}), strict or
     * not. A sealed interface read by its type id generates an anyOf, a one-value class a string, a list an array: Rein
     * has no place to wrap and unwrap the answer, so the refusal says to ask for an object holding it. Servers that
     * decode to any schema (Ollama, vLLM, llama.cpp) are sent it as it is.
     */
    static String objectTop(OutputSchema schema, String server) {
        JsonNode top = schema.schema();
        if ("object".equals(top.path("type").textValue())) {
            return null;
        }
        String what = top.has("anyOf") ? "an anyOf (one of several alternatives)"
                : top.has("oneOf") ? "a oneOf (one of several alternatives)"
                : top.has("type") ? "\"type\": " + top.get("type")
                : top.has("$ref") ? "a $ref (\"$ref\": " + top.get("$ref") + ") and no \"type\": \"object\""
                : "no \"type\": \"object\"";
        String name = schema.name();
        // the record form is for an answer read into a Java type; a schema given as JSON may name none
        String record = javaTypeName(name) ? "; for an answer read into the Java type " + name
                + ", record " + name + "Answer(" + name + " value), read as its value()" : "";
        return "the output schema " + name + " has " + what + " at its top, and the structured outputs of " + server
                + " (response_format json_schema, OpenAiStructuredOutput) take only an object there (the API answers 400"
                + " \"schema must be a JSON Schema of 'type: \"object\"'\"): ask for an object that holds the value as its"
                + " one property instead ({\"type\":\"object\",\"properties\":{\"value\": this schema},\"required\":[\"value\"]}"
                + record + "), or leave OpenAiStructuredOutput off (Rein shows the schema in the system prompt and validates"
                + " the answer either way)";
    }

    /**
     * The words that cannot name a Java type: the keywords, the literals, and the restricted identifiers a type may not be
     * called (JLS 3.9, 3.8).
     */
    private static final java.util.Set<String> NO_TYPE_NAMES = java.util.Set.of("abstract", "assert", "boolean", "break",
            "byte", "case", "catch", "char", "class", "const", "continue", "default", "do", "double", "else", "enum",
            "extends", "final", "finally", "float", "for", "goto", "if", "implements", "import", "instanceof", "int",
            "interface", "long", "native", "new", "package", "private", "protected", "public", "return", "short", "static",
            "strictfp", "super", "switch", "synchronized", "this", "throw", "throws", "transient", "try", "void",
            "volatile", "while", "_", "true", "false", "null", "var", "yield", "record", "sealed", "permits");

    /**
     * Whether {@code name} can be a Java type's simple name, told with java.base alone (javax.lang.model's SourceVersion
     * is in java.compiler, which a trimmed runtime image may leave out).
     */
    static boolean javaTypeName(String name) {
        return !name.isEmpty() && Character.isJavaIdentifierStart(name.codePointAt(0))
                && name.codePoints().allMatch(Character::isJavaIdentifierPart) && !NO_TYPE_NAMES.contains(name);
    }

    /**
     * What to do about a server's refusal of the output schema's top in OpenAI's words ("schema must be a JSON Schema
     * of 'type: "object"'", relayed by a proxy in front of OpenAI), {@link #objectTop} in brackets; empty for any other
     * message, or a request whose schema's top is an object.
     */
    static String objectTopAdvice(String message, ModelRequest request) {
        if (request == null || !message.contains("must be a JSON Schema of 'type: \"object\"'")) {
            return "";
        }
        String why = request.option(OutputSchema.class).map(schema -> objectTop(schema, "the server")).orElse(null);
        return why == null ? "" : " (" + why + ")";
    }

    private static String temperature(double value, String range, String server) {
        return "the request's temperature " + value + " is outside " + range + ", the range " + server + " takes: set the"
                + " agent's temperature within it (Agent.Builder.temperature), or leave it unset (null) for the model's default";
    }

    private static String topP(double value, String range, String server) {
        return "the request's top_p " + value + " is outside " + range + ", the range " + server + " takes: set it within"
                + " it (ModelRequest.Builder.topP), or leave it unset (null) for the model's default";
    }

    /**
     * A tool's description as the public API and Azure OpenAI take it: one over {@value #MAX_DESCRIPTION} characters is cut
     * to that many, the last an ellipsis. They refuse the whole request for it (400 "Invalid 'tools[13].function.description':
     * string too long", code {@code string_above_max_length}), called or not; an MCP server's description is often longer
     * and is not the user's to shorten. Its beginning says what the tool does; the tool's own definition is unchanged.
     */
    static String description(String description) {
        if (description.codePointCount(0, description.length()) <= MAX_DESCRIPTION) {
            return description;
        }
        return description.substring(0, description.offsetByCodePoints(0, MAX_DESCRIPTION - 1)) + "\u2026";
    }

    /** What to do about a server's refusal of a list too long in OpenAI's words; empty for any other message. */
    static String advice(String message) {
        Matcher m = TOO_LONG.matcher(message);
        if (!m.find()) {
            return "";
        }
        int most = Integer.parseInt(m.group(2));
        int got = Integer.parseInt(m.group(3));
        return " (" + (m.group(1).equals("tools") ? tools(got, most, "the server") : stops(got, most, "the server")) + ")";
    }

    private static String tools(int count, int most, String server) {
        return "the request offers " + count + " tools, more than the " + most + " " + server + " takes in one request:"
                + " offer at most " + most + ", e.g. fewer --tools, or an \"allow\" or \"deny\" list for an MCP server"
                + " with many tools in the servers file (fewer tools in Agent.builder().tools(...) in the library)";
    }

    private static String stops(int count, int most, String server) {
        return "the request has " + count + " stop sequences, more than the " + most + " " + server + " takes:"
                + " give at most " + most + " (ModelRequest.stopSequences)";
    }
}
