package dev.rein.cli;

import static dev.rein.cli.CommandWords.TEXT_LABELS;
import static dev.rein.cli.CommandWords.option0;
import static dev.rein.cli.CommandWords.optionName;
import static dev.rein.cli.CommandWords.optionShaped;
import static dev.rein.cli.DoubleDash.afterDoubleDash;
import static dev.rein.cli.DoubleDash.textAfterDoubleDashWorks;
import static dev.rein.cli.DoubleDash.withDoubleDash;
import static dev.rein.cli.HelpText.described;
import static dev.rein.cli.HelpText.firstClause;
import static dev.rein.cli.HelpText.withoutAsides;
import static dev.rein.cli.MissingArguments.missing;
import static dev.rein.cli.MissingArguments.tooMany;
import static dev.rein.cli.OptionTypos.unknownOption;
import static dev.rein.cli.TextInQuotes.optionTextInQuotes;
import static dev.rein.cli.TextInQuotes.textInQuotes;
import static dev.rein.cli.UnknownNames.unknownCommand;

import dev.rein.ReinException;
import dev.rein.state.StoreConflictException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;

/**
 * Turns mistakes into one line on stderr and an exit code: usage and configuration errors exit
 * {@link ExitCodes#USAGE} without a stack trace; a bug in Rein itself exits {@link ExitCodes#FAILED}
 * (with the stack trace only when {@code REIN_DEBUG} is set). Which hint a usage error gets is decided here; the hints
 * themselves are worded by {@link UnknownNames}, {@link OptionTypos}, {@link DoubleDash}, {@link TextInQuotes},
 * {@link MissingArguments} and {@link NamedPositionals}, from the help's words ({@link HelpText}).
 */
final class Errors {
    private Errors() {}

    /** Bad arguments: "rein run: MESSAGE (see 'rein run --help')". */
    static IParameterExceptionHandler parameterHandler(CliEnvironment env) {
        return (ParameterException e, String[] args) -> {
            String command = e.getCommandLine().getCommandSpec().qualifiedName();
            String message = withoutCommandsKeepingNoControl(hint(e, args), args);
            // the message quotes the arguments: a control character in one must not reach the terminal raw
            env.err().println(command + ": " + Text.visible(message) + " (see '" + command + " --help')");
            return ExitCodes.USAGE;
        };
    }

    /** What to say of picocli's {@code e} for the command line {@code args}: picocli's message, or in its place a hint. */
    private static String hint(ParameterException e, String[] args) {
        String message = oneLine(e.getMessage());
        String unknownCommand = unknownCommand(e);
        String exclusive = e instanceof CommandLine.MutuallyExclusiveArgsException
                || e instanceof CommandLine.MaxValuesExceededException
                ? exclusiveOptions(e.getCommandLine().getCommandSpec(), args) : null;
        String flag = flagGivenAValue(e);
        if (e instanceof CommandLine.OverwrittenOptionException overwritten
                && overwritten.getOverwritten() instanceof CommandLine.Model.OptionSpec option) {
            // picocli's "should be specified only once" said what was wrong, not what to do
            message = message + givenOnce(option);
        }
        if (e.getArgSpec() != null && message.endsWith(OptionValues.FilePath.FILE_OR_FOLDER)) {
            // the converter, one for every Path, cannot tell a --report FILE, where a folder is refused, from a SUITE
            String label = e.getArgSpec().paramLabel();
            String kind = label.equals("FILE") ? "a file" : label.equals("DIR") ? "a folder" : null;
            if (kind != null) {
                message = message.substring(0, message.length() - OptionValues.FilePath.FILE_OR_FOLDER.length())
                        + "give " + kind + " name";
            }
        }
        if (unknownCommand != null) {
            return unknownCommand;
        } else if (exclusive != null) {
            return exclusive;
        } else if (flag != null) {
            return flag;
        } else if (e instanceof CommandLine.MissingParameterException || e instanceof CommandLine.UnmatchedArgumentException) {
            return missingOrLeftOver(e, args, message);
        }
        return message;
    }

