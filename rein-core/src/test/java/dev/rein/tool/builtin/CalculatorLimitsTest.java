package dev.rein.tool.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Each limit refuses the pathological input it exists for, with a message that says which limit. */
class CalculatorLimitsTest {
    // Correctness tests must not depend on machine load; only the time-limit test uses the real cap.
    private static final java.time.Duration TEST_TIME_LIMIT = java.time.Duration.ofSeconds(30);
    private static final String TOO_DEEP = "nesting deeper than 100 levels (parentheses, signs and exponents"
            + " each count one level); simplify the expression";

    private final Calculator calculator = new Calculator(Calculator.Limits.DEFAULT.withTimeLimit(TEST_TIME_LIMIT));
    // Long enough for the pathological inputs to reach the check under test rather than the length check.
    private final Calculator roomy = new Calculator(Calculator.Limits.DEFAULT.withMaxLength(1_000_000).withTimeLimit(TEST_TIME_LIMIT));

    private static void assertRefused(Calculator calculator, String expression, String message) {
        assertThatThrownBy(() -> calculator.evaluate(expression))
                .isInstanceOf(CalculationException.class)
                .hasMessage(message);
    }

    private void assertRefused(String expression, String message) {
        assertRefused(calculator, expression, message);
    }

    @Test
    void towersOfPowersAreRefusedBeforeTheyAreComputed() {
        assertRefused("9**9**9", "result would have about 369693100 digits; the limit is 1000; use smaller numbers or exponents");
        assertRefused("10**10**10", "result would have about 10000000001 digits; the limit is 1000; use smaller numbers or exponents");
        assertRefused("10**999**2", "result would have about 998002 digits; the limit is 1000; use smaller numbers or exponents");
        assertRefused("(10**999)**(10**999)", "result would have about 9.99E+1001 digits; the limit is 1000; use smaller numbers or exponents");
    }

    @Test
    void resultsJustOverTheDigitLimit() {
        assertRefused("10**1000", "result would have 1001 digits; the limit is 1000; use smaller numbers or exponents");
        assertRefused("2**3322", "result would have 1001 digits; the limit is 1000; use smaller numbers or exponents");
        assertRefused("10**999*10", "result would have 1001 digits; the limit is 1000; use smaller numbers or exponents");
        assertRefused("10**999/0.1", "result would have about 1001 digits; the limit is 1000; use smaller numbers or exponents");
    }

    @Test
    void exponentMagnitude() {
        assertRefused("1.0001**20000", "exponent 20000 exceeds the limit of 10000; use an exponent between -10000 and 10000");
        assertRefused("1.0001**-20000", "exponent -20000 is below the limit of -10000; use an exponent between -10000 and 10000");
        assertRefused("1**(10**30)", "exponent 1E+30 exceeds the limit of 10000; use an exponent between -10000 and 10000");
    }

    @Test
    void valuesTooCloseToZero() {
        assertRefused("((0.1**10000)**10000)**10000",
                "result is too close to zero to represent (about 10^-1000000000000); use a smaller exponent, or take the result as 0");
    }

    @Test
    void productsOfTinyValuesBeyondTheRepresentableRange() {
        String tiny = "((0.1**9999)**9999)";
        assertThatThrownBy(() -> calculator.evaluate(tiny + ("*" + tiny).repeat(29)))
                .isInstanceOf(CalculationException.class)
                .hasMessageStartingWith("a number in the calculation is out of range (")
                .hasMessageEndingWith("); use smaller exponents");
    }

    @Test
    void fractionalPowersOutsideDoubleRange() {
        assertRefused("10**307.5", "the fractional power at position 3 is out of range: fractional powers"
                + " are computed with double precision, so their result must lie between 1e-307 and 1e307");
    }

    @Test
    void longExpression() {
        String hundredKilobytes = "1+".repeat(49_999) + "10";
        assertThat(hundredKilobytes).hasSize(100_000);
        assertRefused(hundredKilobytes, "expression is 100000 characters long; the limit is 1000; shorten it, or split the calculation into several calls");
    }

    @Test
    void tenThousandNestedParentheses() {
        String deep = "(".repeat(10_000) + "1" + ")".repeat(10_000);
        assertRefused(deep, "expression is 20001 characters long; the limit is 1000; shorten it, or split the calculation into several calls");
        // With room for its length, the same expression is stopped by the depth check.
        assertRefused(roomy, deep, TOO_DEEP);
        assertRefused(roomy, "(".repeat(10_000), TOO_DEEP);
    }

    @Test
    void signsAndExponentsCountAsNesting() {
        assertRefused(roomy, "-".repeat(10_000) + "1", TOO_DEEP);
        assertRefused(roomy, "1" + "**1".repeat(10_000), TOO_DEEP);
    }

    @Test
    void nestingUpToTheLimitIsAccepted() throws CalculationException {
        assertThat(calculator.evaluateToString("(".repeat(100) + "1" + ")".repeat(100))).isEqualTo("1");
        assertRefused("(".repeat(101) + "1" + ")".repeat(101), TOO_DEEP);
    }

