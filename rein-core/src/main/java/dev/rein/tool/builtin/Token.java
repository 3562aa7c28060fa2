package dev.rein.tool.builtin;

import java.math.BigDecimal;

/**
 * One lexical unit of an expression. {@code position} counts characters from 1; {@code text} is
 * the source text, kept so that error messages quote what the user actually typed (e.g. {@code ×}).
 */
record Token(Kind kind, String text, int position, BigDecimal value) {

    enum Kind { NUMBER, PLUS, MINUS, TIMES, DIVIDE, POWER, OPEN, CLOSE, END }

    /** How the token is named in error messages. */
    String describe() {
        return switch (kind) {
            case NUMBER -> "number '" + text + "'";
            case END -> "end of expression";
            default -> "'" + text + "'";
        };
    }
}
