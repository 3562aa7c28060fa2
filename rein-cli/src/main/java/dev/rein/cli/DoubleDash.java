package dev.rein.cli;

import static dev.rein.cli.CommandWords.dashes0;
import static dev.rein.cli.CommandWords.labelAt;
import static dev.rein.cli.CommandWords.option0;
import static dev.rein.cli.CommandWords.optionShaped;
import static dev.rein.cli.CommandWords.places;
import static dev.rein.cli.CommandWords.textPlace;
import static dev.rein.cli.CommandWords.walk;

import dev.rein.internal.text.Controls;
import dev.rein.internal.text.ShellWords;
import picocli.CommandLine;

/**
 * The hints of {@link Errors} about {@code --}: an option's name after it taken as an argument ({@code rein runs -- --json}),
 * and {@code --} put before a word starting with '-' that is text ({@code rein run -- -5}).
 */
final class DoubleDash {
    private DoubleDash() {}

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
        // not one that filled a TEXT place: 'rein reply r1 -- --json hi' protected '--json hi' as the text
        long before = walk(spec, args, null, false).positional().stream().filter(i -> i < dashes0(args, spec)).count();
        String word = optionNameAfter(spec, after, before, unmatched);
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
        String noCommand = whyNoCommandWorks(spec, args, words.subList(start, dashes), after, before, word);
        if (noCommand != null) {
            return said + "; " + noCommand;
        }
        return said + "; to give the option, put it before --: " + withTheOptionBefore(spec, words.subList(start, dashes), after, word);
    }

    /**
     * The word after {@code --} to speak of: an option's name left over ({@code unmatched}), else one that took a place of
     * the command itself ('rein approve -- --as bob r1': '--as' is the RUN, and 'bob r1' are left over); never one in the
     * TEXT's place or after it ({@code before}: the positional words before {@code --}). Null when there is none.
     */
    private static String optionNameAfter(CommandLine.Model.CommandSpec spec, java.util.List<String> after, long before,
            java.util.List<String> unmatched) {
        // from the TEXT's place on, when it is after '--', every word is the reply's text ('rein reply RID -- hi --json':
        // the TEXT "hi --json", to quote), never an option to move before '--', which would drop it from the text
        long textAt = textPlace(spec);
        java.util.function.Predicate<String> text = w -> textAt >= before && before + after.indexOf(w) >= textAt;
        return unmatched.stream().filter(w -> optionShaped(w) && after.contains(w) && !text.test(w)).findFirst()
                .or(() -> after.stream().filter(w -> optionShaped(w) && option0(spec, w) != null
                        && !text.test(w)).findFirst())
                .orElse(null);
    }

    /**
     * What to do, without a command, when moving the option {@code word} before {@code --} would make no command line
     * the command takes: the option twice after '--' (before it, it would be given twice there), several options after
     * '--', one given before it already ({@code given}, the words between the command's name and {@code --}), words left
     * after '--' with no place, an empty value or a flag's value, places still unfilled, or no value for it. Null when the
     * command with the option moved works.
     */
    private static String whyNoCommandWorks(CommandLine.Model.CommandSpec spec, String[] args, java.util.List<String> given,
            java.util.List<String> after, long before, String word) {
        CommandLine.Model.OptionSpec named = option0(spec, word);
        if (after.stream().filter(w -> optionShaped(w) && option0(spec, w) == named).count() > 1) {
            return named.longestName() + " is given twice after --: put it before -- once"
                    + (named.arity().max() > 0 ? ", with the value meant" : "");
        }
        if (after.stream().filter(w -> optionShaped(w) && option0(spec, w) != null).count() > 1) {
            return "to give the options, put them before --";
        }
        if (given.stream().anyMatch(w -> optionShaped(w) && option0(spec, w) == named)) {
            return named.longestName() + " is given before -- already: give it once";
        }
        int valueWords = named.arity().max() > 0 && !word.contains("=") ? 1 : 0;
        if (spec.positionalParameters().isEmpty() && after.size() > 1 + valueWords) {
            java.util.List<String> rest = unplaced(spec, args, after, word, valueWords);
            return "to give the option, put it before --, and drop the rest" + (rest.isEmpty() ? "" : " (" + quotedWords(rest) + ")");
        }
        // the places the words before '--' leave: rein run's GOAL takes any number
        long givenBefore = walk(spec, args, null, false).positional().size();
        long open = Math.max(0, places(spec) - givenBefore);
        // 'rein approve r1 hi -- --as=bob': 'hi' has no place before '--' either, so 'rein approve r1 hi --as=bob',
        // which picocli refuses, is no command to offer
        if (givenBefore > places(spec) || after.size() - 1 - valueWords > open) {
            // 'rein approve r1 -- --as bob extra': RUN is given, so 'extra' has no place either way
            java.util.List<String> unplaced = unplaced(spec, args, after, word, valueWords);
            java.util.List<CommandLine.Model.PositionalParamSpec> positionals = spec.positionalParameters();
            if (!unplaced.isEmpty() && positionals.getLast().paramLabel().equals("TEXT")) {
                // past the TEXT's place they are the text's own words ('rein reply r1 hi there -- --json': 'there' is
                // the reply's), to be quoted as without '--', not dropped
                java.util.List<String> words = positionalWords(spec, args, after, word, valueWords);
                String text = String.join(" ", words.subList(positionals.size() - 1, words.size()));
                // a control character would be shown escaped ('\x1b'), which pasted is other text: no quoted text then, as
                // the memory hints give no command
                return "to give the option, put it before --, and put the TEXT in quotes, one argument"
                        + (text.codePoints().anyMatch(Controls::isControl) ? "" : ": " + ShellWords.word(text));
            }
            return "to give the option, put it before --, and drop the " + (unplaced.isEmpty() ? "words"
                    : (unplaced.size() == 1 ? "word " : "words ") + quotedWords(unplaced) + ", which") + " "
                    + spec.qualifiedName() + " has no place for";
        }
        String value = valueRefused(named, after, word);
        if (value != null) {
            return value;
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
            return "to give the option, put it before --, and give the " + String.join(" and the ", missing);
        }
        if (named.arity().max() > 0 && !word.contains("=") && after.indexOf(word) + 1 >= after.size()) {
            // no value after it: no command, as for a positional's name without one ('give the LABEL in its place'); an
            // example value, or the placeholder, pasted unchanged would record a decision by "alice" or by "NAME"
            return "to give the option, put it before --, and give the " + named.paramLabel() + " in its place";
        }
        return null;
    }

    /**
     * The positional words, before {@code --} and after it but for the option {@code word} and its value ({@code
     * valueWords}), that come after every place of the command is filled: those a person is told to drop, to be named.
     */
    private static java.util.List<String> unplaced(CommandLine.Model.CommandSpec spec, String[] args, java.util.List<String> after,
            String word, int valueWords) {
        java.util.List<String> positional = positionalWords(spec, args, after, word, valueWords);
        return positional.subList((int) Math.min(positional.size(), places(spec)), positional.size());
    }

    /** The positional words, before {@code --} and after it but for the option {@code word} and its value, in order. */
    private static java.util.List<String> positionalWords(CommandLine.Model.CommandSpec spec, String[] args,
            java.util.List<String> after, String word, int valueWords) {
        java.util.List<String> positional = new java.util.ArrayList<>();
        walk(spec, args, null, false).positional().forEach(i -> positional.add(args[i]));
        int at = after.indexOf(word);
        for (int i = 0; i < after.size(); i++) {
            if (i < at || i > at + valueWords) {
                positional.add(after.get(i));
            }
        }
        return positional;
    }

    /** {@code words}, each in single quotes as the words of these messages are, joined with "and". */
    private static String quotedWords(java.util.List<String> words) {
        java.util.List<String> quoted = words.stream().map(w -> "'" + w + "'").toList();
        return quoted.size() <= 2 ? String.join(" and ", quoted)
                : String.join(", ", quoted.subList(0, quoted.size() - 1)) + " and " + quoted.getLast();
    }

    /**
     * What to do when the option {@code word} names would be refused before {@code --} for its value: empty or '--'
     * ('--as= r1', '--as "" r1', '--as -- r1'), or a value given to a flag ('rein reply -- --json=x r1 hi'). Else null.
     */
    private static String valueRefused(CommandLine.Model.OptionSpec taking, java.util.List<String> after, String word) {
        if (taking.arity().max() > 0) {
            int w = after.indexOf(word);
            String value = word.contains("=") ? word.substring(word.indexOf('=') + 1)
                    : w + 1 < after.size() ? after.get(w + 1) : null;
            if (value != null && (value.isEmpty() || value.equals("--"))) {
                return "to give the option, put it before -- with its " + taking.paramLabel() + ", not "
                        + (value.isEmpty() ? "empty" : "'--'");
            }
        } else if (word.contains("=") && !word.substring(word.indexOf('=') + 1).matches("(?i)true|false")) {
            return taking.longestName() + " is a flag and takes no value: to give it, put "
                    + taking.longestName() + " before --, without '" + word.substring(word.indexOf('=')) + "'";
        }
        return null;
    }

    /**
     * The command line with the option {@code word} before {@code --}, after the words {@code given} there, with its value
     * when it takes one ('--as bob'); the other words after it stay after it.
     */
    private static String withTheOptionBefore(CommandLine.Model.CommandSpec spec, java.util.List<String> given,
            java.util.List<String> after, String word) {
        StringBuilder command = new StringBuilder(spec.qualifiedName());
        given.forEach(w -> command.append(' ').append(ShellWords.word(w)));
        command.append(' ').append(ShellWords.word(word));
        java.util.List<String> rest = new java.util.ArrayList<>(after);
        int at = rest.indexOf(word);
        rest.remove(at);
        if (option0(spec, word).arity().max() > 0 && !word.contains("=")) {
            command.append(' ').append(ShellWords.word(rest.remove(at)));
        }
        if (!rest.isEmpty()) {
            command.append(" --");
            rest.forEach(w -> command.append(' ').append(ShellWords.word(w)));
        }
        return command.toString();
    }

    /**
     * Whether {@code args} with {@code --} put before {@code dashed} make a command line the command takes, with
     * {@code dashed} as {@code text}: the words then positional fill the places with none left over, and {@code dashed}
     * lands in the text's place ({@code rein reply --run --json} would make '--run' the RUN).
     */
    static boolean textAfterDoubleDashWorks(CommandLine.Model.CommandSpec spec, String[] args, String dashed,
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

    /** The command's arguments as typed, with {@code --} before {@code dashed}; quoted where a shell needs it. */
    static String withDoubleDash(CommandLine.Model.CommandSpec spec, String[] args, String dashed) {
        StringBuilder sb = new StringBuilder();
        boolean inserted = false;
        for (int i = java.util.Arrays.asList(args).indexOf(spec.name()) + 1; i < args.length; i++) {
            if (!inserted && args[i].equals(dashed)) {
                sb.append(" --");
                inserted = true;
            }
            sb.append(' ').append(ShellWords.word(args[i]));
        }
        return sb.toString();
    }
}
