package dev.rein.cli;

import static dev.rein.cli.CommandWords.TEXT_LABELS;
import static dev.rein.cli.CommandWords.option0;
import static dev.rein.cli.CommandWords.optionName;
import static dev.rein.cli.CommandWords.optionShaped;
import static dev.rein.cli.CommandWords.places;
import static dev.rein.cli.CommandWords.valueOf;
import static dev.rein.cli.CommandWords.walk;
import static dev.rein.cli.CommandWords.withoutDashes;
import static dev.rein.cli.HelpText.example;

import dev.rein.cli.CommandWords.Words;
import dev.rein.internal.text.ShellWords;
import picocli.CommandLine;

/**
 * The hint for a positional parameter given with an option name ({@code rein eval --suite s.yaml}, {@code rein reply
 * --text hi --run r1}): the command with each value in its place, for {@link OptionTypos#unknownOption}.
 */
final class NamedPositionals {
    private NamedPositionals() {}

    /**
     * What to say of {@code positional} given with an option name ({@code rein eval --suite s.yaml}), every spelling of
     * it on the command line taken together ({@code --goal "" --goal=}): the command with its value in its place (not
     * where the option stood: {@code rein reply hi --run r1} is {@code rein reply r1 hi}); one command for each value when
     * it has room for one only ({@code rein show r1 --run r2}); the command without it when it is given already and has no
     * value; with the parameter's example when it is given empty; or what to give.
     */
    static String namedPositional(CommandLine.Model.CommandSpec spec, CommandLine.Model.PositionalParamSpec positional,
            String[] args) {
        String all = allNamed(spec, args);
        if (all != null) {
            return all;
        }
        Hint named = Hint.of(spec, positional, args);
        String severalWords = named.textOfSeveralWords();
        if (severalWords != null) {
            return severalWords;
        }
        if (!named.multi() && (named.values().size() > 1 || !named.values().isEmpty() && named.taken())) {
            return named.oneOfThem();
        }
        if (named.values().isEmpty()) {
            return named.withoutValue();
        }
        if (named.multi() && named.values().size() > 1) {
            return named.eachValue();
        }
        return named.inItsPlace();
    }

