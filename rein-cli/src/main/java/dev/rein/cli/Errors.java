package dev.rein.cli;

import static dev.rein.cli.CommandWords.dashes0;
import static dev.rein.cli.CommandWords.walk;
import static dev.rein.cli.DoubleDash.afterDoubleDash;
import static dev.rein.cli.DoubleDash.textAfterDoubleDashWorks;
import static dev.rein.cli.DoubleDash.withDoubleDash;
import static dev.rein.cli.OptionTypos.tooShort;
import static dev.rein.cli.OptionTypos.unknownOption;

import dev.rein.ReinException;
import dev.rein.internal.text.NearNames;
import dev.rein.internal.text.ShellWords;
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
                message = unknownCommand;
            } else if (exclusive != null) {
                message = exclusive;
            } else if (flag != null) {
                message = flag;
            } else if (e instanceof CommandLine.MissingParameterException || e instanceof CommandLine.UnmatchedArgumentException) {
                CommandLine.Model.CommandSpec spec = e.getCommandLine().getCommandSpec();
                String dashed = textTakenForAnOption(spec, args);
                // an unknown '-z' or '--limit' is a mistyped option; '-5 + 3 は?' is text
                boolean text = dashed != null && !optionShaped(dashed);
                if (text) {
                    // picocli said "Missing required parameter: 'GOAL'" for 'rein run "-5 + 3 は?"', though a goal was given
                    message = "'" + dashed + "' starts with '-', so it was taken for an option; to pass it as text, put -- before it: "
                            + command + withDoubleDash(spec, args, dashed);
                } else if (dashed != null && e instanceof CommandLine.MissingParameterException missingParameter) {
                    // 'rein approve --limit' was told to put -- before '--limit', as if it were a goal like '-5 + 3'
                    message = unknownOptionAndMissing(spec, dashed, missingParameter.getMissing(), args);
                } else if (e instanceof CommandLine.UnmatchedArgumentException && dashed != null) {
                    // picocli said "Unknown options: '--limit', '5'", the option's value taken for another option
                    message = unknownOption(spec, dashed, args);
                } else if (e instanceof CommandLine.UnmatchedArgumentException unmatched) {
                    // a text option's words first: in 'rein approve --reject wrong reason -- -r1' the RUN after '--' (an
                    // application's id may start with '-') is left over because 'reason' took its place, not an option
                    String quoted = optionTextInQuotes(e.getCommandLine().getCommandSpec(), args);
                    if (quoted == null) {
                        quoted = afterDoubleDash(e.getCommandLine().getCommandSpec(), args, unmatched.getUnmatched());
                    }
                    if (quoted == null) {
                        quoted = textInQuotes(e.getCommandLine().getCommandSpec(), args);
                    }
                    if (quoted == null) {
                        quoted = tooMany(e.getCommandLine().getCommandSpec(), unmatched.getUnmatched());
                    }
                    if (quoted == null && !unmatched.getSuggestions().isEmpty()) {
                        quoted = message + "; did you mean " + String.join(" or ", unmatched.getSuggestions()) + "?";
                    }
                    message = quoted == null ? message : quoted;
                } else if (e instanceof CommandLine.MissingParameterException missingParameter) {
                    String said = missing(e.getCommandLine().getCommandSpec(), missingParameter.getMissing(), args);
                    message = said == null ? message : said;
                }
            }
            message = withoutCommandsKeepingNoControl(message, args);
            // the message quotes the arguments: a control character in one must not reach the terminal raw
            env.err().println(command + ": " + Text.visible(message) + " (see '" + command + " --help')");
            return ExitCodes.USAGE;
        };
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

    /** The option of {@code spec} that {@code word} names ({@code --as} of {@code --as=bob}). */
    static CommandLine.Model.OptionSpec option0(CommandLine.Model.CommandSpec spec, String word) {
        return spec.findOption(optionName(word));
    }

    /**
     * For a command whose last parameter is one TEXT ({@code rein reply RUN TEXT}) given several words unquoted
     * ({@code rein reply RUN 会議室 B}): says to quote them, with the command to type; rein run joins a GOAL's words, so
     * the habit carries over. Null when the command has no TEXT or the extra words are something else.
     */
    private static String textInQuotes(CommandLine.Model.CommandSpec spec, String[] args) {
        java.util.List<CommandLine.Model.PositionalParamSpec> positionals = spec.positionalParameters();
        if (positionals.isEmpty() || !positionals.getLast().paramLabel().equals("TEXT")) {
            return null;
        }
        int dashes = dashes0(args, spec);
        if (dashes < args.length) {
            // after '--' every word is an argument: only the words from the TEXT's place on are quoted, '--' kept before
            // them ('rein reply r1 -- --json hi' -> rein reply r1 -- "--json hi"); else null, as quoting them together
            // would put '--' (or a RUN) in the TEXT
            long before = walk(spec, args, null, false).positional().size();
            int textAt = dashes + 1 + (int) (positionals.size() - 1 - before);
            if (before > positionals.size() - 1 || textAt + 1 >= args.length) {
                return null;
            }
            StringBuilder command = new StringBuilder(spec.qualifiedName());
            for (int i = java.util.Arrays.asList(args).indexOf(spec.name()) + 1; i < textAt; i++) {
                command.append(' ').append(shellWord(args[i]));
            }
            java.util.List<String> text = java.util.Arrays.asList(args).subList(textAt, args.length);
            return "the " + spec.name() + " TEXT is one argument, but " + text.size() + " words were given; put it in quotes: "
                    + command + " " + shellWord(String.join(" ", text));
        }
        java.util.List<String> options = new java.util.ArrayList<>();
        java.util.List<String> words = new java.util.ArrayList<>();
        for (int i = java.util.Arrays.asList(args).indexOf(spec.name()) + 1; i < args.length; i++) {
            CommandLine.Model.OptionSpec option = args[i].startsWith("-")
                    ? option0(spec, args[i]) : null;
            if (option == null) {
                words.add(args[i]);
                continue;
            }
            options.add(shellWord(args[i]));
            if (!args[i].contains("=") && option.arity().max() > 0 && i + 1 < args.length) {
                options.add(shellWord(args[++i]));
            }
        }
        int before = positionals.size() - 1; // RUN
        if (words.size() <= positionals.size()) {
            return null;
        }
        StringBuilder command = new StringBuilder(spec.qualifiedName());
        options.forEach(option -> command.append(' ').append(option));
        words.subList(0, before).forEach(word -> command.append(' ').append(shellWord(word)));
        String text = String.join(" ", words.subList(before, words.size()));
        return "the " + spec.name() + " TEXT is one argument, but " + (words.size() - before) + " words were given; put it in quotes: "
                + command + " " + shellWord(text);
    }

    /**
     * For an option whose value is free text ({@code rein approve RUN --reject REASON}) or a person's name
     * ({@code --as NAME}) given several words unquoted ({@code --reject wrong recipient}): says to quote them, with the command to type. The words beyond those the
     * command's parameters take are the option's when they follow its value; null when they do not.
     */
    private static String optionTextInQuotes(CommandLine.Model.CommandSpec spec, String[] args) {
        int start = java.util.Arrays.asList(args).indexOf(spec.name()) + 1;
        int words = 0;
        // each text option's argument, and the number of words right after its value
        java.util.Map<Integer, Integer> following = new java.util.LinkedHashMap<>();
        boolean ended = false;
        for (int i = start; i < args.length; i++) {
            if (!ended && args[i].equals("--")) {
                // no word of the text: the words after it are arguments ('rein approve --reject wrong reason -- -r1', a RUN
                // that starts with '-'), and it ends the words following the option's value
                ended = true;
                continue;
            }
            CommandLine.Model.OptionSpec option = !ended && args[i].startsWith("-") ? option0(spec, args[i]) : null;
            if (option == null) {
                words++;
                int word = i;
                following.replaceAll((at, n) -> n == word - at - (args[at].contains("=") ? 1 : 2) ? n + 1 : n);
                continue;
            }
            // free text, or a person's name ('--as John Smith')
            boolean text = option.paramLabel().equals("REASON") || option.paramLabel().equals("TEXT")
                    || option.longestName().equals("--as");
            if (text) {
                following.putIfAbsent(i, 0);
            }
            if (!args[i].contains("=") && option.arity().max() > 0) {
                i++;
            }
        }
        int extra = words - spec.positionalParameters().size();
        int textOption = following.entrySet().stream().filter(entry -> entry.getValue() >= extra)
                .mapToInt(java.util.Map.Entry::getKey).findFirst().orElse(-1);
        if (textOption < 0 || extra < 1) {
            return null;
        }
        String option = optionName(args[textOption]);
        int value = args[textOption].contains("=") ? textOption : textOption + 1;
        java.util.List<String> text = new java.util.ArrayList<>();
        text.add(value == textOption ? args[textOption].substring(option.length() + 1) : args[value]);
        text.addAll(java.util.Arrays.asList(args).subList(value + 1, value + 1 + extra));
        StringBuilder command = new StringBuilder(spec.qualifiedName());
        for (int i = start; i < args.length; i++) {
            if (i == textOption) {
                command.append(' ').append(option).append(' ').append(shellWord(String.join(" ", text)));
                i = value + extra;
            } else {
                command.append(' ').append(shellWord(args[i]));
            }
        }
        return "the " + option + " " + spec.findOption(option).paramLabel() + " is one argument, but " + text.size()
                + " words were given; put it in quotes: " + command;
    }

    /**
     * Whether an argument is shaped like an option ({@code -z}, {@code --limit}, {@code --max-stpes=5}): a mistyped option
     * rather than text such as a goal "-5 + 3 は?" or "- list the files".
     */
    static boolean optionShaped(String arg) {
        return optionName(arg).matches("-[A-Za-z][A-Za-z0-9]*|--[A-Za-z][A-Za-z0-9_-]*");
    }

    /** Positional parameters whose value is free text, which may start with '-' ({@code rein run "-5 + 3"}). */
    static final java.util.Set<String> TEXT_LABELS = java.util.Set.of("GOAL", "TEXT");

    /**
     * For an unknown option on a command line that also lacks a required argument ({@code rein approve --limit}): the option
     * named as unknown ({@link OptionTypos#unknownOption}), then, when the missing argument is free text the option-shaped word may
     * have been meant as ({@code rein run --max-step}), how to pass it as text; else what to give ({@link #missing}), with an
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

    static String withoutDashes(String option) {
        return option.replaceFirst("^-+", "");
    }

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
            command.append(' ').append(shellWord(args[i]));
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

    /**
     * The example an argument's field carries, or null; for a positional with names to choose from (picocli's
     * completionCandidates: rein example NAME), the first of them.
     */
    static String example(CommandLine.Model.ArgSpec arg) {
        if (arg.isPositional() && arg.completionCandidates() != null && arg.completionCandidates().iterator().hasNext()) {
            return shellWord(arg.completionCandidates().iterator().next());
        }
        return arg.userObject() instanceof java.lang.reflect.Field field && field.isAnnotationPresent(ExampleValue.class)
                ? field.getAnnotation(ExampleValue.class).value() : null;
    }

    /** An argument's description in the help, as the rest of a sentence: "the run id (see 'rein runs')". */
    private static String described(CommandLine.Model.ArgSpec arg) {
        String text = String.join(" ", arg.renderedDescription()).strip();
        if (text.endsWith(".")) {
            text = text.substring(0, text.length() - 1);
        }
        // "The run id" reads on as "the run id"; "MCP servers file" stays as it is
        boolean word = text.length() > 1 && Character.isUpperCase(text.charAt(0)) && Character.isLowerCase(text.charAt(1));
        return word ? Character.toLowerCase(text.charAt(0)) + text.substring(1) : text;
    }

    /**
     * The start of an option's description that says what it is, for a one-line message: its first sentence or clause (up
     * to a '.' ending a sentence or a ';' outside parentheses); when that is still long, without its asides in parentheses,
     * then up to its first ': ' ("let Claude think before answering", not the list of values the help goes on with).
     */
    static String firstClause(String description) {
        String text = cutAt(description, false);
        if (text.length() > CLAUSE) {
            text = withoutAsides(text);
        }
        if (text.length() > CLAUSE) {
            text = cutAt(text, true);
        }
        return text;
    }

    /** How long a clause of a description may be in a one-line message before its asides go. */
    private static final int CLAUSE = 80;

    /** {@code text} up to the end of its first sentence or a ';' (or ': ', when {@code colon}) outside parentheses. */
    private static String cutAt(String text, boolean colon) {
        int depth = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth = Math.max(0, depth - 1);
            } else if (depth == 0 && (c == ';'
                    || (c == '.' || colon && c == ':') && i + 1 < text.length() && text.charAt(i + 1) == ' '
                    && (c == ':' || i + 2 < text.length() && Character.isUpperCase(text.charAt(i + 2))))) {
                return text.substring(0, i).strip();
            }
        }
        return text;
    }

    /** {@code text} without its asides in parentheses. */
    private static String withoutAsides(String text) {
        StringBuilder sb = new StringBuilder();
        int depth = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(') {
                depth++;
                // the blank before the aside goes with it
                if (depth == 1 && !sb.isEmpty() && sb.charAt(sb.length() - 1) == ' ') {
                    sb.setLength(sb.length() - 1);
                }
            } else if (c == ')' && depth > 0) {
                depth--;
            } else if (depth == 0) {
                sb.append(c);
            }
        }
        return sb.toString().strip();
    }

    /** The option an argument names: {@code --reject} of {@code --reject=wrong}. */
    static String optionName(String arg) {
        int equals = arg.indexOf('=');
        return equals < 0 ? arg : arg.substring(0, equals);
    }

    /**
     * {@code word} as a shell gives it back: as it is, in double quotes, or, when it holds what a shell still reads in
     * double quotes ({@code " $ ` \ !}), in single quotes ({@link #singleQuoted}). A word starting with '=' is quoted:
     * zsh reads {@code =ls} as the path of the command ls.
     */
    static String shellWord(String word) {
        return ShellWords.word(word);
    }

    /** {@code word} in single quotes, which every POSIX shell reads as it is: {@code '} itself as {@code '\''}. */
    static String singleQuoted(String word) {
        return ShellWords.singleQuoted(word);
    }

    /**
     * For a command with subcommands given a first word that names none ({@code rein rnu "..."},
     * or {@code rein help rnu}):
     * "unknown command 'rnu'; did you mean run?", the commands whose names are at most one or two
     * edits away (a swap of two letters is one), else the list of commands. Null for other errors.
     */
    static String unknownCommand(ParameterException e) {
        String word;
        if (e instanceof CommandLine.UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
            word = unmatched.getUnmatched().getFirst();
        } else if (e.getArgSpec() == null && e.getValue() != null && e.getMessage() != null
                && e.getMessage().startsWith("Unknown subcommand '")) {
            word = e.getValue(); // picocli's help command: 'rein help rnu'
        } else {
            return null;
        }
        CommandLine.Model.CommandSpec spec = e.getCommandLine().getCommandSpec();
        if (spec.subcommands().isEmpty() || word.startsWith("-")) {
            return null;
        }
        java.util.List<String> names = spec.subcommands().entrySet().stream()
                .filter(entry -> !entry.getValue().getCommandSpec().usageMessage().hidden())
                .map(java.util.Map.Entry::getKey).distinct().toList();
        return unknownName("command", word, names, "the commands are: " + String.join(", ", names));
    }

    /**
     * "unknown KIND 'WORD'; did you mean NAME?" for a slip of one of {@code names} ({@link NearNames#unknown}), else
     * "unknown KIND 'WORD'; OTHERWISE"; but a start of one or two letters of some names is too short to guess from
     * ('rein ru': run or runs?), and often a word of its own: those names are listed ({@link OptionTypos#tooShort}), with no guess.
     * One rule for commands and for the examples' names (rein example NAME), as for options ({@link OptionTypos#unknownOption}).
     */
    static String unknownName(String kind, String word, java.util.List<String> names, String otherwise) {
        String typed = word.strip().toLowerCase(java.util.Locale.ROOT);
        if (typed.isEmpty()) {
            // '' is no start of a name: "too short ... the examples starting with ''" listed every name as if it were
            return "the " + kind + " name is empty; " + otherwise;
        }
        if (typed.codePointCount(0, typed.length()) <= 2) {
            // as for an option: a slip of a name ('rein rn') names it
            java.util.List<String> starting = names.stream().filter(name -> name.startsWith(typed)).toList();
            java.util.List<String> slips = names.stream().filter(name -> !name.startsWith(typed)).toList();
            String near = NearNames.unknown(kind, word, slips, "");
            if (near.contains("; did you mean ")) {
                return near;
            }
            return NearNames.unknown(kind, word, java.util.List.of(), starting.isEmpty() ? otherwise
                    : tooShort(kind, typed, "", starting));
        }
        return NearNames.unknown(kind, word, names, otherwise);
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
