package dev.rein.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RetryPolicyTest {
    private final RetryPolicy policy = new RetryPolicy(4, Duration.ofMillis(500), Duration.ofSeconds(5), 0);

    @Test
    void aServersHintIsHonouredInFullUpToTheLongestHintWhateverTheMaximumDelay() {
        assertThat(policy.delayBefore(1, Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(30));
        assertThat(policy.delayBefore(3, RetryPolicy.LONGEST_HINT)).isEqualTo(Duration.ofSeconds(60));
        assertThat(policy.delayBefore(1, Duration.ZERO)).isEqualTo(Duration.ZERO);
        assertThat(RetryPolicy.tooLong(Duration.ofSeconds(30))).isFalse();
        assertThat(RetryPolicy.tooLong(RetryPolicy.LONGEST_HINT)).isFalse();
        assertThat(RetryPolicy.tooLong(null)).isFalse();
    }

    @Test
    void aHintLongerThanTheLongestIsTooLongAndTheMessageSaysWhatToDo() {
        Duration hint = Duration.ofSeconds(120);
        assertThat(RetryPolicy.tooLong(hint)).isTrue();
        assertThat(RetryPolicy.tooLong(RetryPolicy.LONGEST_HINT.plusMillis(1))).isTrue();
        assertThat(policy.delayBefore(1, hint)).as("returned as is, for the deadline check").isEqualTo(hint);
        assertThat(RetryPolicy.tooLongMessage(hint))
                .isEqualTo("not retried: the server asked to wait 120 s, more than Rein waits (60 s); "
                        + "try again later, or raise the account's rate limits");
        assertThat(RetryPolicy.tooLongMessage(Duration.ofMillis(90_500))).contains("asked to wait 91 s");
    }

    @Test
    void withoutAHintTheBackoffDoublesUpToTheMaximumDelay() {
        assertThat(policy.delayBefore(1, null)).isEqualTo(Duration.ofMillis(500));
        assertThat(policy.delayBefore(2, null)).isEqualTo(Duration.ofSeconds(1));
        assertThat(policy.delayBefore(5, null)).isEqualTo(Duration.ofSeconds(5));
        assertThat(policy.delayBefore(2, Duration.ofSeconds(-1))).as("a negative hint is ignored").isEqualTo(Duration.ofSeconds(1));
    }

    /**
     * The backoff counted whole milliseconds: an initialDelay of 0.5 ms retried at once (0 ms), 1.5 ms
     * doubled to 2 ms instead of 3 ms, and a maxDelay of 2.5 ms capped at 2 ms. The delays are what
     * the policy configures, to the nanosecond.
     */
    @Test
    void subMillisecondDelaysAreKeptNotTruncatedToWholeMilliseconds() {
        RetryPolicy halfMilli = new RetryPolicy(3, Duration.ofNanos(500_000), Duration.ofSeconds(1), 0);
        assertThat(halfMilli.delayBefore(1, null)).isEqualTo(Duration.ofNanos(500_000));
        assertThat(halfMilli.delayBefore(2, null)).isEqualTo(Duration.ofMillis(1));
        assertThat(new RetryPolicy(3, Duration.ofNanos(1_500_000), Duration.ofSeconds(1), 0).delayBefore(2, null))
                .isEqualTo(Duration.ofMillis(3));
        assertThat(new RetryPolicy(5, Duration.ofMillis(1), Duration.ofNanos(2_500_000), 0).delayBefore(3, null))
                .isEqualTo(Duration.ofNanos(2_500_000));
        assertThat(new RetryPolicy(1, Duration.ofNanos(1), Duration.ofSeconds(1), 0).delayBefore(1, null))
                .isEqualTo(Duration.ofNanos(1));
    }

    /**
     * A delay too long for a count of milliseconds (Duration.ofSeconds(Long.MAX_VALUE), which the
     * constructor takes) made the first retry throw ArithmeticException; it now counts as the longest
     * wait a millisecond count holds, which callers still cap at their deadline.
     */
    @Test
    void delaysTooLongForMillisecondsAreTheLongestWaitNotAnOverflow() {
        Duration endless = Duration.ofSeconds(Long.MAX_VALUE);
        Duration longest = Duration.ofMillis(Long.MAX_VALUE);
        assertThat(new RetryPolicy(3, endless, endless, 0).delayBefore(1, null)).isEqualTo(longest);
        assertThat(new RetryPolicy(3, endless, endless, 0.5).delayBefore(3, null)).isEqualTo(longest);
        assertThat(new RetryPolicy(3, Duration.ofSeconds(1), endless, 0).delayBefore(2, null)).isEqualTo(Duration.ofSeconds(2));
        assertThat(new RetryPolicy(3, endless, Duration.ofSeconds(30), 0).delayBefore(1, null)).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void badSettingsSayWhatWasWrong() {
        assertThatThrownBy(() -> new RetryPolicy(-1, Duration.ZERO, Duration.ZERO, 0))
                .isInstanceOf(ReinException.class).hasMessageContaining("maxRetries cannot be negative, was -1");
        assertThatThrownBy(() -> new RetryPolicy(1, Duration.ZERO, Duration.ZERO, 2))
                .isInstanceOf(ReinException.class).hasMessageContaining("jitter must be between 0 and 1");
    }

    @Test
    void aNegativeDelayOrRetryCountIsNamedWithItsValueAndWhatToGive() {
        // 'retry delays cannot be negative' named neither the delay nor its value
        assertThatThrownBy(() -> new RetryPolicy(2, Duration.ofMillis(-200), Duration.ofSeconds(5), 0.2))
                .isInstanceOf(ReinException.class).hasMessage("the retry policy's initialDelay cannot be negative, was -0.2 s:"
                        + " give the wait before the first retry, e.g. Duration.ofMillis(200), or Duration.ZERO to retry at once");
        assertThatThrownBy(() -> new RetryPolicy(2, Duration.ofMillis(200), Duration.ofSeconds(-5), 0.2))
                .isInstanceOf(ReinException.class).hasMessage("the retry policy's maxDelay cannot be negative, was -5 s:"
                        + " give the longest wait between attempts, e.g. Duration.ofSeconds(5)");
        assertThatThrownBy(() -> new RetryPolicy(-1, Duration.ZERO, Duration.ZERO, 0))
                .isInstanceOf(ReinException.class).hasMessage("maxRetries cannot be negative, was -1: give the retries after the"
                        + " first attempt, 0 for none (RetryPolicy.NONE)");
    }

    @Test
    void aMissingDelayOrAJitterThatIsNoNumberSaysWhatWasWrong() {
        // a null delay threw the record's NullPointerException (Duration.isNegative on null); a NaN jitter (a value read
        // from a setting that did not parse) passed the range check and made every computed wait 0 ms
        assertThatThrownBy(() -> new RetryPolicy(2, null, Duration.ofSeconds(5), 0.2)).isInstanceOf(ReinException.class)
                .hasMessage("the retry policy's initialDelay is missing (null): pass a Duration, e.g. Duration.ofMillis(200)");
        assertThatThrownBy(() -> new RetryPolicy(2, Duration.ofMillis(200), null, 0.2)).isInstanceOf(ReinException.class)
                .hasMessage("the retry policy's maxDelay is missing (null): pass a Duration, e.g. Duration.ofSeconds(5)");
        assertThatThrownBy(() -> new RetryPolicy(2, Duration.ofMillis(200), Duration.ofSeconds(5), Double.NaN))
                .isInstanceOf(ReinException.class).hasMessage("jitter must be between 0 and 1, was NaN: give the fraction of random spread"
                        + " around each delay, e.g. 0.2 (RetryPolicy.DEFAULT's), or 0 for none");
    }
}
