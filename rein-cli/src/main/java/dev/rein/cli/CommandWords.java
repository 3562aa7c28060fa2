package dev.rein.cli;

import picocli.CommandLine;

/**
 * How picocli reads the words of a command line after the command's name, for the hints of {@link Errors}: which words
 * are positional, which spell a positional parameter's name as an option, and which places the command has. One walker,
 * so that the hints agree on which word is which.
 */
final class CommandWords {
    private CommandWords() {}

    /**
     * The words of a command line after the command's name: the indices of its positional words, in order, and of each
     * spelling of a positional parameter's name given as an option ({@code --run r1}, {@code --run=r1}, {@code --RUN}) with
     * the index of its value ({@code value}: the spelling's own for {@code --run=r1}, the next word, or -1 for none).
     */
    record Words(java.util.List<Integer> positional, java.util.List<Named> named) {
        record Named(int at, int value) {}
    }

    /**
     * One walk over {@code args} after {@code spec}'s name, as picocli reads them (one walker, so that the hints agree on
     * which word is which): an option of the command is no positional word, nor is its value (the next word, whatever it
     * looks like, unless given with '='), nor another word starting with '-' (picocli takes it for an unknown option),
     * except a number ({@code -5}) or '-' alone; after {@code --} every word is one. {@code named}: a positional parameter whose name given as an option is left out with its value (the
     * next word when it is empty or {@link #valueOf} the parameter) and listed in {@link Words#named}, or null.
     * {@code throughDoubleDash}: false to stop at {@code --}.
     */
    static Words walk(CommandLine.Model.CommandSpec spec, String[] args, CommandLine.Model.PositionalParamSpec named,
            boolean throughDoubleDash) {
        java.util.List<Integer> positional = new java.util.ArrayList<>();
        java.util.List<Words.Named> spellings = new java.util.ArrayList<>();
        boolean ended = false;
        for (int i = java.util.Arrays.asList(args).indexOf(spec.name()) + 1; i < args.length; i++) {
            String w = args[i];
            if (ended) {
                positional.add(i);
            } else if (w.equals("--")) {
                if (!throughDoubleDash) {
                    break;
                }
                ended = true;
            } else if (named != null && optionShaped(w) && option0(spec, w) == null
                    && withoutDashes(optionName(w)).equalsIgnoreCase(named.paramLabel())) {
                // '--goal ""' gives an empty GOAL, as '--goal=' does
                int value = w.contains("=") ? i
                        : i + 1 < args.length && (args[i + 1].isEmpty() || valueOf(spec, named, args[i + 1])) ? i + 1 : -1;
                spellings.add(new Words.Named(i, value));
                i = Math.max(i, value);
            } else if (!w.startsWith("-") || w.length() < 2 || w.matches("-\\d+(\\.\\d+)?")) {
                positional.add(i);
            } else {
                CommandLine.Model.OptionSpec option = option0(spec, w);
                if (option != null && option.arity().max() > 0 && !w.contains("=")) {
                    i++; // its value, whatever it looks like
                }
            }
        }
        return new Words(positional, spellings);
    }

    /** Where {@code --} is among {@code args} after {@code spec}'s name (its index in args), or args' length. */
    static int dashes0(String[] args, CommandLine.Model.CommandSpec spec) {
        java.util.List<String> words = java.util.Arrays.asList(args);
        int start = words.indexOf(spec.name()) + 1;
        int at = words.subList(start, words.size()).indexOf("--");
        return at < 0 ? args.length : start + at;
    }

    /**
     * The place (from 0) of the command's TEXT when it is its last positional parameter (rein reply's), or
     * {@link Long#MAX_VALUE}.
     */
    static long textPlace(CommandLine.Model.CommandSpec spec) {
        java.util.List<CommandLine.Model.PositionalParamSpec> positionals = spec.positionalParameters();
        if (positionals.isEmpty() || !positionals.getLast().paramLabel().equals("TEXT")) {
            return Long.MAX_VALUE;
        }
        return places(spec) - positionals.getLast().arity().max();
    }

    /** The label of the positional parameter that the positional word number {@code place} (from 0) fills, or null. */
    static String labelAt(CommandLine.Model.CommandSpec spec, long place) {
        long end = 0;
        for (CommandLine.Model.PositionalParamSpec positional : spec.positionalParameters()) {
            end = Math.min(Integer.MAX_VALUE, end + positional.arity().max());
            if (place < end) {
                return positional.paramLabel();
            }
        }
        return null;
    }

    /** How many positional words {@code spec} takes in all: {@link Integer#MAX_VALUE} for rein run's GOAL, any number. */
    static long places(CommandLine.Model.CommandSpec spec) {
        long places = 0;
        for (CommandLine.Model.PositionalParamSpec positional : spec.positionalParameters()) {
            places = Math.min(Integer.MAX_VALUE, places + positional.arity().max());
        }
        return places;
    }

    /**
     * Whether {@code next}, the word after a positional parameter's name given as an option, is its value: text may start
     * with '-', but not in an option's shape ({@code --goal --max-stpes}); another value, a run id an application gave
     * ({@code --run -r1}), may start with one '-' when it names none of the command's options, as picocli reads an option's
     * value; a long option's shape ({@code --run --jsno}) is taken for a slip of an option.
     */
    static boolean valueOf(CommandLine.Model.CommandSpec spec, CommandLine.Model.PositionalParamSpec positional, String next) {
        if (!next.startsWith("-")) {
            return true;
        }
        if (TEXT_LABELS.contains(positional.paramLabel())) {
            return !next.equals("--") && !optionShaped(next);
        }
        return !next.startsWith("--") && option0(spec, next) == null;
    }

    /** The option of {@code spec} that {@code word} names ({@code --as} of {@code --as=bob}). */
    static CommandLine.Model.OptionSpec option0(CommandLine.Model.CommandSpec spec, String word) {
        return spec.findOption(optionName(word));
    }

    /** The option an argument names: {@code --reject} of {@code --reject=wrong}. */
    static String optionName(String arg) {
        int equals = arg.indexOf('=');
        return equals < 0 ? arg : arg.substring(0, equals);
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

    /** {@code option}'s name without its leading dashes: {@code max-steps} of {@code --max-steps}. */
    static String withoutDashes(String option) {
        return option.replaceFirst("^-+", "");
    }
}