    /**
     * {@code positional} given with an option name on {@code args}, every spelling of it taken together: the words the
     * spellings and their values take ({@code dropped}), the values given and where their spellings stand
     * ({@code valuedAt}), the spellings giving none as typed ({@code valueless}), whether one gives it empty, and whether
     * the other positional words leave it no place ({@code taken}). Its methods are the steps of {@link #namedPositional}.
     */
    private record Hint(CommandLine.Model.CommandSpec spec, CommandLine.Model.PositionalParamSpec positional, String[] args,
            Words words, java.util.Set<Integer> dropped, java.util.List<String> values, java.util.List<Integer> valuedAt,
            java.util.List<String> valueless, boolean empty, boolean taken) {

        static Hint of(CommandLine.Model.CommandSpec spec, CommandLine.Model.PositionalParamSpec positional, String[] args) {
            Words words = walk(spec, args, positional, true);
            java.util.List<Integer> others = words.positional();
            java.util.Set<Integer> dropped = new java.util.HashSet<>();
            java.util.List<String> values = new java.util.ArrayList<>();
            java.util.List<Integer> valuedAt = new java.util.ArrayList<>();
            java.util.List<String> valueless = new java.util.ArrayList<>(); // the spellings giving none, as typed
            boolean empty = false;
            for (Words.Named spelling : words.named()) {
                String w = args[spelling.at()];
                dropped.add(spelling.at());
                if (spelling.value() >= 0) {
                    dropped.add(spelling.value());
                }
                String value = spelling.value() < 0 ? null
                        : spelling.value() == spelling.at() ? w.substring(w.indexOf('=') + 1) : args[spelling.value()];
                if (value == null || value.isEmpty()) {
                    empty |= value != null;
                    valueless.add(value == null || w.contains("=") ? w : optionName(w) + " \"\"");
                } else {
                    values.add(value);
                    valuedAt.add(spelling.at());
                }
            }
            // the other positional words fill the places in order: this one's place is taken when they leave none for it
            boolean taken = positional.isMultiValue() ? others.size() > positional.index().min() : others.size() >= places(spec);
            return new Hint(spec, positional, args, words, dropped, values, valuedAt, valueless, empty, taken);
        }

        private String label() {
            return positional.paramLabel();
        }

        /** The value's stand-in for {@link #rearranged}: {@code --label=VALUE}. */
        private String synthetic() {
            return "--" + label().toLowerCase(java.util.Locale.ROOT) + "=";
        }

        private java.util.List<Integer> others() {
            return words.positional();
        }

        private int min() {
            return positional.index().min();
        }

        boolean multi() {
            return positional.isMultiValue();
        }

        private String given() {
            return label() + " is given without an option name";
        }

        /** The command {@code command} ({@link #rearranged}), with {@code arg} ({@code --label=VALUE}) given without the name. */
        private String command(String[] command, String arg) {
            return spec.qualifiedName() + rendered(spec, command, arg, positional);
        }

        /**
         * 'rein reply r1 --text hi there': the words right after the value are the text's, unquoted, when the other words
         * fill the other places exactly ('give one: rein reply r1 there or rein reply r1 hi' replied neither): the command
         * with them quoted as one. Null when that is not the case.
         */
        String textOfSeveralWords() {
            if (multi() || !TEXT_LABELS.contains(label()) || values.size() != 1 || !taken) {
                return null;
            }
            java.util.List<Integer> others = others();
            Words.Named spelling = words.named().stream().filter(n -> n.at() == valuedAt.getFirst()).findFirst().orElseThrow();
            java.util.List<Integer> followers = new java.util.ArrayList<>();
            for (int next = spelling.value() + 1; others.contains(next); next++) {
                followers.add(next);
            }
            // the RUN may come after the words ('--text hi there r1'): the first followers are the text's, as many as the
            // other places leave over
            long nonText = places(spec) - positional.arity().max();
            if (followers.size() >= others.size() - nonText && others.size() > nonText) {
                followers.subList((int) (others.size() - nonText), followers.size()).clear();
                java.util.List<String> text = new java.util.ArrayList<>(java.util.List.of(values.getFirst()));
                followers.forEach(f -> text.add(args[f]));
                java.util.Set<Integer> out = new java.util.HashSet<>(dropped);
                out.addAll(followers);
                java.util.List<Integer> rest = others.stream().filter(o -> !followers.contains(o)).toList();
                int at = placeOf(rest, min(), valuedAt.getFirst(), args.length);
                String value = synthetic() + String.join(" ", text);
                String[] command = rearranged(args, out, at, value);
                if (fits(spec, command, positional)) {
                    return given() + ", and its " + text.size() + " words are one argument, to quote: " + command(command, value);
                }
            }
            return null;
        }

        /** 'rein show r1 --run r2': 'rein show r1 r2' is a word too many; each run is a command that works. */
        String oneOfThem() {
            java.util.List<Integer> others = others();
            java.util.List<String> commands = new java.util.ArrayList<>();
            if (taken && fits(spec, rearranged(args, dropped, -1, null), positional)) {
                commands.add(command(rearranged(args, dropped, -1, null), null));
            }
            for (int v = 0; v < values.size(); v++) {
                java.util.Set<Integer> out = new java.util.HashSet<>(dropped);
                int at = taken ? others.get(min()) : placeOf(others, min(), valuedAt.get(v), args.length);
                if (taken) {
                    out.add(at); // the value in the other's place
                }
                String[] command = rearranged(args, out, at, synthetic() + values.get(v));
                if (fits(spec, command, positional)) {
                    commands.add(command(command, synthetic() + values.get(v)));
                }
            }
            commands = commands.stream().distinct().toList();
            if (commands.isEmpty()) {
                return given() + OVERFILLED + label() + " in its place";
            }
            if (commands.size() == 1) {
                // 'rein approve r1 --run r1': the same run twice, one command ('give one: rein approve r1 or rein approve r1')
                return given() + ", and it is given " + (taken ? "already" : "more than once") + ", the same: "
                        + commands.getFirst();
            }
            return given() + ", and it is given " + (taken ? "already" : "more than once") + ": give one: "
                    + String.join(" or ", commands);
        }

        /** Every spelling without a value: the command without them when it is given already, its example, or what to give. */
        String withoutValue() {
            if (taken) {
                // 'rein show r1 --run': RUN is there already, and 'rein show r1 RUN' would show a run named RUN
                return given() + ", and it is given already: drop " + String.join(" and ", valueless) + ": "
                        + command(rearranged(args, dropped, -1, null), null);
            }
            if (empty) {
                // with no example to fill in, the parameter is asked for: its label is no command to paste
                String example = example(positional);
                String said = given() + ", and " + valueless.getFirst() + " gives it empty: ";
                int first = words.named().getFirst().at();
                int at = multi() ? first : placeOf(others(), min(), first, args.length);
                return example == null ? said + "give the " + label()
                        : said + "give it, e.g. " + command(rearranged(args, dropped, at, synthetic()), synthetic()).replace(EMPTY, example);
            }
            // no command: its label in its place would be sent as the value ('rein reply RID TEXT' replies "TEXT",
            // 'rein run GOAL' starts a run with that goal, 'rein eval SUITE' looks for a file named SUITE)
            return given() + ", and " + valueless.getFirst() + " has no value after it: give the " + label() + " in its place";
        }

        /** 'rein run --goal hi --goal ho': GOAL's words are joined, but two names are two goals, not one of both. */
        String eachValue() {
            java.util.List<String> commands = new java.util.ArrayList<>();
            for (String v : values.stream().distinct().toList()) {
                String[] command = rearranged(args, dropped, valuedAt.get(values.indexOf(v)), synthetic() + v);
                if (fits(spec, command, positional)) {
                    commands.add(command(command, synthetic() + v));
                }
            }
            if (commands.isEmpty()) {
                return given() + OVERFILLED + label() + " in its place";
            }
            return given() + ", and it is given more than once" + (commands.size() == 1 ? ", the same: " : ": give one: ")
                    + String.join(" or ", commands);
        }

        /** One value: the command with it in its place. */
        String inItsPlace() {
            String value = values.getFirst();
            int at = multi() ? valuedAt.getFirst() : placeOf(others(), min(), valuedAt.getFirst(), args.length);
            String[] command = rearranged(args, dropped, at, synthetic() + value);
            if (!fits(spec, command, positional)) {
                // 'rein eval --suite s.yaml -- --traces d': '--traces' and 'd' are arguments after '--', SUITE's place is theirs
                return given() + OVERFILLED + label() + " in its place";
            }
            return given() + ": " + command(command, synthetic() + value);
        }
    }

