package dev.rein.tool.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Syntax, number semantics and error messages; the resource limits are in {@link CalculatorLimitsTest}. */
class CalculatorTest {
    // Correctness tests must not depend on machine load; only the time-limit test uses the real cap.
    private static final java.time.Duration TEST_TIME_LIMIT = java.time.Duration.ofSeconds(30);
    private final Calculator calculator = new Calculator(Calculator.Limits.DEFAULT.withTimeLimit(TEST_TIME_LIMIT));

    private String eval(String expression) throws CalculationException {
        return calculator.evaluateToString(expression);
    }

    private void assertRefused(String expression, String message) {
        assertThatThrownBy(() -> calculator.evaluate(expression))
                .isInstanceOf(CalculationException.class)
                .hasMessage(message);
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', textBlock = """
            2+3*4        | 14
            (2+3)*4      | 20
            2*3+4*5      | 26
            10-4-3       | 3
            1-2+3        | 2
            100/10/5     | 2
            8/2*4        | 16
            2**3**2      | 512
            (2**3)**2    | 64
            2^3^2        | 512
            2*3**2       | 18
            2**3*2       | 16
            -2**2        | -4
            (-2)**2      | 4
            -2^2         | -4
            2**-1        | 0.5
            2**-2**2     | 0.0625
            -3-3         | -6
            --3          | 3
            +5           | 5
            -+-5         | 5
            2*-3         | -6
            2--3         | 5
            -(2+3)       | -5
            ((((7))))    | 7
            """)
    void precedenceAssociativityAndSigns(String expression, String expected) throws CalculationException {
        assertThat(eval(expression)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', textBlock = """
            6 × 7        | 42
            7 ÷ 2        | 3.5
            5 − 8        | -3
            −2 ** 2      | -4
            2 × −3 ÷ 4   | -1.5
            """)
    void unicodeOperators(String expression, String expected) throws CalculationException {
        assertThat(eval(expression)).isEqualTo(expected);
    }

    @Test
    void whitespaceOfAnyKindIsIgnored() throws CalculationException {
        assertThat(eval(" \t1 +\n 2 ")).isEqualTo("3");
        assertThat(eval("1\u00A0+\u202F2")).isEqualTo("3");
        assertThat(eval("2 ** 10")).isEqualTo("1024");
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', textBlock = """
            3.25         | 3.25
            3.25*4       | 13
            .5+.25       | 0.75
            2.           | 2
            0.1+0.2      | 0.3
            1.50*2       | 3
            7/2          | 3.5
            1/3          | 0.3333333333333333333333333333333333
            2/3          | 0.6666666666666666666666666666666667
            -1/3         | -0.3333333333333333333333333333333333
            1/8          | 0.125
            1/3*3        | 0.9999999999999999999999999999999999
            0.001*0.001  | 0.000001
            2**10        | 1024
            10**20       | 100000000000000000000
            2**100       | 1267650600228229401496703205376
            1.5**2       | 2.25
            0.5**-3      | 8
            0**0         | 1
            0**5         | 0
            -0           | 0
            0.000        | 0
            007          | 7
            10**-5       | 0.00001
            """)
    void decimalArithmetic(String expression, String expected) throws CalculationException {
        assertThat(eval(expression)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', textBlock = """
            2**0.5       | 1.4142135623730951
            4**0.5       | 2
            8**(1/3)     | 2
            2**0.5**2    | 1.189207115002721
            """)
    void fractionalExponentsHaveDoublePrecision(String expression, String expected) throws CalculationException {
        assertThat(eval(expression)).isEqualTo(expected);
    }

    @Test
    void integersAreExactUpToTheDigitLimit() throws CalculationException {
        assertThat(eval("10**999")).isEqualTo("1" + "0".repeat(999));
        assertThat(eval("2**3321")).hasSize(1000).startsWith("52555188738244169");
        assertThat(eval("99999999999999999999*99999999999999999999"))
                .isEqualTo("9999999999999999999800000000000000000001");
        assertThat(eval("3**80/3")).isEqualTo(BigInteger.valueOf(3).pow(79).toString());
    }

    @Test
    void evaluateReturnsIntegersWithScaleZero() throws CalculationException {
        assertThat(calculator.evaluate("10**3")).isEqualTo(new BigDecimal("1000"));
        assertThat(calculator.evaluate("2.50*1")).isEqualTo(new BigDecimal("2.5"));
    }

    @Test
    void valuesTooSmallForPlainNotationUseScientificNotation() throws CalculationException {
        assertThat(eval("10**-5000")).isEqualTo("1E-5000");
        assertThat(eval("1/10**999/10**999")).isEqualTo("1E-1998");
        assertThat(eval("0.5**10000")).isEqualTo("5.012372749206452009297555933742978E-3011");
    }

    @Test
    void divisionByZero() {
        assertRefused("1/0", "division by zero at position 2");
        assertRefused("1 + 2/(3-3)", "division by zero at position 6");
        assertRefused("0**-1", "division by zero at position 2: 0 cannot be raised to a negative power");
    }

    @ParameterizedTest
    @NullSource
    @ValueSource(strings = {"", "   ", "\t\n", "\u00A0"})
    void emptyExpression(String expression) {
        assertRefused(expression, "empty expression; give an arithmetic expression such as 2 + 3 * 4");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            2+      | expression ends unexpectedly at position 3; expected a number or '('
            )(      | unexpected ')' at position 1; expected a number or '('
            ()      | unexpected ')' at position 2; expected a number or '('
            2***3   | unexpected '*' at position 4; expected a number or '('
            1..2    | malformed number '1..2' at position 1; write numbers like 42, 3.25 or .5
            1.2.3   | malformed number '1.2.3' at position 1; write numbers like 42, 3.25 or .5
            2*.     | malformed number '.' at position 3; write numbers like 42, 3.25 or .5
            abc     | unexpected character 'a' at position 1; only numbers, parentheses and the operators + - * / ** ^ are allowed
            1 + @   | unexpected character '@' at position 5; only numbers, parentheses and the operators + - * / ** ^ are allowed
            1e5     | unexpected character 'e' at position 2; only numbers, parentheses and the operators + - * / ** ^ are allowed
            sqrt(2) | unexpected character 's' at position 1; only numbers, parentheses and the operators + - * / ** ^ are allowed
            (1+2*3  | missing closing parenthesis at position 7 (to match the '(' at position 1)
            (1 2)   | unexpected number '2' at position 4; expected an operator or ')'
            1+2)    | unexpected ')' at position 4 without a matching '('
            1 2     | unexpected number '2' at position 3; expected an operator such as + - * / or **
            2(3)    | unexpected '(' at position 2; expected an operator such as + - * / or **
            """)
    void malformedInput(String expression, String message) {
        assertRefused(expression, message);
    }

    @Test
    void theLeftmostProblemIsReported() {
        assertRefused(")@", "unexpected ')' at position 1; expected a number or '('");
    }

    @Test
    void invisibleCharactersAreNamedByCodePoint() {
        assertRefused("1+\u0000", "unexpected character U+0000 at position 3;"
                + " only numbers, parentheses and the operators + - * / ** ^ are allowed");
    }

    @Test
    void negativeBaseWithFractionalExponent() {
        assertRefused("(-8)**(1/3)", "a negative number cannot be raised to a fractional power"
                + " (at position 5); the result would not be a real number");
    }
}
