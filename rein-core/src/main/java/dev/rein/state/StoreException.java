package dev.rein.state;

import dev.rein.ReinException;

/** A run store could not read or write (I/O, SQL, a snapshot it cannot parse). */
public class StoreException extends ReinException {
    public StoreException(String message) {
        super(message);
    }

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
