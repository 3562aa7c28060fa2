package dev.rein.replay;

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
}