    /** What is said when every command with the value in its place would have more positional words than places. */
    private static final String OVERFILLED = "; with it in its place, the words after -- (arguments, whatever they look"
            + " like) would be more than the command takes: put the options before --, and give the ";

    /**
     * Whether {@code command} (the words with {@code positional}'s value given as {@code --label=value}) has no more
     * positional words than {@code spec} has places: a word after a later {@code --} is one, whatever it looks like.
     */
    private static boolean fits(CommandLine.Model.CommandSpec spec, String[] command,
            CommandLine.Model.PositionalParamSpec positional) {
        Words words = walk(spec, command, positional, true);
        return words.positional().size() + words.named().stream().filter(n -> n.value() >= 0).count() <= places(spec);
    }

    /**
     * When more than one of {@code spec}'s positional parameters is given by name ({@code rein reply --text hi there
     * --run r1}): all of them put in their places in one pass, the other words filling the places left in order, and
     * the words right after a TEXT's value that the places leave over joined into it, quoted: {@code rein reply r1
     * "hi there"} (one at a time, each command kept the other's name, refused). Without a command when a name has no
     * value or two, a word is an unknown option, or the words do not fill the places. Null when at most one is named.
     */
    private static String allNamed(CommandLine.Model.CommandSpec spec, String[] args) {
        java.util.List<CommandLine.Model.PositionalParamSpec> positionals = spec.positionalParameters();
        java.util.Map<CommandLine.Model.PositionalParamSpec, java.util.List<String>> named = new java.util.LinkedHashMap<>();
        java.util.Map<CommandLine.Model.PositionalParamSpec, Integer> valueAt = new java.util.HashMap<>();
        java.util.List<String> options = new java.util.ArrayList<>();
        java.util.List<Integer> unnamed = new java.util.ArrayList<>();
        boolean known = true;
        boolean ended = false;
        for (int i = java.util.Arrays.asList(args).indexOf(spec.name()) + 1; i < args.length; i++) {
            String w = args[i];
            CommandLine.Model.PositionalParamSpec by = ended || !optionShaped(w) || option0(spec, w) != null ? null
                    : positionals.stream().filter(p -> withoutDashes(optionName(w)).equalsIgnoreCase(p.paramLabel()))
                            .findFirst().orElse(null);
            if (ended || !w.startsWith("-") || w.length() < 2 || w.matches("-\\d+(\\.\\d+)?")) {
                unnamed.add(i);
            } else if (w.equals("--")) {
                ended = true;
            } else if (by != null) {
                int value = w.contains("=") ? i : i + 1 < args.length && valueOf(spec, by, args[i + 1]) ? i + 1 : -1;
                String v = value < 0 ? "" : value == i ? w.substring(w.indexOf('=') + 1) : args[value];
                named.computeIfAbsent(by, p -> new java.util.ArrayList<>()).add(v);
                valueAt.put(by, value);
                i = Math.max(i, value);
            } else if (option0(spec, w) != null) {
                options.add(ShellWords.word(w));
                if (option0(spec, w).arity().max() > 0 && !w.contains("=") && i + 1 < args.length) {
                    options.add(ShellWords.word(args[++i]));
                }
            } else {
                known = false; // an unknown option: the command offered would fail on it
            }
        }
        if (named.size() < 2) {
            return null;
        }
        String labels = String.join(" and ", named.keySet().stream().map(CommandLine.Model.PositionalParamSpec::paramLabel).toList());
        String given = labels + " are given without an option name";
        String each = given + ": give each in its place, without the name, and a value of several words in quotes";
        if (!known || named.values().stream().anyMatch(v -> v.stream().distinct().count() != 1 || v.getFirst().isEmpty())) {
            return each;
        }
        long free = positionals.stream().filter(p -> !named.containsKey(p)).mapToLong(p -> p.arity().max()).sum();
        long needed = positionals.stream().filter(p -> !named.containsKey(p)).mapToLong(p -> p.arity().min()).sum();
        java.util.Map<CommandLine.Model.PositionalParamSpec, String> values = new java.util.HashMap<>();
        named.forEach((p, v) -> values.put(p, v.getFirst()));
        CommandLine.Model.PositionalParamSpec text = positionals.getLast();
        if (unnamed.size() > free && named.containsKey(text) && TEXT_LABELS.contains(text.paramLabel())) {
            if (named.get(text).size() > 1) {
                // '--text hi --text hi there': joined with the last value alone, the first would be dropped
                return each;
            }
            // '--text hi there --run r1': the words right after the text's value are its own
            StringBuilder joined = new StringBuilder(values.get(text));
            for (int next = valueAt.get(text) + 1; unnamed.size() > free && unnamed.contains(next); next++) {
                joined.append(' ').append(args[next]);
                unnamed.remove(Integer.valueOf(next));
            }
            values.put(text, joined.toString());
        }
        if (unnamed.size() > free || unnamed.size() < needed) {
            return each;
        }
        java.util.List<String> words = new java.util.ArrayList<>();
        java.util.Iterator<Integer> rest = unnamed.iterator();
        for (CommandLine.Model.PositionalParamSpec p : positionals) {
            if (values.containsKey(p)) {
                words.add(values.get(p));
            } else {
                for (long n = 0; n < p.arity().max() && rest.hasNext(); n++) {
                    words.add(args[rest.next()]);
                }
            }
        }
        StringBuilder command = new StringBuilder(spec.qualifiedName());
        options.forEach(o -> command.append(' ').append(o));
        if (words.stream().anyMatch(w -> w.startsWith("-"))) {
            command.append(" --"); // a value like '-5' would be taken for an option
        }
        words.forEach(w -> command.append(' ').append(ShellWords.word(w)));
        return given + ": " + command;
    }

