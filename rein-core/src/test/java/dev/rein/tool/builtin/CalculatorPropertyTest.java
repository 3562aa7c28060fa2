package dev.rein.tool.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.StringLength;

class CalculatorPropertyTest {
    // Correctness tests must not depend on machine load; only the time-limit test uses the real cap.
    private static final java.time.Duration TEST_TIME_LIMIT = java.time.Duration.ofSeconds(30);
    private final Calculator calculator = new Calculator(Calculator.Limits.DEFAULT.withTimeLimit(TEST_TIME_LIMIT));

    @Property(tries = 2_000)
    void arbitraryStringsEitherEvaluateOrFailWithAMessage(@ForAll String expression) {
        assertEvaluatesOrExplains(expression);
    }

    // Random strings rarely get past the lexer; strings over the grammar's own alphabet reach the
    // parser and the arithmetic, including towers like 9^9^9 and divisions by zero.
    @Property(tries = 5_000)
    void stringsOfCalculatorSymbolsEitherEvaluateOrFailWithAMessage(
            @ForAll @Chars({'0', '1', '2', '9', '.', '+', '-', '*', '/', '^', '(', ')', ' ', '×', '÷', '−'})
            @StringLength(max = 40) String expression) {
        assertEvaluatesOrExplains(expression);
    }

    @Property
    void integerArithmeticIsExact(@ForAll long a, @ForAll long b, @ForAll long c) throws CalculationException {
        BigInteger expected = BigInteger.valueOf(a)
                .subtract(BigInteger.valueOf(b).multiply(BigInteger.valueOf(c)));
        assertThat(calculator.evaluateToString(a + " - " + b + " * " + c)).isEqualTo(expected.toString());
    }

    private void assertEvaluatesOrExplains(String expression) {
        try {
            calculator.evaluate(expression);
        } catch (CalculationException expected) {
            assertThat(expected.getMessage()).isNotBlank();
        }
    }
}
