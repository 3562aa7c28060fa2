package dev.rein.retrieval;

import dev.rein.ReinException;

/** A retriever could not search or index; the message says what was wrong and what to do. */
public class RetrievalException extends ReinException {
    public RetrievalException(String message) {
        super(message);
    }

    public RetrievalException(String message, Throwable cause) {
        super(message, cause);
    }
}
