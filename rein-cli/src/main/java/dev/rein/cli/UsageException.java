package dev.rein.cli;

import dev.rein.ReinException;

/**
 * A mistake in how the command was called or configured: a bad option value, a missing API key,
 * an unwritable trace path. The CLI prints its message as one line and exits with
 * {@link ExitCodes#USAGE}; no request is made and no stack trace is shown.
 */
public final class UsageException extends ReinException {
    public UsageException(String message) {
        super(message);
    }
}