    /**
     * Where the value of the positional parameter at {@code min} goes among the words: where its option stood
     * ({@code spelling}) when that is after the positional word before it and before the one now in its place, else
     * before the one now in its place, else after the one before it.
     */
    private static int placeOf(java.util.List<Integer> others, int min, int spelling, int end) {
        int before = min == 0 || others.isEmpty() ? -1 : others.get(Math.min(min, others.size()) - 1);
        int after = others.size() > min ? others.get(min) : end;
        if (before < spelling && spelling < after) {
            return spelling;
        }
        return after < end ? after : before + 1;
    }

    /** {@code args} without the words at {@code drop}, with {@code put} (when not null) before the word at {@code at}. */
    private static String[] rearranged(String[] args, java.util.Set<Integer> drop, int at, String put) {
        java.util.List<String> kept = new java.util.ArrayList<>();
        for (int i = 0; i <= args.length; i++) {
            if (i == at && put != null) {
                kept.add(put);
            }
            if (i < args.length && !drop.contains(i)) {
                kept.add(args[i]);
            }
        }
        return kept.toArray(String[]::new);
    }

    /** {@link #withoutOptionName}, or the words as typed when {@code arg} is null. */
    private static String rendered(CommandLine.Model.CommandSpec spec, String[] args, String arg,
            CommandLine.Model.PositionalParamSpec positional) {
        if (arg != null) {
            return withoutOptionName(spec, args, arg, positional);
        }
        StringBuilder sb = new StringBuilder();
        for (int i = java.util.Arrays.asList(args).indexOf(spec.name()) + 1; i < args.length; i++) {
            sb.append(' ').append(ShellWords.word(args[i]));
        }
        return sb.toString();
    }

