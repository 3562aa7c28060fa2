package dev.rein.agent;

import dev.rein.internal.replay.RecordedAnswers;
import dev.rein.reflection.Reflection;
import dev.rein.reflection.ReflectionPrompts;
import java.util.Map;

/**
 * What every run of one agent builds alike, made once with its {@link AgentConfig}: immutable, so the runs of the
 * agent (many at once, on virtual threads) share it. Each run made these afresh before, with streams over the
 * configuration's lists, several times per run (docs/performance-log.md, perf9).
 *
 * @param callLimits      the per-tool caps, the budget's and the conversation budget's merged ({@link RunTools#callLimits})
 * @param recordedAnswers a replay's recorded answers among the agent's interceptors, or null (no replay)
 * @param prompts         the reflection strategies' prompts after tool steps (stateless)
 * @param critique        the critic's settings, or null (no critic)
 */
record RunParts(Map<String, Integer> callLimits, RecordedAnswers recordedAnswers, ReflectionPrompts prompts,
                Reflection.Critique critique) {
    static RunParts of(AgentConfig config) {
        RecordedAnswers recorded = null;
        for (var stage : config.interceptors()) {
            if (stage instanceof RecordedAnswers answers) {
                recorded = answers;
                break;
            }
        }
        Reflection.Critique critique = null;
        for (Reflection strategy : config.guards().reflection()) {
            if (strategy instanceof Reflection.Critique c) {
                critique = c;
                break;
            }
        }
        return new RunParts(Map.copyOf(RunTools.callLimits(config)), recorded,
                new ReflectionPrompts(config.guards().reflection()), critique);
    }
}
