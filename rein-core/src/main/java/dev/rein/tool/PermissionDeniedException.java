package dev.rein.tool;

/**
 * Thrown by a handler that refuses an action it is not allowed to take (a host outside the
 * domain allowlist, a record of another tenant). The call ends with
 * {@link ErrorClass#PERMISSION_DENIED} and is never retried.
 */
public class PermissionDeniedException extends Exception {
    public PermissionDeniedException(String message) {
        super(message);
    }
}
