package dev.rein.state;

import dev.rein.run.RunStatus;
import java.math.BigDecimal;
import java.time.Instant;

/** One line of a run listing. */
public record RunSummary(String runId, RunStatus status, String reason, String goal, String model, int steps,
                         BigDecimal costUsd, int pendingApprovals, Instant createdAt, Instant updatedAt) {}
