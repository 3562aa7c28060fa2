package dev.rein.model;

import java.time.Instant;
import dev.rein.ReinException;

/**
 * Per-call information a provider may use: the run's deadline (never wait past it) and an
 * observer for streamed output.
 */
public record ModelCallContext(Instant deadline, StreamObserver stream) {
    /** @throws ReinException when the deadline is null */
    public ModelCallContext {
        if (deadline == null) {
            throw new ReinException("a model call context was given no deadline (null): give the time the call must end by,"
                    + " Instant.MAX for none");
        }
        stream = stream == null ? StreamObserver.NONE : stream;
    }

    public static ModelCallContext until(Instant deadline) {
        return new ModelCallContext(deadline, StreamObserver.NONE);
    }
}
