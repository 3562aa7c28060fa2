package dev.rein.examples;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The tool calls of a run paired with their results, read from its history. Verifiers use it to
 * check an answer against what the tools actually returned rather than against what the model
 * says they returned.
 */
public final class Exchanges {
    /** Tool output may arrive inside an untrusted-data wrapper; this finds the text within. */
    private static final Pattern WRAPPED = Pattern.compile("\\A\\s*<untrusted_data\\b[^>]*>\\R?(.*?)\\R?</untrusted_data>\\s*\\z",
            Pattern.DOTALL);

    /**
     * One call and its result.
     *
     * @param content the result as the model saw it (null when the call has no result yet)
     */
    public record Exchange(String callId, String tool, JsonNode input, String content, boolean isError) {
        /** True when the call has a result that is not an error. */
        public boolean succeeded() {
            return content != null && !isError;
        }

        /** The result without a surrounding untrusted-data wrapper. */
        public String data() {
            return unwrap(content);
        }
    }

    private Exchanges() {}

    /** Every tool call of {@code history} in order, with its result. */
    public static List<Exchange> of(List<Message> history) {
        Map<String, ToolResultBlock> results = new HashMap<>();
        for (Message message : history) {
            for (ContentBlock block : message.content()) {
                if (block instanceof ToolResultBlock r) {
                    results.put(r.toolUseId(), r);
                }
            }
        }
        List<Exchange> exchanges = new ArrayList<>();
        for (Message message : history) {
            for (ToolUseBlock use : message.toolUses()) {
                ToolResultBlock r = results.get(use.id());
                exchanges.add(new Exchange(use.id(), use.name(), use.input(), r == null ? null : r.content(), r != null && r.isError()));
            }
        }
        return exchanges;
    }

    /** The successful calls of {@code tool}, in order. */
    public static List<Exchange> succeeded(List<Message> history, String tool) {
        return of(history).stream().filter(e -> e.tool().equals(tool) && e.succeeded()).toList();
    }

    /** {@code content} without a surrounding untrusted-data wrapper (unchanged when there is none). */
    public static String unwrap(String content) {
        if (content == null) {
            return "";
        }
        Matcher m = WRAPPED.matcher(content);
        return m.matches() ? m.group(1) : content;
    }
}
