package dev.rein.cli;

import dev.rein.ReinException;
import dev.rein.state.StoreConflictException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;

/**
 * Turns mistakes into one line on stderr and an exit code: usage and configuration errors exit
 * {@link ExitCodes#USAGE} without a stack trace; a bug in Rein itself exits {@link ExitCodes#FAILED}
 * (with the stack trace only when {@code REIN_DEBUG} is set).
 */
final class Errors {
    private Errors() {}

    /** Bad arguments: "rein run: MESSAGE (see 'rein run --help')". */
    static IParameterExceptionHandler parameterHandler(CliEnvironment env) {
        return (ParameterException e, String[] args) -> {
            String command = e.getCommandLine().getCommandSpec().qualifiedName();
            String message = oneLine(e.getMessage());
            if (e instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getSuggestions().isEmpty()) {
                message += "; did you mean " + String.join(" or ", unmatched.getSuggestions()) + "?";
            }
            env.err().println(command + ": " + message + " (see '" + command + " --help')");
            return ExitCodes.USAGE;
        };
    }

    /** Errors while a command runs. */
    static IExecutionExceptionHandler executionHandler(CliEnvironment env) {
        return (Exception e, CommandLine commandLine, CommandLine.ParseResult parsed) -> {
            String command = commandLine.getCommandSpec().qualifiedName();
            if (e instanceof StoreConflictException) {
                // Two commands took up one run at once (two 'rein resume', say): the other one carries it on.
                env.err().println(command + ": " + oneLine(e.getMessage()) + "; another rein command took this run up at the"
                        + " same time and carries it on, so this one did nothing: see 'rein show' for where the run stands");
                return ExitCodes.USAGE;
            }
            if (e instanceof ReinException) {
                env.err().println(command + ": " + oneLine(e.getMessage()));
                return ExitCodes.USAGE;
            }
            env.err().println(command + ": internal error: " + oneLine(String.valueOf(e))
                    + (env.env().containsKey("REIN_DEBUG") ? "" : " (set REIN_DEBUG=1 to see the stack trace)"));
            if (env.env().containsKey("REIN_DEBUG")) {
                e.printStackTrace(env.err());
            }
            return ExitCodes.FAILED;
        };
    }

    /** Messages are printed on one line, whatever the exception put in them, with no control character left raw. */
    static String oneLine(String message) {
        return message == null ? "" : Text.visible(message.strip().replaceAll("\\s*\\R\\s*", "; "));
    }
}
