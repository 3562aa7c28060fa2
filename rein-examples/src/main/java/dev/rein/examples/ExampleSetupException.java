package dev.rein.examples;

import dev.rein.ReinException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;

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

    /**
     * A temporary directory for {@code what} could not be created under {@code java.io.tmpdir}: names that folder,
     * why, and how to choose another (the JDK's own message is only the new directory's path).
     *
     * @param what what the directory was for, e.g. "the workspace"
     * @param cause the failure of {@link java.nio.file.Files#createTempDirectory(String, java.nio.file.attribute.FileAttribute[])}
     */
    public static ExampleSetupException noTemporaryDirectory(String what, IOException cause) {
        String why = cause instanceof NoSuchFileException ? "that folder does not exist"
                : cause instanceof AccessDeniedException ? "this user may not write in that folder"
                : cause.getMessage() == null || cause.getMessage().isBlank() ? cause.getClass().getSimpleName()
                : cause.getMessage().strip();
        return new ExampleSetupException("cannot create a temporary directory for " + what + " in "
                + System.getProperty("java.io.tmpdir") + " (java.io.tmpdir): " + why
                + "; give a writable folder with -Djava.io.tmpdir=DIR (for ./rein: REIN_JAVA_OPTS=-Djava.io.tmpdir=DIR)",
                cause);
    }
}