    /**
     * The command's arguments as typed, with the positional parameter {@code positional} given without the option name
     * {@code arg}: its value ({@code --suite=s.yaml}, or the word after it) in its place, after {@code --} when it starts
     * with '-' ({@code rein run -- -5}, which would be taken for an option without it), else its label.
     */
    private static String withoutOptionName(CommandLine.Model.CommandSpec spec, String[] args, String arg,
            CommandLine.Model.PositionalParamSpec positional) {
        StringBuilder sb = new StringBuilder();
        // a value starting with '-' goes after '--', and so do the positional words that follow it; the options that
        // follow it go before, or '--' would take them into the value (rein run --goal=-5 --max-steps 3)
        // (an unknown option stays before it too, so that the hinted command still fails on it rather than take it as text)
        StringBuilder afterAll = null;
        boolean ended = false; // after '--' every word is a positional one
        for (int i = java.util.Arrays.asList(args).indexOf(spec.name()) + 1; i < args.length; i++) {
            if (afterAll != null) {
                if (ended) {
                    afterAll.append(' ').append(ShellWords.word(args[i])); // after the user's own '--': text as typed
                } else if (args[i].equals("--")) {
                    ended = true;
                } else if (optionShaped(args[i])) {
                    sb.append(' ').append(ShellWords.word(args[i]));
                    CommandLine.Model.OptionSpec option = option0(spec, args[i]);
                    if (option != null && option.arity().max() > 0 && !args[i].contains("=") && i + 1 < args.length) {
                        sb.append(' ').append(ShellWords.word(args[++i]));
                    }
                } else {
                    afterAll.append(' ').append(ShellWords.word(args[i]));
                }
                continue;
            }
            String value = null;
            if (!args[i].equals(arg)) {
                ended |= args[i].equals("--");
                sb.append(' ').append(ShellWords.word(args[i]));
            } else if (arg.endsWith("=") && arg.indexOf('=') == arg.length() - 1) {
                sb.append(' ').append(EMPTY); // the caller puts an example in its place
            } else if (!arg.contains("=") && i + 1 < args.length && args[i + 1].isEmpty()) {
                i++; // '--goal ""': as '--goal='
                sb.append(' ').append(EMPTY);
            } else if (arg.contains("=")) {
                value = arg.substring(arg.indexOf('=') + 1);
            } else if (i + 1 < args.length && valueOf(spec, positional, args[i + 1])) {
                value = args[++i];
            } else {
                sb.append(' ').append(positional.paramLabel());
            }
            if (value != null) {
                if (value.startsWith("-") && !ended) {
                    afterAll = new StringBuilder(ShellWords.word(value));
                } else {
                    sb.append(' ').append(ShellWords.word(value));
                }
            }
        }
        if (afterAll != null) {
            sb.append(" -- ").append(afterAll);
        }
        return sb.toString();
    }

    /** Where an empty value ({@code --goal=}) stood in {@link #withoutOptionName}'s command: no shell word looks so. */
    private static final String EMPTY = "\u0000";
}
