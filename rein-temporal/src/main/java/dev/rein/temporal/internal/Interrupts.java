package dev.rein.temporal.internal;

/** Telling a failure a thread's interrupt caused from others. */
public final class Interrupts {
    private Interrupts() {}

    /**
     * Whether an interrupt caused {@code e}: an InterruptedException, or I/O ended by one (InterruptedIOException,
     * ClosedByInterruptException), among its causes. False for null.
     */
    public static boolean caused(Throwable e) {
        for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof InterruptedException || c instanceof java.io.InterruptedIOException
                    || c instanceof java.nio.channels.ClosedByInterruptException) {
                return true;
            }
        }
        return false;
    }
}
