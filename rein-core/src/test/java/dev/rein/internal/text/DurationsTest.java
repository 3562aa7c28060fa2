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
}