    @Test
    void theDeepestAllowedNestingFitsInAHalfMegabyteThreadStack() throws Exception {
        int ceiling = Calculator.Limits.MAX_DEPTH_CEILING;
        Calculator deepest = new Calculator(Calculator.Limits.DEFAULT.withMaxDepth(ceiling).withTimeLimit(TEST_TIME_LIMIT));
        List<String> results = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread small = new Thread(null, () -> {
            try {
                results.add(deepest.evaluateToString("(".repeat(ceiling) + "2" + ")".repeat(ceiling)));
                results.add(deepest.evaluateToString("-(".repeat(ceiling / 2) + "2" + ")".repeat(ceiling / 2)));
                results.add(deepest.evaluateToString("1" + "**1".repeat(ceiling)));
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "small-stack", 512 * 1024);
        small.start();
        small.join();
        assertThat(failure.get()).isNull();
        assertThat(results).containsExactly("2", "2", "1");
    }

    @Test
    void aStackTooSmallForTheNestingGivesACalculationException() throws Exception {
        int ceiling = Calculator.Limits.MAX_DEPTH_CEILING;
        Calculator deepest = new Calculator(Calculator.Limits.DEFAULT.withMaxDepth(ceiling).withTimeLimit(TEST_TIME_LIMIT));
        AtomicReference<Object> outcome = new AtomicReference<>();
        // 64 KB is rounded up to the JVM's minimum, which is too small for 200 levels unless the
        // parser happens to be JIT-compiled already; either outcome is fine, a StackOverflowError is not.
        Thread tiny = new Thread(null, () -> {
            try {
                outcome.set(deepest.evaluateToString("(".repeat(ceiling) + "2" + ")".repeat(ceiling)));
            } catch (Throwable t) {
                outcome.set(t);
            }
        }, "tiny-stack", 64 * 1024);
        tiny.start();
        tiny.join();
        if (outcome.get() instanceof Throwable thrown) {
            assertThat(thrown).isInstanceOf(CalculationException.class).hasMessage("the expression is nested too"
                    + " deeply for the available stack; simplify the expression");
        } else {
            assertThat(outcome.get()).isEqualTo("2");
        }
    }

    @Test
    void longChainsOfOperatorsAreNotNesting() throws CalculationException {
        Calculator longer = new Calculator(Calculator.Limits.DEFAULT.withMaxLength(20_001)
                .withTimeLimit(Duration.ofSeconds(10)));
        assertThat(longer.evaluateToString("1" + "+1".repeat(10_000))).isEqualTo("10001");
    }

    @Test
    void longNumbers() {
        Calculator longer = new Calculator(Calculator.Limits.DEFAULT.withMaxLength(2_000).withTimeLimit(TEST_TIME_LIMIT));
        assertRefused(longer, "2+1" + "0".repeat(1000),
                "the number at position 3 has 1001 digits; the limit is 1000; use numbers of at most 1000 digits");
    }

    @Test
    void timeLimit() {
        AtomicLong now = new AtomicLong();
        // Every reading of the clock advances it by 600 ms, so the third reading is past the default 1 s.
        Calculator slow = new Calculator(Calculator.Limits.DEFAULT, () -> now.getAndAdd(600_000_000L));
        assertRefused(slow, "1+2+3", "calculation took longer than 1000 ms and was stopped;"
                + " simplify the expression or split it into smaller steps");
    }

    @Test
    void anInterruptStopsTheCalculationAtTheNextOperationAndStaysSet() {
        AtomicLong readings = new AtomicLong();
        // The thread is interrupted mid-calculation, at the third reading of the clock (a time limit's alarm or a cancel).
        Calculator interrupted = new Calculator(Calculator.Limits.DEFAULT, () -> {
            if (readings.incrementAndGet() == 3) {
                Thread.currentThread().interrupt();
            }
            return 0;
        });
        try {
            assertRefused(interrupted, "1+2+3+4+5", "the calculation was interrupted");
            assertThat(readings.get()).isEqualTo(3); // no operation after the interrupt
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void limitsAreConfigurable() throws CalculationException {
        Calculator tight = new Calculator(new Calculator.Limits(10, 2, 3, 3, Duration.ofSeconds(1)));
        assertRefused(tight, "12345678901", "expression is 11 characters long; the limit is 10; shorten it, or split the calculation into several calls");
        assertRefused(tight, "((-1))", "nesting deeper than 2 levels (parentheses, signs and exponents"
                + " each count one level); simplify the expression");
        assertRefused(tight, "1.1**4", "exponent 4 exceeds the limit of 3; use an exponent between -3 and 3");
        assertRefused(tight, "999+1", "result would have 4 digits; the limit is 3; use smaller numbers or exponents");
        assertThat(tight.evaluateToString("9**3")).isEqualTo("729");
    }

    @Test
    void invalidLimitsAreRejected() {
        Duration second = Duration.ofSeconds(1);
        assertThatThrownBy(() -> new Calculator.Limits(0, 100, 10, 10, second))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Calculator.Limits maxLength must be between 1 and 2147483647, was 0: give a value in that range"
                        + " (Limits.DEFAULT has 1000)");
        assertThatThrownBy(() -> new Calculator.Limits(10, 201, 10, 10, second))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Calculator.Limits maxDepth must be between 1 and 200, was 201: give a value in that range"
                        + " (Limits.DEFAULT has 100)");
        assertThatThrownBy(() -> new Calculator.Limits(10, 10, 10, 10, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Calculator.Limits timeLimit must be positive, was PT0S: give the longest one evaluation may take,"
                        + " e.g. Duration.ofSeconds(1) (as Limits.DEFAULT)");
    }
}
