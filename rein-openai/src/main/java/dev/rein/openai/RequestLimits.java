package dev.rein.openai;

import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * OpenAI's documented limits of one Chat Completions request that a run can reach: at most 128
 * tools (an agent with a few MCP servers easily offers more) and 4 stop sequences; and its limit
 * on a tool's description, which {@link #description} fits a description to. The public API
 * and Azure OpenAI refuse a request beyond them with HTTP 400 ("Invalid 'tools': array too long.
 * Expected an array with maximum length 128, ...", code {@code array_above_max_length}), at every
 * step of the run; Rein says so before sending, with what to do. Other servers set limits of their
 * own (vLLM and Ollama none), so there their own answer decides, with the same advice added when it
 * is OpenAI's error (a proxy in front of OpenAI, GitHub Copilot's).
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
        }
        return what == null ? null
                : new ModelException(ModelException.Kind.INVALID_REQUEST, 0, what + " (not sent)", false, null, null, null);
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
