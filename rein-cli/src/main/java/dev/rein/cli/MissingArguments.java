package dev.rein.cli;

import static dev.rein.cli.HelpText.described;
import static dev.rein.cli.HelpText.example;
import static dev.rein.cli.HelpText.firstClause;

import dev.rein.internal.text.ShellWords;
import picocli.CommandLine;

/**
 * The hints of {@link Errors} for a command line with too few or too many arguments: what to give, in the help's words,
 * with an example command ({@code rein approve} lacks its RUN; {@code rein show RUN extra} has a word too many).
 */
final class MissingArguments {
    private MissingArguments() {}

    /**
     * For a command line without a required parameter ({@code rein approve}) or without an option's value
     * ({@code rein approve RUN --reject}): what to give, from its help's description, with an example from its
     * {@link ExampleValue} ("give RUN, the run id (see 'rein runs'), e.g. rein approve run_..."), in place of picocli's
     * "Missing required parameter: 'RUN'". Null when something else is missing, or has no example.
     */
    static String missing(CommandLine.Model.CommandSpec spec, java.util.List<CommandLine.Model.ArgSpec> missing, String[] args) {
        if (missing.isEmpty() || missing.stream().anyMatch(arg -> example(arg) == null)) {
            return null;
        }
        if (missing.getFirst() instanceof CommandLine.Model.OptionSpec option) {
            if (option.arity().max() == 0) {
                return null; // a required flag: none of Rein's commands has one
            }
            return option.longestName() + " needs its " + option.paramLabel() + ": " + firstClause(described(option)) + " (e.g. "
                    + option.longestName() + " " + example(option) + ")";
        }
        StringBuilder command = new StringBuilder(spec.qualifiedName());
        // the words typed after the command, then an example of each missing one: the command line to complete
        for (int i = java.util.Arrays.asList(args).indexOf(spec.name()) + 1; i < args.length; i++) {
            command.append(' ').append(ShellWords.word(args[i]));
        }
        // picocli names only the first missing positional ('RUN' of 'rein reply'); those after it are missing too
        java.util.List<CommandLine.Model.PositionalParamSpec> positionals = spec.positionalParameters();
        java.util.List<CommandLine.Model.ArgSpec> all = new java.util.ArrayList<>(positionals.subList(
                Math.max(0, positionals.indexOf(missing.getFirst())), positionals.size()));
        all.removeIf(arg -> arg.arity().min() == 0 || example(arg) == null);
        java.util.List<String> what = new java.util.ArrayList<>();
        for (CommandLine.Model.ArgSpec arg : all.isEmpty() ? missing : all) {
            what.add(arg.paramLabel() + ", " + described(arg));
            command.append(' ').append(example(arg));
        }
        return "give " + String.join(", and ", what) + ", e.g. " + command;
    }

    /**
     * For words beyond those a command takes ({@code rein show RUN extra}): which they are and what the command takes,
     * with an example, in place of picocli's "Unmatched argument at index 2: 'extra'". Null for other cases (an option
     * picocli does not know, a command with subcommands).
     */
    static String tooMany(CommandLine.Model.CommandSpec spec, java.util.List<String> unmatched) {
        if (unmatched.isEmpty() || !spec.subcommands().isEmpty() || unmatched.stream().anyMatch(arg -> arg.startsWith("-"))
                || spec.positionalParameters().stream().anyMatch(arg -> example(arg) == null)) {
            return null;
        }
        String extra = String.join(", ", unmatched.stream().map(arg -> "'" + arg + "'").toList())
                + (unmatched.size() == 1 ? " is one argument" : " are " + unmatched.size() + " arguments") + " too many: ";
        if (spec.positionalParameters().isEmpty()) {
            return extra + spec.qualifiedName() + " takes no argument, only options";
        }
        java.util.List<String> what = new java.util.ArrayList<>();
        StringBuilder command = new StringBuilder(spec.qualifiedName());
        for (CommandLine.Model.PositionalParamSpec arg : spec.positionalParameters()) {
            what.add(arg.paramLabel() + ", " + described(arg));
            command.append(' ').append(example(arg));
        }
        // a value with spaces is one argument in quotes; a name from a list (rein example NAME) has none
        return extra + spec.qualifiedName() + " takes " + String.join(", and ", what) + ", e.g. " + command
                + (spec.positionalParameters().stream().allMatch(arg -> arg.completionCandidates() != null) ? ""
                        : " (quote a value that has spaces)");
    }
}
