package dev.rein.tool.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class CurrentTimeTest {
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-01T01:05:11.678Z"), ZoneOffset.UTC);

    @Test
    void regionZoneShowsOffsetZoneAndWeekday() {
        assertThat(CurrentTime.describe("Asia/Tokyo", CLOCK))
                .isEqualTo("2026-12-01T10:05:11+09:00[Asia/Tokyo] (Tuesday)");
        assertThat(CurrentTime.describe("Europe/Paris", CLOCK))
                .isEqualTo("2026-12-01T02:05:11+01:00[Europe/Paris] (Tuesday)");
    }

    @Test
    void theDateAndWeekdayAreThoseOfTheZone() {
        assertThat(CurrentTime.describe("America/Los_Angeles", CLOCK))
                .isEqualTo("2026-11-30T17:05:11-08:00[America/Los_Angeles] (Monday)");
    }

    @Test
    void daylightSavingTimeIsApplied() {
        Clock summer = Clock.fixed(Instant.parse("2026-07-14T12:00:00Z"), ZoneOffset.UTC);
        assertThat(CurrentTime.describe("Europe/Paris", summer))
                .isEqualTo("2026-07-14T14:00:00+02:00[Europe/Paris] (Tuesday)");
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"  ", "UTC", "Z", "Etc/UTC", " UTC "})
    void missingTimezoneAndUtcAliasesMeanUtc(String timezone) {
        assertThat(CurrentTime.describe(timezone, CLOCK)).isEqualTo("2026-12-01T01:05:11Z (Tuesday)");
    }

    @Test
    void letterCaseIsForgiven() {
        assertThat(CurrentTime.describe("asia/tokyo", CLOCK))
                .isEqualTo("2026-12-01T10:05:11+09:00[Asia/Tokyo] (Tuesday)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"Mars/Olympus_Mons", "Tokyo", "not a zone!", "+99:00"})
    void unknownZonesAreNamedWithExamples(String timezone) {
        assertThatThrownBy(() -> CurrentTime.describe(timezone, CLOCK))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown time zone \"" + timezone + "\"; use an IANA time zone name such as"
                        + " \"Asia/Tokyo\", \"Europe/Paris\", \"America/New_York\" or \"UTC\"");
    }

    @Test
    void secondsAreAlwaysShown() {
        Clock onTheMinute = Clock.fixed(Instant.parse("2026-12-01T01:05:00Z"), ZoneOffset.UTC);
        assertThat(CurrentTime.describe("Asia/Tokyo", onTheMinute))
                .isEqualTo("2026-12-01T10:05:00+09:00[Asia/Tokyo] (Tuesday)");
    }
}
