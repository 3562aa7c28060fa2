package dev.rein.cli;

import static dev.rein.cli.CommandWords.dashes0;
import static dev.rein.cli.CommandWords.option0;
import static dev.rein.cli.CommandWords.optionName;
import static dev.rein.cli.CommandWords.walk;

import dev.rein.internal.text.ShellWords;
import picocli.CommandLine;

/**
 * The hints of {@link Errors} for several words given unquoted where the command takes one argument: a TEXT
 * ({@code rein reply RUN 会議室 B}) or an option's free text ({@code --reject wrong recipient}): to put them in quotes, with
 * the command to type.
 */
final class TextInQuotes {
    private TextInQuotes() {}

    /**
     * For a command whose last parameter is one TEXT ({@code rein reply RUN TEXT}) given several words unquoted
     * ({@code rein reply RUN 会議室 B}): says to quote them, with the command to type; rein run joins a GOAL's words, so
     * the habit carries over. Null when the command has no TEXT or the extra words are something else.
     */
    static String textInQuotes(CommandLine.Model.CommandSpec spec, String[] args) {
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
                command.append(' ').append(ShellWords.word(args[i]));
            }
            java.util.List<String> text = java.util.Arrays.asList(args).subList(textAt, args.length);
            return "the " + spec.name() + " TEXT is one argument, but " + text.size() + " words were given; put it in quotes: "
                    + command + " " + ShellWords.word(String.join(" ", text));
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
            options.add(ShellWords.word(args[i]));
            if (!args[i].contains("=") && option.arity().max() > 0 && i + 1 < args.length) {
                options.add(ShellWords.word(args[++i]));
            }
        }
        int before = positionals.size() - 1; // RUN
        if (words.size() <= positionals.size()) {
            return null;
        }
        StringBuilder command = new StringBuilder(spec.qualifiedName());
        options.forEach(option -> command.append(' ').append(option));
        words.subList(0, before).forEach(word -> command.append(' ').append(ShellWords.word(word)));
        String text = String.join(" ", words.subList(before, words.size()));
        return "the " + spec.name() + " TEXT is one argument, but " + (words.size() - before) + " words were given; put it in quotes: "
                + command + " " + ShellWords.word(text);
    }

    /**
     * For an option whose value is free text ({@code rein approve RUN --reject REASON}) or a person's name
     * ({@code --as NAME}) given several words unquoted ({@code --reject wrong recipient}): says to quote them, with the command to type. The words beyond those the
     * command's parameters take are the option's when they follow its value; null when they do not.
     */
    static String optionTextInQuotes(CommandLine.Model.CommandSpec spec, String[] args) {
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
                command.append(' ').append(option).append(' ').append(ShellWords.word(String.join(" ", text)));
                i = value + extra;
            } else {
                command.append(' ').append(ShellWords.word(args[i]));
            }
        }
        return "the " + option + " " + spec.findOption(option).paramLabel() + " is one argument, but " + text.size()
                + " words were given; put it in quotes: " + command;
    }
}
