package dev.rein.cli;

import static dev.rein.cli.OptionTypos.tooShort;

import dev.rein.internal.text.NearNames;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * The hint of {@link Errors} for a name that names nothing: a command ({@code rein rnu}) or an example
 * ({@code rein example NAME}), with the likely one or the list to choose from.
 */
final class UnknownNames {
    private UnknownNames() {}

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
}
