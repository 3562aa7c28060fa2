package dev.rein.cli;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * The process's standard output, remembering why a write failed: {@link PrintStream} swallows write
 * errors, and an answer lost to a full disk must not end the command as a success.
 */
final class StandardOutput extends OutputStream {
    private final OutputStream out = new FileOutputStream(FileDescriptor.out);
    private volatile IOException failure;

    @Override
    public void write(int b) throws IOException {
        try {
            out.write(b);
        } catch (IOException e) {
            throw remember(e);
        }
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        try {
            out.write(bytes, offset, length);
        } catch (IOException e) {
            throw remember(e);
        }
    }

    @Override
    public void flush() throws IOException {
        try {
            out.flush();
        } catch (IOException e) {
            throw remember(e);
        }
    }

    private IOException remember(IOException e) {
        if (failure == null) {
            failure = e;
        }
        return e;
    }

    /**
     * The exit code once the command is done: a write that failed turns success into {@link ExitCodes#FAILED} and
     * is said on {@code err}. A reader that went away ({@code | head}) is not a failure: it took what it wanted.
     */
    int exitCode(int commandCode, PrintStream err) {
        IOException failed = failure;
        if (failed == null || "Broken pipe".equals(failed.getMessage())) {
            return commandCode;
        }
        // a full disk wants room; anything else (a closed stdout, >&-) wants another place to write to
        boolean full = String.valueOf(failed.getMessage()).contains("No space left");
        err.println("rein: could not write to standard output (" + failed.getMessage() + "), so the output is incomplete;"
                + (full ? " write it where there is room, e.g. another file or disk"
                        : " give the command a standard output it can write, e.g. a file (> out.txt) or a pipe"));
        err.flush();
        return commandCode == ExitCodes.SUCCEEDED ? ExitCodes.FAILED : commandCode;
    }
}