    /**
     * The hint for an argument picocli found missing or left over ({@code message}, picocli's, when there is none): a word
     * starting with '-' that is text, an unknown option, words to quote, an option after {@code --}, words too many, or
     * what to give.
     */
    private static String missingOrLeftOver(ParameterException e, String[] args, String message) {
        CommandLine.Model.CommandSpec spec = e.getCommandLine().getCommandSpec();
        String dashed = textTakenForAnOption(spec, args);
        // an unknown '-z' or '--limit' is a mistyped option; '-5 + 3 は?' is text
        boolean text = dashed != null && !optionShaped(dashed);
        if (text) {
            // picocli said "Missing required parameter: 'GOAL'" for 'rein run "-5 + 3 は?"', though a goal was given
            return "'" + dashed + "' starts with '-', so it was taken for an option; to pass it as text, put -- before it: "
                    + spec.qualifiedName() + withDoubleDash(spec, args, dashed);
        } else if (dashed != null && e instanceof CommandLine.MissingParameterException missingParameter) {
            // 'rein approve --limit' was told to put -- before '--limit', as if it were a goal like '-5 + 3'
            return unknownOptionAndMissing(spec, dashed, missingParameter.getMissing(), args);
        } else if (e instanceof CommandLine.UnmatchedArgumentException && dashed != null) {
            // picocli said "Unknown options: '--limit', '5'", the option's value taken for another option
            return unknownOption(spec, dashed, args);
        } else if (e instanceof CommandLine.UnmatchedArgumentException unmatched) {
            // a text option's words first: in 'rein approve --reject wrong reason -- -r1' the RUN after '--' (an
            // application's id may start with '-') is left over because 'reason' took its place, not an option
            String quoted = optionTextInQuotes(spec, args);
            if (quoted == null) {
                quoted = afterDoubleDash(spec, args, unmatched.getUnmatched());
            }
            if (quoted == null) {
                quoted = textInQuotes(spec, args);
            }
            if (quoted == null) {
                quoted = tooMany(spec, unmatched.getUnmatched());
            }
            if (quoted == null && !unmatched.getSuggestions().isEmpty()) {
                quoted = message + "; did you mean " + String.join(" or ", unmatched.getSuggestions()) + "?";
            }
            return quoted == null ? message : quoted;
        } else if (e instanceof CommandLine.MissingParameterException missingParameter) {
            String said = missing(spec, missingParameter.getMissing(), args);
            return said == null ? message : said;
        }
        return message;
    }

    /** Where the commands a hint offers begin: "...: rein reply r1 hi", "..., e.g. rein run ...". */
    private static final java.util.regex.Pattern OFFERED = java.util.regex.Pattern.compile("(,? e\\.g\\. |: )(?=rein )");

    /**
     * {@code message} without the commands it offers when one holds a control character, with what to do instead: the
     * terminal is shown its escape ({@code \x0a}), which a shell keeps as typed, so 'rein reply r1 "hi\x0athere"' pasted
     * would reply with those letters, not the line break given. Unchanged when no command holds one.
     */
    static String withoutCommandsKeepingNoControl(String message, String[] args) {
        java.util.regex.Matcher offered = OFFERED.matcher(message);
        if (!offered.find()) {
            return message;
        }
        String commands = message.substring(offered.start());
        if (Text.visible(commands).equals(commands)) {
            return message;
        }
        String word = java.util.Arrays.stream(args).filter(a -> !Text.visible(a).equals(a)).findFirst()
                .map(a -> a.startsWith("-") && a.contains("=") ? a.substring(a.indexOf('=') + 1) : a).orElse("");
        return message.substring(0, offered.start()) + "; no command is shown, as '" + word + "' holds a control character,"
                + " which is shown escaped and would not be kept as given: give it in quotes in its place";
    }

