package dev.rein.replay;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * What a trace says about the run it recorded, enough to build an agent like the one that ran it.
 *
 * @param systemPrompt the system prompt of its first model call ("" when none)
 * @param maxTokens    the max_tokens of its first model call, or 0 when it made none
 * @param modelCalls   how many model calls it recorded
 */
public record RecordedRun(String runId, String goal, String model, List<String> tools, String systemPrompt, int maxTokens,
                          int modelCalls) {
    public RecordedRun {
        tools = List.copyOf(tools);
    }

    static RecordedRun of(Recording r) {
        JsonNode first = r.calls().isEmpty() ? null : r.calls().get(0).request();
        StringBuilder system = new StringBuilder();
        if (first != null) {
            first.path("system").forEach(block -> system.append(block.path("text").asText()));
        }
        return new RecordedRun(r.runId(), r.goal(), r.model(), r.tools(), system.toString(),
                first == null ? 0 : first.path("max_tokens").asInt(), r.calls().size());
    }
}
