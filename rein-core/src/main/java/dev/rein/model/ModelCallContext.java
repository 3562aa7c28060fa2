package dev.rein.model;

import java.time.Instant;
import java.util.Objects;

/**
 * Per-call information a provider may use: the run's deadline (never wait past it) and an
 * observer for streamed output.
 */
public record ModelCallContext(Instant deadline, StreamObserver stream) {
    public ModelCallContext {
        Objects.requireNonNull(deadline, "deadline");
        stream = stream == null ? StreamObserver.NONE : stream;
    }

    public static ModelCallContext until(Instant deadline) {
        return new ModelCallContext(deadline, StreamObserver.NONE);
    }
}
