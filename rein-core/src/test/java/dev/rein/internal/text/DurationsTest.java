package dev.rein.internal.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {

    @Test
    void aDurationFinerThanAMillisecondIsWrittenAsItIsNotCut() {
        Duration limit = Duration.ofNanos(1_000_500_000); // 1.0005 s
        assertThat(Durations.human(limit)).isEqualTo("1000.5 ms");
        assertThat(Durations.seconds(limit)).isEqualTo(new BigDecimal("1.0005"));
        assertThat(Durations.ofSeconds(new BigDecimal("1.0005"))).isEqualTo(limit);
        // as before where nothing is cut
        assertThat(Durations.human(Duration.ofSeconds(30))).isEqualTo("30 s");
        assertThat(Durations.human(Duration.ofMillis(1500))).isEqualTo("1500 ms");
        assertThat(Durations.seconds(Duration.ofSeconds(300))).isEqualTo(300L);
        assertThat(Durations.seconds(Duration.ofMillis(1500)).toString()).isEqualTo("1.5");
        assertThat(Durations.ofSeconds(new BigDecimal("1.0000000005"))).as("finer than a Duration holds").isNull();
    }

    /** An edited trace's "1e400000000" (read exactly) is refused at once, not expanded to its digits first. */
    @Test
    void aNumberFarOutsideWhatADurationHoldsIsRefusedAtOnce() {
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(10), () -> {
            assertThat(Durations.ofSeconds(new BigDecimal("1e400000000"))).isNull();
            assertThat(Durations.ofSeconds(new BigDecimal("-1e400000000"))).isNull();
            assertThat(Durations.ofSeconds(new BigDecimal("1e-400000000"))).isNull();
            assertThat(Durations.ofSeconds(new BigDecimal("9223372036854775808"))).isNull();
        });
        // the edges still hold
        assertThat(Durations.ofSeconds(new BigDecimal("0.000000001"))).isEqualTo(Duration.ofNanos(1));
        assertThat(Durations.ofSeconds(new BigDecimal("1.5000000000"))).isEqualTo(Duration.ofMillis(1500));
        assertThat(Durations.ofSeconds(new BigDecimal("1E+5"))).isEqualTo(Duration.ofSeconds(100_000));
        assertThat(Durations.ofSeconds(BigDecimal.ZERO)).isEqualTo(Duration.ZERO);
    }

    /**
     * A wait in whole milliseconds, a fraction rounded up, as the retry stage traces it and Temporal's SDK sends it (it
     * drops the rest): the one rounding both use, where each had its own copy.
     */
    @Test
    void aWaitIsRoundedUpToWholeMillisecondsAndALongestOneSaturates() {
        assertThat(Durations.upToMillis(Duration.ofNanos(400_000))).isEqualTo(Duration.ofMillis(1));
        assertThat(Durations.upToMillis(Duration.ofNanos(1_000_001))).isEqualTo(Duration.ofMillis(2));
        assertThat(Durations.upToMillis(Duration.ofMillis(1500))).isEqualTo(Duration.ofMillis(1500));
        assertThat(Durations.upToMillis(Duration.ZERO)).as("'at once' stays at once").isEqualTo(Duration.ZERO);
        // too long for a count of milliseconds: the longest that is, not an overflow
        assertThat(Durations.upToMillis(Duration.ofSeconds(Long.MAX_VALUE))).isEqualTo(Duration.ofMillis(Long.MAX_VALUE));
        assertThat(Durations.upToMillis(Duration.ofMillis(Long.MAX_VALUE).plusNanos(1)))
                .isEqualTo(Duration.ofMillis(Long.MAX_VALUE));
    }
}