    /**
     * The first argument of {@code spec}'s command line that starts with '-' but names none of its
     * options and is no option's value (text such as a goal "-5 + 3?"), or null. Arguments after
     * {@code --} are text already.
     */
    static String textTakenForAnOption(CommandLine.Model.CommandSpec spec, String[] args) {
        int start = java.util.Arrays.asList(args).indexOf(spec.name());
        for (int i = start + 1; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--")) {
                return null;
            }
            if (!arg.startsWith("-") || arg.length() < 2 || arg.matches("-\\d+(\\.\\d+)?")) {
                continue;
            }
            CommandLine.Model.OptionSpec option = option0(spec, arg);
            if (option == null) {
                return arg;
            }
            if (!arg.contains("=") && option.arity().max() > 0) {
                i++; // its value, whatever it looks like
            }
        }
        return null;
    }

    /**
     * For a flag given a value picocli cannot read as true or false ({@code --quiet=yes}): that it takes none, in place of
     * picocli's "'yes' is not a boolean". Null for other errors.
     */
    static String flagGivenAValue(ParameterException e) {
        if (e.getArgSpec() instanceof CommandLine.Model.OptionSpec option && option.arity().max() == 0 && e.getValue() != null
                && e.getMessage() != null && e.getMessage().endsWith("is not a boolean")) {
            return option.longestName() + " is a flag and takes no value, but was given '" + e.getValue() + "'; give "
                    + option.longestName() + " alone to turn it on, or leave it out";
        }
        return null;
    }

    /**
     * For options of one exclusive group given together ({@code rein approve RUN --reject R --edit J}) or one of them given
     * twice: which, and what to give, in place of picocli's "Error: --reject=REASON, --edit=JSON are mutually exclusive" and
     * its internal "expected only one match but got [--reject=REASON | --edit=JSON]={--reject=a} and ...". Null when the
     * command line holds no such options.
     */
    static String exclusiveOptions(CommandLine.Model.CommandSpec spec, String[] args) {
        java.util.List<CommandLine.Model.OptionSpec> given = new java.util.ArrayList<>();
        for (int i = java.util.Arrays.asList(args).indexOf(spec.name()) + 1; i < args.length && !args[i].equals("--"); i++) {
            CommandLine.Model.OptionSpec option = args[i].startsWith("-") ? option0(spec, args[i]) : null;
            if (option == null) {
                continue;
            }
            if (option.group() != null && option.group().exclusive()) {
                given.add(option);
            }
            if (!args[i].contains("=") && option.arity().max() > 0) {
                i++; // its value, whatever it looks like
            }
        }
        java.util.List<CommandLine.Model.OptionSpec> distinct = given.stream().distinct().toList();
        if (distinct.size() >= 2) {
            CommandLine.Model.OptionSpec first = distinct.get(0);
            CommandLine.Model.OptionSpec second = distinct.get(1);
            return first.longestName() + " and " + second.longestName() + " cannot be used together; give one of them: "
                    + first.longestName() + " " + first.paramLabel() + " (" + withoutAsides(firstClause(described(first))) + ") or "
                    + second.longestName() + " " + second.paramLabel() + " (" + withoutAsides(firstClause(described(second))) + ")";
        }
        if (given.size() >= 2) {
            // worded as picocli words it for every other option given twice
            CommandLine.Model.OptionSpec option = given.getFirst();
            return "option '" + option.longestName() + "' (" + option.paramLabel() + ") should be specified only once"
                    + givenOnce(option);
        }
        return null;
    }

    /** What to do about {@code option} given twice: give it once (with the value meant, when it takes one). */
    private static String givenOnce(CommandLine.Model.OptionSpec option) {
        return option.arity().max() > 0 ? "; give it once, with the value meant" : "; give it once";
    }

    /**
     * For an unknown option on a command line that also lacks a required argument ({@code rein approve --limit}): the option
     * named as unknown ({@link OptionTypos#unknownOption}), then, when the missing argument is free text the option-shaped word may
     * have been meant as ({@code rein run --max-step}), how to pass it as text; else what to give ({@link MissingArguments#missing}), with an
     * example without the unknown option.
     */
    private static String unknownOptionAndMissing(CommandLine.Model.CommandSpec spec, String dashed,
            java.util.List<CommandLine.Model.ArgSpec> missing, String[] args) {
        String unknown = unknownOption(spec, dashed, args);
        // the sentence after a "did you mean ...?" starts anew
        String and = unknown.endsWith("?") ? " And" : "; and";
        String or = unknown.endsWith("?") ? " Or" : "; or";
        if (unknown.contains(" given without an option name") && (dashed.contains("=") || OFFERED.matcher(unknown).find())) {
            // 'rein show --run=r1': the command shown is complete, and 'and give RUN' (or '--goal=hi is the GOAL') would say it
            // is not; so for 'rein show --run -r1', whose value picocli took for an unknown option, where 'e.g. rein show -r1
            // run_...' would give that option
            return unknown;
        }
        CommandLine.Model.ArgSpec first = missing.isEmpty() ? null : missing.getFirst();
        // a RUN too, when it reads as an id: an application may name its runs '-r1' (Agent.Builder.runIds); but neither a
        // slip of an option ('--jsno') nor a long option of its own ('rein approve --limit'), where RUN is asked for
        boolean run = first instanceof CommandLine.Model.PositionalParamSpec positional && positional.paramLabel().equals("RUN")
                && !dashed.startsWith("--") && !unknown.endsWith("?") && textAfterDoubleDashWorks(spec, args, dashed, positional);
        if (first instanceof CommandLine.Model.PositionalParamSpec positional && (TEXT_LABELS.contains(positional.paramLabel()) || run)) {
            if (!textAfterDoubleDashWorks(spec, args, dashed, positional)) {
                // 'rein reply -- --text --json RID' would be three words for two places: refused, so not offered
                return unknown;
            }
            return unknown + or + ", if '" + dashed + "' is the " + positional.paramLabel() + ", put -- before it: "
                    + spec.qualifiedName() + withDoubleDash(spec, args, dashed);
        }
        java.util.List<String> rest = new java.util.ArrayList<>(java.util.Arrays.asList(args));
        rest.remove(dashed);
        String said = missing(spec, missing, rest.toArray(String[]::new));
        return said == null ? unknown : unknown + and + " " + said;
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
