package dev.rein.eval.file;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The suite file format as data, bound field by field (snake_case in the file). Unknown fields
 * are errors, so a typo never silently drops a check. The format is documented in docs/eval.md.
 */
record SuiteSpec(String suite, String description, Integer trials, JsonNode environment, AgentSpec agent,
                 List<TaskSpec> tasks) {

    /** One task. {@code environment} and {@code agent} default to the suite's. */
    record TaskSpec(String id, String goal, String category, JsonNode environment, AgentSpec agent,
                    List<TurnSpec> script, List<List<TurnSpec>> scripts, ExpectSpec expect, Long timeoutMs) {}

    /**
     * The agent under test: a registered agent ({@code use}), or one declared inline from toolsets
     * and limits.
     */
    record AgentSpec(String use, List<String> toolsets, String systemPrompt, Boolean finishTool, Integer maxSteps,
                     String maxCostUsd, Long maxSeconds, Long toolTimeoutMs, List<String> requiredFacts,
                     List<String> scopes, String user, Integer maxTokens, String approvals) {}

    /** What the graders check. Every field is optional. */
    record ExpectSpec(String status, List<String> mustCall, List<String> mustNotCall, List<String> mustNotAttempt,
                      Integer maxSteps, String maxCostUsd, List<String> approvals, List<String> answerContains,
                      String answerMatches, List<String> observedErrors, List<StateSpec> state, String stateHash,
                      List<String> checks) {}

    /** A value in the final state, by JSON pointer: {@code equals} a value, or {@code absent: true}. */
    record StateSpec(String path, @JsonProperty("equals") JsonNode value, Boolean absent) {}

    /** One scripted model turn. */
    record TurnSpec(String text, List<CallSpec> toolCalls, FinishSpec finish, UsageSpec usage, Long delayMs,
                    String stopReason, ErrorSpec error) {}

    record CallSpec(String name, JsonNode input) {}

    record FinishSpec(String status, String summary, String result) {}

    record UsageSpec(Long inputTokens, Long outputTokens, Long cacheReadInputTokens, Long cacheWriteInputTokens) {}

    /** A failing model call: {@code kind} is a ModelException kind such as overloaded or rate_limited. */
    record ErrorSpec(String kind, String message, Boolean retryable, Integer httpStatus) {}
}
