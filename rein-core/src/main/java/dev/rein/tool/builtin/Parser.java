package dev.rein.tool.builtin;

import dev.rein.tool.builtin.Expr.Chain;
import dev.rein.tool.builtin.Expr.Literal;
import dev.rein.tool.builtin.Expr.Negation;
import dev.rein.tool.builtin.Expr.Operator;
import dev.rein.tool.builtin.Expr.Power;
import dev.rein.tool.builtin.Expr.Step;
import dev.rein.tool.builtin.Token.Kind;
import java.util.ArrayList;
import java.util.List;

/**
 * Recursive-descent parser for the calculator grammar:
 *
 * <pre>
 * expression = term (("+" | "-") term)*
 * term       = unary (("*" | "/") unary)*
 * unary      = ("+" | "-") unary | power
 * power      = primary (("**" | "^") unary)?
 * primary    = number | "(" expression ")"
 * </pre>
 *
 * The exponent of {@code power} is a {@code unary}, which makes power right-associative, lets it
 * bind tighter than a unary minus on its left ({@code -2**2 = -4}) and still accept a signed
 * exponent ({@code 2**-1}), as in Python. Every rule that recurses into a nested construct
 * (parenthesis, unary operator, exponent) counts one level of depth, and the depth is checked
 * before recursing, so the call stack stays bounded whatever the input.
 */
final class Parser {
    static final String EMPTY = "empty expression; give an arithmetic expression such as 2 + 3 * 4";
    private final Lexer lexer;
    private final int maxDepth;
    private Token current;
    private int depth;

    private Parser(String text, int maxDepth) {
        this.lexer = new Lexer(text);
        this.maxDepth = maxDepth;
    }

    static Expr parse(String text, int maxDepth) throws CalculationException {
        Parser parser = new Parser(text, maxDepth);
        parser.advance();
        if (parser.current.kind() == Kind.END) {
            throw new CalculationException(EMPTY);
        }
        Expr expression = parser.expression();
        if (parser.current.kind() != Kind.END) {
            throw parser.unexpectedAfterOperand();
        }
        return expression;
    }

    private Expr expression() throws CalculationException {
        Expr first = term();
        List<Step> steps = new ArrayList<>();
        while (current.kind() == Kind.PLUS || current.kind() == Kind.MINUS) {
            Operator operator = current.kind() == Kind.PLUS ? Operator.ADD : Operator.SUBTRACT;
            int position = current.position();
            advance();
            steps.add(new Step(operator, term(), position));
        }
        return steps.isEmpty() ? first : new Chain(first, steps);
    }

    private Expr term() throws CalculationException {
        Expr first = unary();
        List<Step> steps = new ArrayList<>();
        while (current.kind() == Kind.TIMES || current.kind() == Kind.DIVIDE) {
            Operator operator = current.kind() == Kind.TIMES ? Operator.MULTIPLY : Operator.DIVIDE;
            int position = current.position();
            advance();
            steps.add(new Step(operator, unary(), position));
        }
        return steps.isEmpty() ? first : new Chain(first, steps);
    }

    private Expr unary() throws CalculationException {
        if (current.kind() != Kind.PLUS && current.kind() != Kind.MINUS) {
            return power();
        }
        boolean negate = current.kind() == Kind.MINUS;
        advance();
        enter();
        Expr operand = unary();
        depth--;
        return negate ? new Negation(operand) : operand;
    }

    private Expr power() throws CalculationException {
        Expr base = primary();
        if (current.kind() != Kind.POWER) {
            return base;
        }
        int position = current.position();
        advance();
        enter();
        Expr exponent = unary();
        depth--;
        return new Power(base, exponent, position);
    }

    private Expr primary() throws CalculationException {
        Token token = current;
        if (token.kind() == Kind.NUMBER) {
            advance();
            return new Literal(token.value(), token.position());
        }
        if (token.kind() != Kind.OPEN) {
            throw expectedOperand();
        }
        advance();
        enter();
        Expr inner = expression();
        if (current.kind() == Kind.END) {
            throw new CalculationException("missing closing parenthesis at position " + current.position()
                    + " (to match the '(' at position " + token.position() + ")");
        }
        if (current.kind() != Kind.CLOSE) {
            throw new CalculationException("unexpected " + current.describe() + " at position "
                    + current.position() + "; expected an operator or ')'");
        }
        depth--;
        advance();
        return inner;
    }

    private void enter() throws CalculationException {
        if (++depth > maxDepth) {
            throw new CalculationException("nesting deeper than " + maxDepth + " levels"
                    + " (parentheses, signs and exponents each count one level); simplify the expression");
        }
    }

    private void advance() throws CalculationException {
        current = lexer.next();
    }

    private CalculationException expectedOperand() {
        if (current.kind() == Kind.END) {
            return new CalculationException("expression ends unexpectedly at position " + current.position()
                    + "; expected a number or '('");
        }
        return new CalculationException("unexpected " + current.describe() + " at position "
                + current.position() + "; expected a number or '('");
    }

    private CalculationException unexpectedAfterOperand() {
        if (current.kind() == Kind.CLOSE) {
            return new CalculationException("unexpected ')' at position " + current.position()
                    + " without a matching '('");
        }
        return new CalculationException("unexpected " + current.describe() + " at position "
                + current.position() + "; expected an operator such as + - * / or **");
    }
}
