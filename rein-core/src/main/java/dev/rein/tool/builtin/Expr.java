package dev.rein.tool.builtin;

import java.math.BigDecimal;
import java.util.List;

/**
 * Syntax tree of an expression. Runs of additions or multiplications are one {@link Chain} node
 * rather than a left-leaning tower of binary nodes, so the tree is only as deep as the nesting
 * the parser has already bounded, and evaluating it cannot overflow the stack.
 */
sealed interface Expr {

    record Literal(BigDecimal value, int position) implements Expr {
    }

    record Negation(Expr operand) implements Expr {
    }

    record Power(Expr base, Expr exponent, int position) implements Expr {
    }

    /** {@code first op1 operand1 op2 operand2 ...}, applied left to right. */
    record Chain(Expr first, List<Step> steps) implements Expr {
        public Chain {
            steps = List.copyOf(steps);
        }
    }

    record Step(Operator operator, Expr operand, int position) {
    }

    enum Operator { ADD, SUBTRACT, MULTIPLY, DIVIDE }
}
