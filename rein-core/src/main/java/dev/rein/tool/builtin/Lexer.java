package dev.rein.tool.builtin;

import dev.rein.tool.builtin.Token.Kind;
import java.math.BigDecimal;

/**
 * Splits an expression into tokens on demand, so that the parser reports the leftmost error
 * first even when a later character is invalid too.
 */
final class Lexer {
    private final String text;
    private int index;

    Lexer(String text) {
        this.text = text;
    }

    Token next() throws CalculationException {
        skipWhitespace();
        int start = index;
        if (start >= text.length()) {
            return new Token(Kind.END, "", start + 1, null);
        }
        char c = text.charAt(start);
        return switch (c) {
            case '+' -> single(Kind.PLUS);
            case '-', '\u2212' -> single(Kind.MINUS);
            case '\u00D7' -> single(Kind.TIMES);
            case '/', '\u00F7' -> single(Kind.DIVIDE);
            case '^' -> single(Kind.POWER);
            case '(' -> single(Kind.OPEN);
            case ')' -> single(Kind.CLOSE);
            case '*' -> start + 1 < text.length() && text.charAt(start + 1) == '*'
                    ? token(Kind.POWER, 2)
                    : single(Kind.TIMES);
            default -> {
                if (isDigit(c) || c == '.') {
                    yield number();
                }
                throw unexpectedCharacter(start);
            }
        };
    }

    private Token single(Kind kind) {
        return token(kind, 1);
    }

    private Token token(Kind kind, int length) {
        int start = index;
        index += length;
        return new Token(kind, text.substring(start, index), start + 1, null);
    }

    private Token number() throws CalculationException {
        int start = index;
        int dots = 0;
        int digits = 0;
        while (index < text.length() && (isDigit(text.charAt(index)) || text.charAt(index) == '.')) {
            if (text.charAt(index) == '.') {
                dots++;
            } else {
                digits++;
            }
            index++;
        }
        String literal = text.substring(start, index);
        if (dots > 1 || digits == 0) {
            throw new CalculationException("malformed number '" + literal + "' at position " + (start + 1)
                    + "; write numbers like 42, 3.25 or .5");
        }
        return new Token(Kind.NUMBER, literal, start + 1, new BigDecimal(literal));
    }

    private void skipWhitespace() {
        while (index < text.length()
                && (Character.isWhitespace(text.charAt(index)) || Character.isSpaceChar(text.charAt(index)))) {
            index++;
        }
    }

    private CalculationException unexpectedCharacter(int at) {
        int codePoint = text.codePointAt(at);
        return new CalculationException("unexpected character " + quote(codePoint) + " at position " + (at + 1)
                + "; only numbers, parentheses and the operators + - * / ** ^ are allowed");
    }

    // Control and invisible characters would vanish inside quotes, so they are named by code point.
    private static String quote(int codePoint) {
        int type = Character.getType(codePoint);
        boolean invisible = Character.isISOControl(codePoint) || type == Character.FORMAT
                || type == Character.SURROGATE || type == Character.UNASSIGNED
                || type == Character.PRIVATE_USE;
        return invisible
                ? String.format("U+%04X", codePoint)
                : "'" + new String(Character.toChars(codePoint)) + "'";
    }

    // Character.isDigit would also accept other scripts' digits, which the grammar does not.
    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
