package dev.rein.internal.text;

/**
 * Words of a command a message suggests, to be pasted into a POSIX shell (sh, bash, zsh) and read back as they were
 * given. One rule for every module that prints such commands: rein-core's own messages (a store conflict) and
 * rein-cli's hints.
 */
public final class ShellWords {
    private ShellWords() {}

    /**
     * {@code word} as a shell reads it back: as it is when every shell keeps it so, else in double quotes when nothing in
     * it is special inside them ({@code " $ ` \ !}), else in single quotes ({@link #singleQuoted}). A word starting with
     * '=' is quoted: zsh reads {@code =ls} as the path of the command ls.
     */
    public static String word(String word) {
        if (word.matches("[A-Za-z0-9_./:,@%+-][A-Za-z0-9_./:=,@%+-]*")) {
            return word;
        }
        if (word.chars().noneMatch(c -> c == '"' || c == '$' || c == '`' || c == '\\' || c == '!')) {
            return "\"" + word + "\"";
        }
        return singleQuoted(word);
    }

    /** {@code word} in single quotes, which every POSIX shell reads as it is: {@code '} itself as {@code '\''}. */
    public static String singleQuoted(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /**
     * {@code word}, {@code id} as a shell gives it back, as the RUN of a suggested command: after {@code --} when the id
     * starts with '-' (an application names its runs as it likes), which a command line would take for an option
     * ({@code rein show -r1}). Such a command must end with its RUN, or have only text after it.
     */
    public static String run(String id, String word) {
        return id.startsWith("-") ? "-- " + word : word;
    }

    /**
     * {@code command}, its words given by {@link #word}, set off in the middle of a sentence so that a person sees where
     * it ends, by quotes it does not hold: in single quotes when it holds none; else in double quotes when it holds nothing
     * a shell reads inside them ({@code " $ ` !}, nor a backslash a shell would take there: one before another backslash,
     * which sh reads as one, so {@code 'x\\y'} would name {@code x\y}); else bare, as no quote could set it off without
     * being its own, and a shell reads its words as they are. Pasted with the quotes around it, the command is one word a
     * shell runs nothing of (rein-cli's SuggestedCommand).
     */
    public static String setOff(String command) {
        if (command.indexOf('\'') < 0) {
            return "'" + command + "'";
        }
        if (command.chars().noneMatch(c -> c == '"' || c == '$' || c == '`' || c == '!') && !escapesInDoubleQuotes(command)) {
            return "\"" + command + "\"";
        }
        return command;
    }

    /**
     * Whether a backslash in {@code command} would escape what follows it inside double quotes: another backslash, a line
     * feed, or the closing quote itself (" $ ` are refused before).
     */
    private static boolean escapesInDoubleQuotes(String command) {
        for (int i = command.indexOf('\\'); i >= 0; i = command.indexOf('\\', i + 1)) {
            char next = i + 1 < command.length() ? command.charAt(i + 1) : '"';
            if (next == '\\' || next == '\n' || next == '"') {
                return true;
            }
        }
        return false;
    }
}
