package dev.rein.tool.builtin;

import java.math.BigDecimal;
import java.math.MathContext;

/** Small measurements of {@link BigDecimal} values that the arithmetic and the messages share. */
final class Decimals {
    private static final MathContext BRIEF = new MathContext(3);
    private static final int MAX_PLAIN_MESSAGE_LENGTH = 20;

    private Decimals() {
    }

    static boolean isInteger(BigDecimal value) {
        return value.signum() == 0 || value.scale() <= 0 || value.stripTrailingZeros().scale() <= 0;
    }

    /** Number of digits before the decimal point; 0 for values below 1 in magnitude. */
    static long integerDigits(BigDecimal value) {
        if (value.signum() == 0) {
            return 0;
        }
        return Math.max(0, (long) value.precision() - value.scale());
    }

    /** log10(|value|) for a non-zero value, accurate to about 15 significant digits. */
    static double log10(BigDecimal value) {
        // Scaling the unscaled value into [1, 10) keeps it a finite double whatever the magnitude.
        long exponent = (long) value.precision() - 1 - value.scale();
        BigDecimal mantissa = new BigDecimal(value.unscaledValue().abs(), value.precision() - 1);
        return exponent + Math.log10(mantissa.doubleValue());
    }

    /** A number for an error message: plain when short, otherwise three significant digits. */
    static String brief(BigDecimal value) {
        String plain = value.toPlainString();
        if (plain.length() <= MAX_PLAIN_MESSAGE_LENGTH) {
            return plain;
        }
        return value.round(BRIEF).stripTrailingZeros().toString();
    }
}
