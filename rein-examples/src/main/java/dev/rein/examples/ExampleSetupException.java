package dev.rein.examples;

import dev.rein.ReinException;

/**
 * An example could not set up its world: a program it needs is missing, a temporary directory or
 * a local port could not be had. The message says what was missing and what to do.
 */
public class ExampleSetupException extends ReinException {
    public ExampleSetupException(String message) {
        super(message);
    }

    public ExampleSetupException(String message, Throwable cause) {
        super(message, cause);
    }
}
