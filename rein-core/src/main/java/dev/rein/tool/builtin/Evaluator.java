package dev.rein.tool.builtin;

import dev.rein.tool.builtin.Expr.Chain;
import dev.rein.tool.builtin.Expr.Literal;
import dev.rein.tool.builtin.Expr.Negation;
import dev.rein.tool.builtin.Expr.Power;
import dev.rein.tool.builtin.Expr.Step;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Walks a parsed expression and enforces the wall-clock cap. The clock and the thread's interrupt
 * are checked before every operation; each single operation is bounded by the size limits, so the
 * cap (or an interrupt) is overshot by at most one operation.
 */
final class Evaluator {
    private final Arithmetic arithmetic;
    private final LongSupplier nanoTime;
    private final long start;
    private final long budgetNanos;
    private final Duration timeLimit;

    Evaluator(Arithmetic arithmetic, LongSupplier nanoTime, long start, Duration timeLimit) {
        this.arithmetic = arithmetic;
        this.nanoTime = nanoTime;
        this.start = start;
        this.timeLimit = timeLimit;
        this.budgetNanos = saturatedNanos(timeLimit);
    }

    BigDecimal evaluate(Expr expression) throws CalculationException {
        checkTime();
        return switch (expression) {
            case Literal literal -> arithmetic.literal(literal.value(), literal.position());
            case Negation negation -> evaluate(negation.operand()).negate();
            case Power power -> {
                BigDecimal base = evaluate(power.base());
                BigDecimal exponent = evaluate(power.exponent());
                checkTime();
                yield arithmetic.power(base, exponent, power.position());
            }
            case Chain chain -> {
                BigDecimal result = evaluate(chain.first());
                for (Step step : chain.steps()) {
                    BigDecimal operand = evaluate(step.operand());
                    checkTime();
                    result = arithmetic.apply(step.operator(), result, operand, step.position());
                }
                yield result;
            }
        };
    }

    private void checkTime() throws CalculationException {
        // The interrupt stays set for the caller: the tool's time limit or a cancel sent it.
        if (Thread.currentThread().isInterrupted()) {
            throw new CalculationException("the calculation was interrupted");
        }
        // Subtracting before comparing stays correct when nanoTime wraps around.
        if (nanoTime.getAsLong() - start > budgetNanos) {
            throw new CalculationException("calculation took longer than " + describe(timeLimit)
                    + " and was stopped; simplify the expression or split it into smaller steps");
        }
    }

    private static long saturatedNanos(Duration duration) {
        try {
            return duration.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    private static String describe(Duration duration) {
        return duration.toMillis() > 0 ? duration.toMillis() + " ms" : duration.toNanos() + " ns";
    }
}
