package dev.rein.tool.builtin;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A safe arithmetic evaluator for untrusted input such as a model's tool call. It parses the
 * expression itself (no script engine) and refuses, with a {@link CalculationException} that
 * explains why, anything that would take long or use much memory.
 *
 * <h2>Syntax</h2>
 * Numbers such as {@code 42}, {@code 3.25}, {@code .5} or {@code 2.}; the operators {@code +},
 * {@code -}, {@code *}, {@code /} and power {@code **} (also {@code ^}); the Unicode aliases
 * {@code ×}, {@code ÷} and {@code −}; unary plus and minus; parentheses; any whitespace. Power is
 * right-associative and binds tighter than a unary minus on its left, as in Python:
 * {@code 2**3**2 = 512}, {@code -2**2 = -4}, {@code 2**-1 = 0.5}. Error messages count positions
 * from 1.
 *
 * <h2>Numbers</h2>
 * Integer results are exact ({@code 2**100} prints all 31 digits). Other results are rounded to 34
 * significant digits like {@link java.math.MathContext#DECIMAL128}, so {@code 1/3} is
 * {@code 0.3333333333333333333333333333333333}; rounding never reaches into the integer part. A
 * power with a fractional exponent ({@code 2**0.5}) is computed with {@link Math#pow}, so it has
 * double precision (about 16 significant digits), needs a non-negative base and a result between
 * 1e-307 and 1e307. {@code 0**0} is 1.
 *
 * <h2>Limits</h2>
 * See {@link Limits}. The expression length and the nesting depth are checked while parsing; the
 * size of a power's result is estimated from logarithms before it is computed, so
 * {@code 9**9**9} is refused at once; the time cap is checked between operations.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class Calculator {

    /**
     * Resource limits of a {@link Calculator}.
     *
     * @param maxLength       longest accepted expression, in characters ({@link String#length()})
     * @param maxDepth        deepest nesting of parentheses, unary signs and exponents; at most
     *                        {@value #MAX_DEPTH_CEILING} because the parser recurses once per level
     * @param maxExponent     largest accepted magnitude of an exponent, at most
     *                        {@value #MAX_EXPONENT_CEILING}; checked after the result size, so that
     *                        {@code 9**9**9} is reported as too many digits, the actual problem
     * @param maxResultDigits largest number of digits in the integer part of any intermediate or
     *                        final result, at most {@value #MAX_RESULT_DIGITS_CEILING} so that one
     *                        operation stays fast enough for the time cap to be meaningful
     * @param timeLimit       wall-clock cap for one evaluation, checked between operations
     */
    public record Limits(int maxLength, int maxDepth, int maxExponent, int maxResultDigits, Duration timeLimit) {

        /**
         * Highest allowed {@code maxDepth}. Each level costs the parser up to about 1 KB of stack
         * before the JIT compiles it, so 200 levels fit easily in a 512 KB thread stack. (Should the
         * caller's stack be nearly full anyway, evaluation fails with a
         * {@link CalculationException}, never a {@link StackOverflowError}.)
         */
        public static final int MAX_DEPTH_CEILING = 200;
        /** Highest allowed {@code maxExponent}, the largest exponent {@link BigDecimal#pow(int)} takes. */
        public static final int MAX_EXPONENT_CEILING = 999_999_999;
        /** Highest allowed {@code maxResultDigits}. */
        public static final int MAX_RESULT_DIGITS_CEILING = 100_000;

        /**
         * 1,000 characters, depth 100, exponents up to 10,000, 1,000 digits, 1 s. The time cap is wall
         * time and includes the first evaluation's class loading and interpretation, which alone took
         * over 100 ms on a loaded 2-core machine; the other limits keep a warm evaluation to milliseconds.
         */
        public static final Limits DEFAULT = new Limits(1_000, 100, 10_000, 1_000, Duration.ofSeconds(1));

        /** @throws IllegalArgumentException if a limit is outside its documented range */
        public Limits {
            requireBetween("maxLength", maxLength, 1, Integer.MAX_VALUE, 1_000);
            requireBetween("maxDepth", maxDepth, 1, MAX_DEPTH_CEILING, 100);
            requireBetween("maxExponent", maxExponent, 0, MAX_EXPONENT_CEILING, 10_000);
            requireBetween("maxResultDigits", maxResultDigits, 1, MAX_RESULT_DIGITS_CEILING, 1_000);
            Objects.requireNonNull(timeLimit, "Calculator.Limits timeLimit is missing (null): give the longest one"
                    + " evaluation may take, e.g. Duration.ofSeconds(1) (as Limits.DEFAULT)");
            if (timeLimit.isNegative() || timeLimit.isZero()) {
                throw new IllegalArgumentException("Calculator.Limits timeLimit must be positive, was " + timeLimit
                        + ": give the longest one evaluation may take, e.g. Duration.ofSeconds(1) (as Limits.DEFAULT)");
            }
        }

        /** A copy with another {@code maxLength}. */
        public Limits withMaxLength(int value) {
            return new Limits(value, maxDepth, maxExponent, maxResultDigits, timeLimit);
        }

        /** A copy with another {@code maxDepth}. */
        public Limits withMaxDepth(int value) {
            return new Limits(maxLength, value, maxExponent, maxResultDigits, timeLimit);
        }

        /** A copy with another {@code maxExponent}. */
        public Limits withMaxExponent(int value) {
            return new Limits(maxLength, maxDepth, value, maxResultDigits, timeLimit);
        }

        /** A copy with another {@code maxResultDigits}. */
        public Limits withMaxResultDigits(int value) {
            return new Limits(maxLength, maxDepth, maxExponent, value, timeLimit);
        }

        /** A copy with another {@code timeLimit}. */
        public Limits withTimeLimit(Duration value) {
            return new Limits(maxLength, maxDepth, maxExponent, maxResultDigits, value);
        }

        // the default is passed in, not read from DEFAULT: DEFAULT itself is being built by the first call
        private static void requireBetween(String name, int value, int min, int max, int byDefault) {
            if (value < min || value > max) {
                throw new IllegalArgumentException("Calculator.Limits " + name + " must be between " + min + " and " + max
                        + ", was " + value + ": give a value in that range (Limits.DEFAULT has " + byDefault + ")");
            }
        }
    }

    private final Limits limits;
    private final Arithmetic arithmetic;
    private final LongSupplier nanoTime;

    /** A calculator with {@link Limits#DEFAULT}. */
    public static Calculator withDefaults() {
        return new Calculator(Limits.DEFAULT);
    }

    /** A calculator with the given limits. */
    public Calculator(Limits limits) {
        this(limits, System::nanoTime);
    }

    // The clock is injectable so that tests can exercise the time cap deterministically.
    Calculator(Limits limits, LongSupplier nanoTime) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.arithmetic = new Arithmetic(limits);
    }

    /** The limits this calculator enforces. */
    public Limits limits() {
        return limits;
    }

    /**
     * Evaluates an expression.
     *
     * @param expression the arithmetic expression; {@code null} counts as empty
     * @return the value: an integer with scale 0, any other number without trailing zeros
     *         ({@code 2.50} comes back as {@code 2.5})
     * @throws CalculationException if the expression is malformed, breaks a limit or divides by zero,
     *                              or the thread is interrupted (the interrupt stays set); the message
     *                              explains which and is meant for the user
     */
    public BigDecimal evaluate(String expression) throws CalculationException {
        if (expression == null) {
            throw new CalculationException(Parser.EMPTY);
        }
        if (expression.length() > limits.maxLength()) {
            throw new CalculationException("expression is " + expression.length() + " characters long; the limit is "
                    + limits.maxLength() + "; shorten it, or split the calculation into several calls");
        }
        long start = nanoTime.getAsLong();
        BigDecimal result;
        try {
            Expr tree = Parser.parse(expression, limits.maxDepth());
            result = new Evaluator(arithmetic, nanoTime, start, limits.timeLimit()).evaluate(tree);
        } catch (ArithmeticException outOfRange) {
            // Only BigDecimal's scale overflow gets here; the size checks prevent everything else.
            throw new CalculationException("a number in the calculation is out of range ("
                    + Objects.toString(outOfRange.getMessage(), "overflow").toLowerCase(Locale.ROOT)
                    + "); use smaller exponents");
        } catch (StackOverflowError callerStackNearlyFull) {
            // The depth limit keeps the recursion shallow, but the caller may already have used most
            // of its stack. Unwinding is safe: parsing and evaluation touch only their own objects.
            throw new CalculationException("the expression is nested too deeply for the available stack;"
                    + " simplify the expression");
        }
        // Integers come back with scale 0, so that toString() prints 1000 rather than 1E+3.
        return result.scale() < 0 ? result.setScale(0) : result;
    }

    /**
     * Evaluates an expression and formats the result for display: integers without a decimal
     * point ({@code 1024}), other values in plain notation ({@code 3.5}, {@code 0.001}). Only a value
     * so close to zero that its plain form would have more than {@link Limits#maxResultDigits()}
     * digits uses scientific notation ({@code 1E-5000}).
     *
     * @throws CalculationException as {@link #evaluate(String)}
     */
    public String evaluateToString(String expression) throws CalculationException {
        return format(evaluate(expression));
    }

    private String format(BigDecimal value) {
        // A plain form has max(precision, scale + 1) digits when scale > 0, and fewer otherwise.
        boolean tooLongForPlain = value.scale() > 0
                && Math.max(value.precision(), (long) value.scale() + 1) > limits.maxResultDigits();
        return tooLongForPlain ? value.toString() : value.toPlainString();
    }
}
