package dev.rein.cli;

import dev.rein.internal.text.ShellWords;
import picocli.CommandLine;

/**
 * An argument's help as parts of a one-line message: its description as the rest of a sentence, the first clause of it,
 * without its asides, and the example value its field carries ({@link ExampleValue}).
 */
final class HelpText {
    private HelpText() {}

    /**
     * The example an argument's field carries, or null; for a positional with names to choose from (picocli's
     * completionCandidates: rein example NAME), the first of them.
     */
    static String example(CommandLine.Model.ArgSpec arg) {
        if (arg.isPositional() && arg.completionCandidates() != null && arg.completionCandidates().iterator().hasNext()) {
            return ShellWords.word(arg.completionCandidates().iterator().next());
        }
        return arg.userObject() instanceof java.lang.reflect.Field field && field.isAnnotationPresent(ExampleValue.class)
                ? field.getAnnotation(ExampleValue.class).value() : null;
    }

    /** An argument's description in the help, as the rest of a sentence: "the run id (see 'rein runs')". */
    static String described(CommandLine.Model.ArgSpec arg) {
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
    static String withoutAsides(String text) {
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
}
