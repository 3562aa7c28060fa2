package dev.rein.agent;

import dev.rein.model.Message;
import dev.rein.model.Usage;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;

/**
 * How a run ended: status, machine-readable reason, human message, the answer (for
 * STOPPED_BUDGET, the summary of what is known), counters and the full history.
 *
 * @param finish the model's finish report, when it called {@code finish}; else null
 */
public record RunResult(String runId, RunStatus status, String reason, String message, String answer, int steps,
                        Usage usage, BigDecimal costUsd, Duration duration, FinishReport finish, List<Message> history) {
    public RunResult {
        history = List.copyOf(history);
    }

    public boolean succeeded() {
        return status == RunStatus.SUCCEEDED;
    }
}
