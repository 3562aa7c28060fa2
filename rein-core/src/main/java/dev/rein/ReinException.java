package dev.rein;

/**
 * Root of the exceptions Rein throws for programmer and configuration errors: a duplicate tool
 * name, a budget that cannot be priced, an invalid builder value. Anything that happens
 * <em>inside</em> a run (a failing tool, a provider error, an exhausted budget) never surfaces as
 * an exception; it ends the run with a status and a reason instead.
 */
public class ReinException extends RuntimeException {
    public ReinException(String message) {
        super(message);
    }

    public ReinException(String message, Throwable cause) {
        super(message, cause);
    }
}
