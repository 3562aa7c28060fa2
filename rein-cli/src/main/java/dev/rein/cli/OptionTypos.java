package dev.rein.cli;

import static dev.rein.cli.CommandWords.optionName;
import static dev.rein.cli.CommandWords.withoutDashes;
import static dev.rein.cli.NamedPositionals.namedPositional;

import dev.rein.internal.text.NearNames;
import picocli.CommandLine;

/**
 * The hint for an option the command does not have ({@code rein runs --limit 5}): the option it is a slip or a start of,
 * another command's option, or a positional parameter's name, for {@link Errors}.
 */
final class OptionTypos {
    private OptionTypos() {}

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
        String kept = keptByTheRun(spec, name, options);
        if (kept != null) {
            return kept;
        }
        // the word names one of the command's positional parameters (rein eval --suite s.yaml): no option was meant
        for (CommandLine.Model.PositionalParamSpec positional : spec.positionalParameters()) {
            if (positional.paramLabel().equalsIgnoreCase(withoutDashes(name)) && !positional.hidden()) {
                return NearNames.unknown("option", name, java.util.List.of(), namedPositional(spec, positional, args));
            }
        }
        return NearNames.unknown("option", name, java.util.List.of(), likelyOptions(spec, name, names, options));
    }

    /**
     * For an option of rein run given to a command that continues a stored run (rein resume, rein reply): that the run
     * keeps what it set, so the command has no such option; not a typo ('did you mean --max-tokens?' for --max-steps
     * offered another option with another meaning). Null for any other option or command.
     */
    private static String keptByTheRun(CommandLine.Model.CommandSpec spec, String name, String options) {
        CommandLine run = spec.root().subcommands().get("run");
        if (!CONTINUING.contains(spec.name()) || spec.parent() != spec.root() || run == null
                || run.getCommandSpec().findOption(name) == null) {
            return null;
        }
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

    /**
     * What follows "unknown option 'NAME'; " for an option-shaped word that names no option of {@code spec} (its
     * {@code names}) nor a positional parameter: the options it likely meant ("did you mean --max-steps?"), the options a
     * start too short to guess from begins, the other command's option it is near, or else {@code options}, the list of them.
     */
    private static String likelyOptions(CommandLine.Model.CommandSpec spec, String name, java.util.List<String> names,
            String options) {
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
            return forAShortName(spec, typed, names, ofItsKind, options);
        }
        java.util.List<String> started = names.stream().filter(ofItsKind)
                .filter(option -> startOf(typed, withoutDashes(option))).toList();
        if (!started.isEmpty()) {
            return "did you mean " + String.join(" or ", started) + "?";
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
            return "did you mean " + String.join(" or ", near) + "?";
        }
        // a slip of another command's option (--mcp-instructons of rein run, given to rein eval) is no option of this one
        // that it begins with (--mcp FILE would take the text for its file): it is named as the other command's
        String others = elsewhere == null ? nearOptionOfAnotherCommand(spec, typed) : null;
        if (others != null) {
            return "it is near " + others + " that " + spec.qualifiedName() + " does not have; " + options;
        }
        java.util.List<String> prefixes = names.stream()
                .filter(option -> typed.startsWith(withoutDashes(option) + "-")).filter(ofItsKind).toList();
        if (!prefixes.isEmpty()) {
            return "did you mean " + String.join(" or ", prefixes) + "?";
        }
        return options;
    }

    /**
     * {@link #likelyOptions} for a name of one or two letters ({@code typed}, without dashes): the whole name with one dash
     * ({@code -as}) or a slip of it ({@code --sa}: a swap, or the key beside) names the option; only a start of one or two
     * letters is too short to say which option was meant, and often a word of its own ({@code --re}, {@code --to}): the
     * options starting with it are listed, with no guess among them.
     */
    private static String forAShortName(CommandLine.Model.CommandSpec spec, String typed, java.util.List<String> names,
            java.util.function.Predicate<String> ofItsKind, String options) {
        java.util.List<String> meant = names.stream().filter(ofItsKind).filter(option -> withoutDashes(option).equals(typed)
                || (!withoutDashes(option).startsWith(typed) && nearMiss(typed, withoutDashes(option)))).toList();
        if (!meant.isEmpty()) {
            return "did you mean " + String.join(" or ", meant) + "?";
        }
        java.util.List<String> starting = names.stream().filter(option -> withoutDashes(option).startsWith(typed)).toList();
        return starting.isEmpty() ? options : tooShort("option", typed, " of " + spec.qualifiedName(), starting);
    }

    /**
     * Whether {@code typed} (an unknown option's name, without dashes, lower case, '_' as '-') is a start of {@code option}
     * meant as it: a single letter it begins with ({@code a} of {@code action}); its first words, hyphens given or not
     * ({@code max-cost}, {@code maxcost} of {@code max-cost-usd}); or those then a start of one or two letters of the next
     * word, too short to be a word of its own ({@code max-s} of {@code max-steps}). (A start of one or two letters alone
     * never gets here: {@link #forAShortName} lists the options it begins.) A longer start is another
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
    static String tooShort(String kind, String typed, String of, java.util.List<String> starting) {
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
}
