package dev.rein.temporal.internal;

import io.temporal.workflow.Workflow;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** Workflow time as a {@link Clock}: deterministic on replay, skipped by the test server. */
final class WorkflowClock extends Clock {
    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("workflow time is UTC");
    }

    @Override
    public long millis() {
        return Workflow.currentTimeMillis();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis());
    }
}
