package dev.rein.cli;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * A command a message suggests, read back as a person pasting it would have it read: split into words by a shell, then
 * parsed by rein's own picocli command line. One helper for the tests that check a hint names what it should.
 */
final class ParsedBack {
    private ParsedBack() {}

    /** The words {@code sh -c} makes of {@code command}: the real shell, quotes, escapes and all. */
    static List<String> sh(String command) throws Exception {
        Process p = new ProcessBuilder("sh", "-c", "set -- " + command + "; for a; do printf '%s\\0' \"$a\"; done").start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        List<String> words = new ArrayList<>(List.of(out.split("\0", -1)));
        words.removeLast();
        return words;
    }

    /** A command line split as a shell splits it (double and single quotes, no escapes): enough for the hints' quoting. */
    static List<String> shellWords(String command) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (char c : command.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == ' ') {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
            } else {
                word = word == null ? new StringBuilder() : word;
                if (c == '"' || c == '\'') {
                    quote = c;
                } else {
                    word.append(c);
                }
            }
        }
        if (word != null) {
            words.add(word.toString());
        }
        return words;
    }

    /**
     * What picocli parses from {@code words} ('rein' first), down to the innermost subcommand; a {@link
     * CommandLine.ParameterException} when it refuses them. Nothing runs: the store is one that does not exist.
     */
    static CommandLine.ParseResult parse(List<String> words) {
        CommandLine.ParseResult result = Rein.commandLine(new CliEnvironment(
                new java.io.PrintStream(java.io.OutputStream.nullOutputStream()),
                new java.io.PrintStream(java.io.OutputStream.nullOutputStream()), java.util.Map.of("REIN_HOME", "/nonexistent"),
                Terminal.NONE, (name, env) -> null, false, new java.io.ByteArrayInputStream(new byte[0])))
                .parseArgs(words.subList(1, words.size()).toArray(String[]::new));
        while (result.hasSubcommand()) {
            result = result.subcommand();
        }
        return result;
    }

    /** The RUN (the first positional) picocli parses from {@code words}, or "REFUSED ..." (an unknown option '-app1'). */
    static String runOf(List<String> words) {
        try {
            return parse(words).matchedPositional(0).stringValues().getFirst();
        } catch (CommandLine.ParameterException e) {
            return "REFUSED " + e.getMessage();
        }
    }

    /** The values picocli parses from {@code words} ("rein reply ..."): "--json=[true] RUN=[r1] TEXT=[hi]", or "REFUSED ...". */
    static String values(List<String> words) {
        try {
            CommandLine.ParseResult result = parse(words);
            List<String> values = new ArrayList<>();
            result.matchedOptions().forEach(o -> values.add(o.longestName() + "=" + o.stringValues()));
            result.matchedPositionals().forEach(p -> values.add(p.paramLabel() + "=" + p.stringValues()));
            return String.join(" ", values);
        } catch (CommandLine.ParameterException e) {
            return "REFUSED " + e.getMessage();
        }
    }
}
