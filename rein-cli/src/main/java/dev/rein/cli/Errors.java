package dev.rein.cli;

import static dev.rein.cli.CommandWords.dashes0;
import static dev.rein.cli.CommandWords.labelAt;
import static dev.rein.cli.CommandWords.places;
import static dev.rein.cli.CommandWords.textPlace;
import static dev.rein.cli.CommandWords.walk;
import static dev.rein.cli.NamedPositionals.namedPositional;

import dev.rein.ReinException;
import dev.rein.internal.text.NearNames;
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
                    String quoted = afterDoubleDash(e.getCommandLine().getCommandSpec(), args, unmatched.getUnmatched());
                    if (quoted == null) {
                        quoted = textInQuotes(e.getCommandLine().getCommandSpec(), args);
                    }
                    if (quoted == null) {
                        quoted = optionTextInQuotes(e.getCommandLine().getCommandSpec(), args);
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

    /**
     * For an option's name after {@code --} that the command has no place for ({@code rein runs -- --json}): that it was
     * taken as an argument because of {@code --}, and, when it names one of the command's options, the command with it
     * before {@code --}; in place of picocli's "Unknown option: '--json'; did you mean --json?". Null when no unmatched
     * word is an option's name after {@code --}.
     */
    static String afterDoubleDash(CommandLine.Model.CommandSpec spec, String[] args, java.util.List<String> unmatched) {
        java.util.List<String> words = java.util.Arrays.asList(args);
        int start = words.indexOf(spec.name()) + 1;
        int dashes = words.subList(start, words.size()).indexOf("--");
        if (dashes < 0 || unmatched.isEmpty()) {
            return null;
        }
        dashes += start;
        java.util.List<String> after = words.subList(dashes + 1, words.size());
        // an option's name left over, else one that took a place of the command itself ('rein approve -- --as bob r1':
        // '--as' is the RUN, and 'bob r1' are left over)
        // (not one that filled a TEXT place: 'rein reply r1 -- --json hi' protected '--json hi' as the text)
        long before = walk(spec, args, null, false).positional().stream().filter(i -> i < dashes0(args, spec)).count();
        // from the TEXT's place on, when it is after '--', every word is the reply's text ('rein reply RID -- hi --json':
        // the TEXT "hi --json", to quote), never an option to move before '--', which would drop it from the text
        long textAt = textPlace(spec);
        java.util.function.Predicate<String> text = w -> textAt >= before && before + after.indexOf(w) >= textAt;
        String word = unmatched.stream().filter(w -> optionShaped(w) && after.contains(w) && !text.test(w)).findFirst()
                .or(() -> after.stream().filter(w -> optionShaped(w) && option0(spec, w) != null
                        && !text.test(w)).findFirst())
                .orElse(null);
        if (word == null) {
            return null;
        }
        String takes = spec.positionalParameters().isEmpty() ? "takes no argument, only options"
                : "takes only " + String.join(" and ", spec.positionalParameters().stream()
                        .map(CommandLine.Model.PositionalParamSpec::paramLabel).toList());
        String said = "'" + word + "' comes after --, so it was taken as an argument, not an option, and " + spec.qualifiedName()
                + " " + takes;
        if (option0(spec, word) == null) {
            return said;
        }
        // where no command would work, none is shown, only what to do: one option twice after '--' (before it, it would
        // be given twice there), several options after '--', one given before it already, or words left after '--' for a
        // command taking none
        CommandLine.Model.OptionSpec named = option0(spec, word);
        if (after.stream().filter(w -> optionShaped(w) && option0(spec, w) == named).count() > 1) {
            return said + "; " + named.longestName() + " is given twice after --: put it before -- once"
                    + (named.arity().max() > 0 ? ", with the value meant" : "");
        }
        if (after.stream().filter(w -> optionShaped(w) && option0(spec, w) != null).count() > 1) {
            return said + "; to give the options, put them before --";
        }
        if (words.subList(start, dashes).stream().anyMatch(w -> optionShaped(w) && option0(spec, w) == named)) {
            return said + "; " + named.longestName() + " is given before -- already: give it once";
        }
        int valueWords = named.arity().max() > 0 && !word.contains("=") ? 1 : 0;
        if (spec.positionalParameters().isEmpty() && after.size() > 1 + valueWords) {
            return said + "; to give the option, put it before --, and drop the rest";
        }
        // the places the words before '--' leave: rein run's GOAL takes any number
        long open = Math.max(0, places(spec) - walk(spec, args, null, false).positional().size());
        if (after.size() - 1 - valueWords > open) {
            // 'rein approve r1 -- --as bob extra': RUN is given, so 'extra' has no place either way
            return said + "; to give the option, put it before --, and drop the words " + spec.qualifiedName()
                    + " has no place for";
        }
        CommandLine.Model.OptionSpec taking = option0(spec, word);
        if (taking.arity().max() > 0) {
            int w = after.indexOf(word);
            String value = word.contains("=") ? word.substring(word.indexOf('=') + 1)
                    : w + 1 < after.size() ? after.get(w + 1) : null;
            if (value != null && (value.isEmpty() || value.equals("--"))) {
                // '--as= r1', '--as "" r1', '--as -- r1': before '--' it would be refused, empty or with '--' as its value
                return said + "; to give the option, put it before -- with its " + taking.paramLabel() + ", not "
                        + (value.isEmpty() ? "empty" : "'--'");
            }
        } else if (word.contains("=") && !word.substring(word.indexOf('=') + 1).matches("(?i)true|false")) {
            // 'rein reply -- --json=x r1 hi': before '--', '--json=x' is refused as well, a flag taking no value
            return said + "; " + taking.longestName() + " is a flag and takes no value: to give it, put "
                    + taking.longestName() + " before --, without '" + word.substring(word.indexOf('=')) + "'";
        }
        // the words left after it, with those before '--', must still fill the command's places ('rein approve -- --as
        // bob': 'rein approve --as bob' lacks the RUN)
        java.util.List<String> missing = new java.util.ArrayList<>();
        long have = before + after.size() - 1 - (valueWords > 0 && after.indexOf(word) + 1 < after.size() ? 1 : 0);
        long needed = 0;
        for (CommandLine.Model.PositionalParamSpec positional : spec.positionalParameters()) {
            needed += positional.arity().min();
            if (positional.arity().min() > 0 && needed > have) {
                missing.add(positional.paramLabel());
            }
        }
        if (!missing.isEmpty()) {
            return said + "; to give the option, put it before --, and give the " + String.join(" and the ", missing);
        }
        if (option0(spec, word).arity().max() > 0 && !word.contains("=") && after.indexOf(word) + 1 >= after.size()) {
            // no value after it: no command, as for a positional's name without one ('give the LABEL in its place'); an
            // example value, or the placeholder, pasted unchanged would record a decision by "alice" or by "NAME"
            return said + "; to give the option, put it before --, and give the " + option0(spec, word).paramLabel()
                    + " in its place";
        }
        // the option before '--', with its value when it takes one ('--as bob'); the other words after it stay after it
        StringBuilder command = new StringBuilder(spec.qualifiedName());
        words.subList(start, dashes).forEach(w -> command.append(' ').append(shellWord(w)));
        command.append(' ').append(shellWord(word));
        java.util.List<String> rest = new java.util.ArrayList<>(after);
        int at = rest.indexOf(word);
        rest.remove(at);
        if (option0(spec, word).arity().max() > 0 && !word.contains("=")) {
            command.append(' ').append(shellWord(rest.remove(at)));
        }
        if (!rest.isEmpty()) {
            command.append(" --");
            rest.forEach(w -> command.append(' ').append(shellWord(w)));
        }
        return said + "; to give the option, put it before --: " + command;
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
        for (int i = start; i < args.length; i++) {
            CommandLine.Model.OptionSpec option = args[i].startsWith("-") ? option0(spec, args[i]) : null;
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
     * named as unknown ({@link #unknownOption}), then, when the missing argument is free text the option-shaped word may
     * have been meant as ({@code rein run --max-step}), how to pass it as text; else what to give ({@link #missing}), with an
     * example without the unknown option.
     */
    private static String unknownOptionAndMissing(CommandLine.Model.CommandSpec spec, String dashed,
            java.util.List<CommandLine.Model.ArgSpec> missing, String[] args) {
        String unknown = unknownOption(spec, dashed, args);
        // the sentence after a "did you mean ...?" starts anew
        String and = unknown.endsWith("?") ? " And" : "; and";
        String or = unknown.endsWith("?") ? " Or" : "; or";
        if (dashed.contains("=") && unknown.contains(" given without an option name")) {
            return unknown; // 'rein show --run=r1': the command shown is complete, and 'and give RUN' (or '--goal=hi is the GOAL') would say it is not
        }
        CommandLine.Model.ArgSpec first = missing.isEmpty() ? null : missing.getFirst();
        if (first instanceof CommandLine.Model.PositionalParamSpec positional && TEXT_LABELS.contains(positional.paramLabel())) {
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

    /**
     * Whether {@code args} with {@code --} put before {@code dashed} make a command line the command takes, with
     * {@code dashed} as {@code text}: the words then positional fill the places with none left over, and {@code dashed}
     * lands in the text's place ({@code rein reply --run --json} would make '--run' the RUN).
     */
    private static boolean textAfterDoubleDashWorks(CommandLine.Model.CommandSpec spec, String[] args, String dashed,
            CommandLine.Model.PositionalParamSpec text) {
        java.util.List<String> moved = new java.util.ArrayList<>(java.util.Arrays.asList(args));
        int at = moved.subList(moved.indexOf(spec.name()) + 1, moved.size()).indexOf(dashed) + moved.indexOf(spec.name()) + 1;
        moved.add(at, "--");
        String[] line = moved.toArray(String[]::new);
        java.util.List<Integer> positional = walk(spec, line, null, true).positional();
        if (moved.subList(at + 1, moved.size()).stream().anyMatch(w -> optionShaped(w) && option0(spec, w) != null
                || w.equals("--"))) {
            // 'rein run --goal --json': '-- --goal --json' would make the '--json' meant as an option part of the goal,
            // and 'rein run --goal --' the user's own '--'
            return false;
        }
        long needed = spec.positionalParameters().stream().mapToLong(p -> p.arity().min()).sum();
        return positional.size() <= places(spec) && positional.size() >= needed
                && text.paramLabel().equals(labelAt(spec, positional.indexOf(at + 1)));
    }

    /**
     * For an argument that starts with '-' and names none of the command's options ({@code rein runs --limit 5}): "unknown
     * option '--limit'", with the options whose first words it is ({@code --max-cost-usd} for {@code --max-cost}), else
     * those it is a slip for ({@link #nearMiss}), else those whose first words it begins with ({@code --trace} for
     * {@code --trace-file}), else the command's options (not those that only begin with the same letters, which mean
     * something else); for a positional parameter's name ({@code --suite}), to give it without one. In place of picocli's
     * "Unknown options: '--limit', '5'", which took
     * the option's value for another option.
     */
    static String unknownOption(CommandLine.Model.CommandSpec spec, String arg, String[] args) {
        java.util.List<String> names = spec.options().stream().filter(option -> !option.hidden())
                .map(CommandLine.Model.OptionSpec::longestName).distinct().toList();
        String name = optionName(arg);
        String options = "the options of " + spec.qualifiedName() + " are: " + String.join(", ", names);
        CommandLine run = spec.root().subcommands().get("run");
        if (CONTINUING.contains(spec.name()) && spec.parent() == spec.root() && run != null
                && run.getCommandSpec().findOption(name) != null) {
            // not a typo: 'did you mean --max-tokens?' for --max-steps offered another option with another meaning
            String runs = run.getCommandSpec().qualifiedName();
            String option = run.getCommandSpec().findOption(name).longestName();
            if (option.equals("--as")) {
                // --as names who approvals given while rein run runs are recorded as: nothing a run keeps
                return "unknown option '" + name + "': it is an option of " + runs + " (who approvals given while it runs are"
                        + " recorded as); " + spec.qualifiedName() + " asks for none: decide a waiting action with "
                        + spec.root().qualifiedName() + " approve RUN --as NAME; " + options;
            }
            return "unknown option '" + name + "': it is an option of " + runs + ", and a run keeps the "
                    + KEPT.getOrDefault(option, "settings")
                    + " it started with, so " + spec.qualifiedName() + " has none; " + options;
        }
        // the word names one of the command's positional parameters (rein eval --suite s.yaml): no option was meant
        for (CommandLine.Model.PositionalParamSpec positional : spec.positionalParameters()) {
            if (positional.paramLabel().equalsIgnoreCase(withoutDashes(name)) && !positional.hidden()) {
                return NearNames.unknown("option", name, java.util.List.of(), namedPositional(spec, positional, args));
            }
        }
        // A suggestion is a typo or an abbreviation of the option, compared part by part (the words between hyphens), never
        // another word that merely begins as it does: --out is no --output-schema FILE (accepting it would pass a wrong
        // file), --reason no --reasoning-effort, --reason no --reject REASON, which would reject what 'rein approve RUN
        // --reason ok' meant to approve. In order: options whose first words are the word's (--max-cost of --max-cost-usd,
        // however far, hyphens given or not, or one or two letters after them, --max-s: startOf; one or two letters
        // alone, -a or --re, are only listed with the options they begin: tooShort); then those near it (nearMiss); then
        // those whose words
        // are the first of the word's (--trace of --trace-file). Abbreviations are only suggested, never accepted, so a
        // script's --max-cost does not come to mean another option when one is added.
        // the exact name of another command's option (--price of rein run given to rein demo, --mcp-instructions to rein
        // eval) is no typo: only an option of its kind (a flag for a flag) that begins as it does or is one edit from it is
        // offered, not one two edits away (--trace for --price) or taking a value where it takes none (--mcp FILE would
        // take the next word)
        CommandLine.Model.OptionSpec elsewhere = optionOfAnotherCommand(spec, name);
        java.util.function.Predicate<String> ofItsKind = option -> elsewhere == null
                || (spec.findOption(option).arity().max() > 0) == (elsewhere.arity().max() > 0);
        // compared without dashes: with them '-a' was the start of no option, so 'rein approve RUN -a HASH' was offered
        // only --as (one letter from 'a'), which approves as HASH, and not --action, which picks the action
        String typed = withoutDashes(name).toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        if (!typed.contains("-") && typed.codePointCount(0, typed.length()) <= 2) {
            // the whole name with one dash (-as) or a slip of it (--sa: a swap, or the key beside) names the option; only
            // a start of one or two letters is too short to say which option was meant, and often a word of its own
            // (--re, --to): the options starting with it are listed, with no guess among them
            java.util.List<String> meant = names.stream().filter(ofItsKind).filter(option -> withoutDashes(option).equals(typed)
                    || (!withoutDashes(option).startsWith(typed) && nearMiss(typed, withoutDashes(option)))).toList();
            if (!meant.isEmpty()) {
                return NearNames.unknown("option", name, java.util.List.of(), "did you mean " + String.join(" or ", meant) + "?");
            }
            java.util.List<String> starting = names.stream().filter(option -> withoutDashes(option).startsWith(typed)).toList();
            return NearNames.unknown("option", name, java.util.List.of(), starting.isEmpty() ? options
                    : tooShort("option", typed, " of " + spec.qualifiedName(), starting));
        }
        java.util.List<String> started = names.stream().filter(ofItsKind)
                .filter(option -> startOf(typed, withoutDashes(option))).toList();
        if (!started.isEmpty()) {
            return NearNames.unknown("option", name, java.util.List.of(), "did you mean " + String.join(" or ", started) + "?");
        }
        // another command's option is offered only one of its kind a letter away (--trace FILE for --traces DIR)
        java.util.List<String> near = names.stream().filter(ofItsKind)
                .filter(option -> nearMiss(typed, withoutDashes(option)))
                .filter(option -> elsewhere == null || NearNames.editDistance(typed, withoutDashes(option)) <= 1)
                .sorted(java.util.Comparator.comparingInt(option -> NearNames.editDistance(typed, withoutDashes(option))))
                .toList();
        // near beats an option the word begins with (--mcp-instructons is --mcp-instructions misspelt, not --mcp FILE,
        // which would take the instructions as its file; --json-streams is --json-stream, not --json)
        if (!near.isEmpty()) {
            return NearNames.unknown("option", name, java.util.List.of(), "did you mean " + String.join(" or ", near) + "?");
        }
        // a slip of another command's option (--mcp-instructons of rein run, given to rein eval) is no option of this one
        // that it begins with (--mcp FILE would take the text for its file): it is named as the other command's
        String others = elsewhere == null ? nearOptionOfAnotherCommand(spec, typed) : null;
        if (others != null) {
            return NearNames.unknown("option", name, java.util.List.of(), "it is near " + others + " that "
                    + spec.qualifiedName() + " does not have; " + options);
        }
        java.util.List<String> prefixes = names.stream()
                .filter(option -> typed.startsWith(withoutDashes(option) + "-")).filter(ofItsKind).toList();
        if (!prefixes.isEmpty()) {
            return NearNames.unknown("option", name, java.util.List.of(), "did you mean " + String.join(" or ", prefixes) + "?");
        }
        return NearNames.unknown("option", name, java.util.List.of(), options);
    }

    /**
     * Whether {@code typed} (an unknown option's name, without dashes, lower case, '_' as '-') is a start of {@code option}
     * meant as it: a single letter it begins with ({@code a} of {@code action}); its first words, hyphens given or not
     * ({@code max-cost}, {@code maxcost} of {@code max-cost-usd}); or those then a start of one or two letters of the next
     * word, too short to be a word of its own ({@code max-s} of {@code max-steps}). (A start of one or two letters alone
     * never gets here: {@link #unknownOption} lists the options it begins.) A longer start is another
     * word more often than not ({@code out} is no {@code output-schema}, {@code reason} no {@code reasoning-effort}).
     */
    static boolean startOf(String typed, String option) {
        if (typed.isEmpty()) {
            return false;
        }
        if (typed.length() == 1) {
            return option.startsWith(typed);
        }
        String[] its = option.split("-", -1);
        String joined = "";
        for (int k = 0; k < its.length - 1; k++) {
            joined += its[k];
            if (joined.equals(typed.replace("-", ""))) {
                return true;
            }
        }
        String[] words = typed.split("-", -1);
        int last = words.length - 1;
        if (last >= its.length || words[last].isEmpty() || words[last].length() > 2 || words[last].equals(its[last])
                || !its[last].startsWith(words[last])) {
            return false;
        }
        for (int i = 0; i < last; i++) {
            if (!words[i].equals(its[i])) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether {@code typed} (an unknown option's name, without dashes, lower case, '_' as '-') is a plausible slip for
     * {@code option}: part by part (the words between hyphens, as many in each), every part the option's own, an
     * abbreviation of it (its first two letters, then others of it in order: {@code secs} of {@code seconds}, not of
     * {@code steps}), or a typo of it ({@link #typoOf}); or, hyphens left out of both, the same letters or one slip from
     * them ({@code maxsteps}, {@code maxstep}). In a name of one word of up to four letters a replaced letter as often makes
     * another word ({@code exit}, {@code edit}), so there it is taken only for the key beside it in the same keyboard row
     * ({@code mco}, {@code jsom}); in a longer name the other words say which was meant ({@code mac-steps}).
     */
    static boolean nearMiss(String typed, String option) {
        boolean short1 = !option.contains("-") && option.length() <= 4;
        String bare = typed.replace("-", "");
        String itsBare = option.replace("-", "");
        if (bare.equals(itsBare) || (!short1 && bare.length() >= 4 && NearNames.editDistance(bare, itsBare) == 1)) {
            return true;
        }
        String[] words = typed.split("-", -1);
        String[] its = option.split("-", -1);
        if (words.length != its.length) {
            return false;
        }
        for (int i = 0; i < words.length; i++) {
            if (!words[i].equals(its[i]) && !abbreviates(words[i], its[i]) && !typoOf(words[i], its[i], short1)) {
                return false;
            }
        }
        return true;
    }

    /** {@code word} is shorter than {@code full}, begins with its first two letters, and its other letters follow in it in order. */
    private static boolean abbreviates(String word, String full) {
        if (word.length() < 2 || word.length() >= full.length() || !full.startsWith(word.substring(0, 2))) {
            return false;
        }
        int at = 2;
        for (int i = 2; i < word.length(); i++) {
            at = full.indexOf(word.charAt(i), at) + 1;
            if (at == 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@code word} is a slip for {@code full}: one letter left out, added, replaced or swapped with its neighbour (in a
     * {@code shortName}, replaced only by the key beside it: see {@link #nearMiss}); or, in a word of five letters or more,
     * two slips one of which is a swap ({@code trail} of {@code trials}, {@code stpe} of {@code steps}, but not {@code secs},
     * two letters from {@code steps}, which abbreviates {@code seconds}); or two of any kind in one of eight or more.
     */
    private static boolean typoOf(String word, String full, boolean shortName) {
        int edits = NearNames.editDistance(word, full);
        int length = full.codePointCount(0, full.length());
        if (edits == 1 && shortName && word.length() == full.length()) {
            int first = 0;
            while (word.charAt(first) == full.charAt(first)) {
                first++;
            }
            boolean swapped = first + 1 < word.length() && word.charAt(first) == full.charAt(first + 1)
                    && word.charAt(first + 1) == full.charAt(first);
            return swapped || besideInARow(word.charAt(first), full.charAt(first));
        }
        // two slips, one of them a swap, the other a letter left out or added or another swap (trail: trials, stpe:
        // steps, sptes: steps), in a word that starts as the option's does: a replaced letter besides a swap, or another
        // first letter, made unrelated words alike (suite: quiet, quote: quiet, caution: action)
        if (edits == 2 && length >= 5 && word.charAt(0) == full.charAt(0)) {
            for (int i = 0; i + 1 < word.length(); i++) {
                String unswapped = swapped(word, i);
                if (NearNames.editDistance(unswapped, full) == 1
                        && (unswapped.length() != full.length() || oneSwapFrom(unswapped, full))) {
                    return true;
                }
            }
        }
        return edits == 1 || (edits == 2 && length >= 8);
    }

    /** {@code word} with its letters at {@code i} and {@code i + 1} swapped. */
    private static String swapped(String word, int i) {
        return word.substring(0, i) + word.charAt(i + 1) + word.charAt(i) + word.substring(i + 2);
    }

    /** Whether swapping two neighbouring letters of {@code word} gives {@code full}. */
    private static boolean oneSwapFrom(String word, String full) {
        for (int i = 0; i + 1 < word.length(); i++) {
            if (swapped(word, i).equals(full)) {
                return true;
            }
        }
        return false;
    }

    private static final java.util.List<String> KEY_ROWS = java.util.List.of("qwertyuiop", "asdfghjkl", "zxcvbnm");

    /** {@code a} and {@code b} are neighbouring keys in a row of a QWERTY keyboard, the likeliest letter to hit instead. */
    private static boolean besideInARow(char a, char b) {
        for (String row : KEY_ROWS) {
            int at = row.indexOf(a);
            if (at >= 0 && (row.indexOf(b) == at - 1 || row.indexOf(b) == at + 1)) {
                return true;
            }
        }
        return false;
    }

    /**
     * "too short to tell which KIND was meant: the KINDs OF starting with 'TYPED' are: A, B; give the whole name" for a
     * start of one or two letters, where any guess among the names it begins is as likely wrong as right; with one such
     * name, "the only KIND OF starting with 'TYPED' is A; give the whole name" ({@code of}: " of rein run", or "").
     */
    private static String tooShort(String kind, String typed, String of, java.util.List<String> starting) {
        if (starting.size() == 1) {
            return "the only " + kind + of + " starting with '" + typed + "' is " + starting.getFirst() + "; give the whole name";
        }
        return "too short to tell which " + kind + " was meant: the " + kind + "s" + of + " starting with '" + typed + "' are: "
                + String.join(", ", starting) + "; give the whole name";
    }

    /**
     * "--mcp-instructions, an option of rein run" when {@code typed} (without dashes) is a slip ({@link #nearMiss}) for an
     * option of other rein commands than {@code spec}'s and of none of its own; else null.
     */
    private static String nearOptionOfAnotherCommand(CommandLine.Model.CommandSpec spec, String typed) {
        java.util.Map<String, java.util.List<String>> owners = new java.util.TreeMap<>();
        java.util.Deque<CommandLine> commands = new java.util.ArrayDeque<>(java.util.List.of(spec.root().commandLine()));
        while (!commands.isEmpty()) {
            CommandLine command = commands.pop();
            if (command.getCommandSpec() != spec) {
                for (CommandLine.Model.OptionSpec option : command.getCommandSpec().options()) {
                    if (!option.hidden() && spec.findOption(option.longestName()) == null
                            && nearMiss(typed, withoutDashes(option.longestName()))) {
                        java.util.List<String> of = owners.computeIfAbsent(option.longestName(), k -> new java.util.ArrayList<>());
                        if (!of.contains(command.getCommandSpec().qualifiedName())) {
                            of.add(command.getCommandSpec().qualifiedName());
                        }
                    }
                }
            }
            command.getSubcommands().values().stream().distinct().forEach(commands::push);
        }
        if (owners.isEmpty()) {
            return null;
        }
        return String.join(", and ", owners.entrySet().stream().map(entry -> entry.getKey() + ", an option of "
                + String.join(" and ", entry.getValue().stream().sorted().toList())).toList());
    }

    /** The option named {@code name} of a rein command other than {@code spec}'s, or null. */
    private static CommandLine.Model.OptionSpec optionOfAnotherCommand(CommandLine.Model.CommandSpec spec, String name) {
        java.util.Deque<CommandLine> commands = new java.util.ArrayDeque<>(java.util.List.of(spec.root().commandLine()));
        while (!commands.isEmpty()) {
            CommandLine command = commands.pop();
            CommandLine.Model.OptionSpec option = command.getCommandSpec().findOption(name);
            if (command.getCommandSpec() != spec && option != null && !option.hidden()) {
                return option;
            }
            command.getSubcommands().values().stream().distinct().forEach(commands::push);
        }
        return null;
    }

    static String withoutDashes(String option) {
        return option.replaceFirst("^-+", "");
    }

    /**
     * What a stored run keeps of each of rein run's options that rein resume and rein reply do not have (RunSettings), as
     * said of the option given: "a run keeps the model it started with" for --model.
     */
    private static final java.util.Map<String, String> KEPT = java.util.Map.ofEntries(
            java.util.Map.entry("--model", "model"),
            java.util.Map.entry("--tools", "tools"), java.util.Map.entry("--memory", "tools"), java.util.Map.entry("--docs", "tools"),
            java.util.Map.entry("--web-search", "tools"), java.util.Map.entry("--finish", "tools"),
            java.util.Map.entry("--system", "system prompt"), java.util.Map.entry("--mcp-instructions", "system prompt"),
            java.util.Map.entry("--max-steps", "budgets"), java.util.Map.entry("--max-cost-usd", "budgets"),
            java.util.Map.entry("--max-seconds", "budgets"),
            java.util.Map.entry("--thinking", "--thinking and --reasoning-effort"),
            java.util.Map.entry("--reasoning-effort", "--thinking and --reasoning-effort"),
            java.util.Map.entry("--output-schema", "output schema"));

    /** The commands that continue a stored run with the settings it started with. */
    private static final java.util.Set<String> CONTINUING = java.util.Set.of("resume", "reply");

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
        // a value with spaces is one argument in quotes
        return extra + spec.qualifiedName() + " takes " + String.join(", and ", what) + ", e.g. " + command
                + " (quote a value that has spaces)";
    }

    /** The example an argument's field carries, or null. */
    static String example(CommandLine.Model.ArgSpec arg) {
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
     * double quotes ({@code " $ ` \ !}), in single quotes ({@code '} itself as {@code '\''}).
     */
    static String shellWord(String word) {
        if (word.matches("[A-Za-z0-9_./:=,@%+-]+")) {
            return word;
        }
        if (word.chars().noneMatch(c -> c == '"' || c == '$' || c == '`' || c == '\\' || c == '!')) {
            return "\"" + word + "\"";
        }
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /** The command's arguments as typed, with {@code --} before {@code dashed}; quoted where a shell needs it. */
    private static String withDoubleDash(CommandLine.Model.CommandSpec spec, String[] args, String dashed) {
        StringBuilder sb = new StringBuilder();
        boolean inserted = false;
        for (int i = java.util.Arrays.asList(args).indexOf(spec.name()) + 1; i < args.length; i++) {
            if (!inserted && args[i].equals(dashed)) {
                sb.append(" --");
                inserted = true;
            }
            sb.append(' ').append(shellWord(args[i]));
        }
        return sb.toString();
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
     * ('rein ru': run or runs?), and often a word of its own: those names are listed ({@link #tooShort}), with no guess.
     * One rule for commands and for the examples' names (rein example NAME), as for options ({@link #unknownOption}).
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
