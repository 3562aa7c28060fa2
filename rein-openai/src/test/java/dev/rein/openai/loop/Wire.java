package dev.rein.openai.loop;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.model.Model;
import java.util.List;

/**
 * One provider's fake server and model, scripted and read in provider-neutral terms, so the same
 * loop test runs over both wire protocols.
 */
interface Wire extends AutoCloseable {
    /** One proposed tool call. */
    record Call(String id, String name, String argumentsJson) {}

    String name();

    Model model();

    /** The model name requests use. */
    String modelName();

    void text(String text);

    void toolCalls(String text, Call... calls);

    /** A response cut off at the output limit. */
    void cutOff(String partialText);

    void refusal(String text);

    /** A rate limit with a {@code retry-after-ms} hint. */
    void rateLimited(long millis);

    /** A final 400 with the API's message. */
    void invalidRequest(String message);

    /** The JSON bodies received, in order. */
    List<JsonNode> bodies();

    /** The request's tool choice in neutral words: auto, none, any, tool:NAME, or absent. */
    String toolChoice(JsonNode body);

    List<String> toolNames(JsonNode body);

    /** The ids answered by tool results in the request's last turn, in order. */
    List<String> answeredIds(JsonNode body);

    int pendingReplies();

    @Override
    void close();
}
