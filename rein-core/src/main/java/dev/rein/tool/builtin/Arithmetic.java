package dev.rein.tool.builtin;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * The calculator's number semantics. Integers are exact up to {@link Calculator.Limits#maxResultDigits()}
 * digits. Other results are rounded to 34 significant digits (the precision of
 * {@link MathContext#DECIMAL128}), except that rounding never reaches into the integer part, so a
 * non-integer whose integer part is longer than 34 digits is rounded to an integer.
 *
 * <p>Every operation checks the size of its result, and powers estimate it from logarithms before
 * computing anything, so no single operation can take long or allocate much.
 */
final class Arithmetic {
    private static final int SIGNIFICANT_DIGITS = MathContext.DECIMAL128.getPrecision();
    // Beyond this a fractional power's double result loses precision or overflows.
    private static final double MAX_DOUBLE_LOG10 = 307;
    // Covers the few ulps by which BigDecimal.pow(int, MathContext) may miss, and the estimate's error.
    private static final int GUARD_DIGITS = 10;
    // BigDecimal keeps its scale in an int; half of its range leaves room for a few more operations.
    private static final BigDecimal SMALLEST_LOG10 = BigDecimal.valueOf(-(Integer.MAX_VALUE / 2));

    private static final String TOO_MANY_DIGITS = "; use smaller numbers or exponents";
    private final Calculator.Limits limits;
    // Wide enough that every allowed integer is exact, with room for the rounding that follows.
    private final MathContext working;

    Arithmetic(Calculator.Limits limits) {
        this.limits = limits;
        this.working = new MathContext(limits.maxResultDigits() + SIGNIFICANT_DIGITS + 2, RoundingMode.HALF_EVEN);
    }

    BigDecimal literal(BigDecimal value, int position) throws CalculationException {
        long digits = Decimals.integerDigits(value);
        if (digits > limits.maxResultDigits()) {
            throw new CalculationException("the number at position " + position + " has " + digits
                    + " digits; the limit is " + limits.maxResultDigits() + "; use numbers of at most "
                    + limits.maxResultDigits() + " digits");
        }
        return normalize(value);
    }

    BigDecimal apply(Expr.Operator operator, BigDecimal left, BigDecimal right, int position)
            throws CalculationException {
        return switch (operator) {
            case ADD -> normalize(left.add(right, working));
            case SUBTRACT -> normalize(left.subtract(right, working));
            case MULTIPLY -> normalize(left.multiply(right, working));
            case DIVIDE -> divide(left, right, position);
        };
    }

    private BigDecimal divide(BigDecimal dividend, BigDecimal divisor, int position) throws CalculationException {
        if (divisor.signum() == 0) {
            throw new CalculationException("division by zero at position " + position);
        }
        BigDecimal quotient = dividend.divide(divisor, MathContext.DECIMAL128);
        long digits = Decimals.integerDigits(quotient);
        checkDigits(digits, false);
        if (digits > SIGNIFICANT_DIGITS) {
            // DECIMAL128 would round away integer digits, and the plain output would show them as zeros.
            quotient = dividend.divide(divisor, new MathContext((int) digits, RoundingMode.HALF_EVEN));
        }
        return normalize(quotient);
    }

    BigDecimal power(BigDecimal base, BigDecimal exponent, int position) throws CalculationException {
        if (exponent.signum() == 0) {
            return BigDecimal.ONE;
        }
        if (base.signum() == 0) {
            if (exponent.signum() < 0) {
                throw new CalculationException("division by zero at position " + position
                        + ": 0 cannot be raised to a negative power");
            }
            return BigDecimal.ZERO;
        }
        boolean integral = Decimals.isInteger(exponent);
        if (!integral && base.signum() < 0) {
            throw new CalculationException("a negative number cannot be raised to a fractional power (at position "
                    + position + "); the result would not be a real number");
        }
        double resultLog10 = checkGrowth(base, exponent);
        checkExponent(exponent);
        return integral
                ? integerPower(base, exponent.intValueExact(), resultLog10)
                : fractionalPower(base, exponent, resultLog10, position);
    }

    private BigDecimal integerPower(BigDecimal base, int exponent, double resultLog10) throws CalculationException {
        if (exponent > 0 && Decimals.isInteger(base)) {
            return normalize(base.pow(exponent));
        }
        // normalize() keeps only the integer digits and 34 more, so computing further digits is wasted work.
        long integerDigits = Math.max(0, (long) Math.floor(resultLog10) + 1);
        long precision = Math.min(working.getPrecision(), integerDigits + SIGNIFICANT_DIGITS + GUARD_DIGITS);
        return normalize(base.pow(exponent, new MathContext((int) precision, RoundingMode.HALF_EVEN)));
    }

    // Math.pow is as precise as a fractional power gets without an arbitrary-precision log/exp.
    private BigDecimal fractionalPower(BigDecimal base, BigDecimal exponent, double resultLog10, int position)
            throws CalculationException {
        double result = Math.pow(base.doubleValue(), exponent.doubleValue());
        if (Math.abs(resultLog10) > MAX_DOUBLE_LOG10 || !Double.isFinite(result) || result < Double.MIN_NORMAL) {
            throw new CalculationException("the fractional power at position " + position
                    + " is out of range: fractional powers are computed with double precision,"
                    + " so their result must lie between 1e-307 and 1e307");
        }
        return normalize(BigDecimal.valueOf(result));
    }

    /**
     * Refuses a power whose result would be too long or too close to zero, before computing it.
     *
     * @return the estimated log10 of the result's magnitude
     */
    private double checkGrowth(BigDecimal base, BigDecimal exponent) throws CalculationException {
        double log10 = Decimals.log10(base);
        if (log10 == 0) {
            return 0;
        }
        // exponent may be huge (10**999), so the product is formed in BigDecimal, not double.
        BigDecimal resultLog10 = exponent.multiply(new BigDecimal(log10), MathContext.DECIMAL64);
        if (resultLog10.compareTo(SMALLEST_LOG10) < 0) {
            throw new CalculationException("result is too close to zero to represent (about 10^"
                    + Decimals.brief(resultLog10.setScale(0, RoundingMode.CEILING)) + "); use a smaller exponent, or take the result as 0");
        }
        // One digit of slack absorbs the estimate's rounding; normalize() checks the exact size.
        if (resultLog10.compareTo(BigDecimal.valueOf(limits.maxResultDigits() + 1L)) >= 0) {
            BigDecimal digits = resultLog10.setScale(0, RoundingMode.FLOOR).add(BigDecimal.ONE);
            throw new CalculationException("result would have about " + Decimals.brief(digits)
                    + " digits; the limit is " + limits.maxResultDigits() + TOO_MANY_DIGITS);
        }
        return resultLog10.doubleValue();
    }

    private void checkExponent(BigDecimal exponent) throws CalculationException {
        if (exponent.abs().compareTo(BigDecimal.valueOf(limits.maxExponent())) <= 0) {
            return;
        }
        String limit = exponent.signum() > 0 ? " exceeds the limit of " + limits.maxExponent()
                : " is below the limit of -" + limits.maxExponent();
        throw new CalculationException("exponent " + Decimals.brief(exponent) + limit
                + "; use an exponent between -" + limits.maxExponent() + " and " + limits.maxExponent());
    }

    /** Checks the size of a computed result and rounds it to the calculator's precision. */
    private BigDecimal normalize(BigDecimal value) throws CalculationException {
        long digits = Decimals.integerDigits(value);
        checkDigits(digits, true);
        if (!Decimals.isInteger(value)) {
            int precision = (int) Math.max(SIGNIFICANT_DIGITS, digits);
            value = value.round(new MathContext(precision, RoundingMode.HALF_EVEN));
        }
        return value.stripTrailingZeros();
    }

    private void checkDigits(long digits, boolean exact) throws CalculationException {
        if (digits > limits.maxResultDigits()) {
            throw new CalculationException("result would have " + (exact ? "" : "about ") + digits
                    + " digits; the limit is " + limits.maxResultDigits() + TOO_MANY_DIGITS);
        }
    }
}
