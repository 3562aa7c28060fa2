package dev.rein.tool.builtin;

import java.time.Clock;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.TextStyle;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Objects;

/**
 * The current date and time in a time zone, as one line that people and models read easily:
 * {@code 2026-12-01T10:05:11+09:00[Asia/Tokyo] (Tuesday)}. The ISO-8601 part is unambiguous and
 * machine-parsable; the weekday saves the reader a calendar computation it often gets wrong.
 */
public final class CurrentTime {
    private static final String EXAMPLES = "\"Asia/Tokyo\", \"Europe/Paris\", \"America/New_York\" or \"UTC\"";

    private CurrentTime() {
    }

    /**
     * Describes the current time of {@code clock} in {@code timezone}.
     *
     * @param timezone an IANA time zone name such as {@code Europe/Paris}, or {@code UTC} / {@code Z};
     *                 anything {@link ZoneId#of(String)} accepts, also in the wrong letter case
     *                 ({@code europe/paris}); {@code null} or blank means UTC
     * @param clock    the source of the current instant
     * @return for example {@code 2026-12-01T10:05:11+09:00[Asia/Tokyo] (Tuesday)}, or
     *         {@code 2026-12-01T01:05:11Z (Tuesday)} for UTC; seconds are always shown, fractions never
     * @throws IllegalArgumentException if the time zone is unknown; the message names it and gives
     *                                  examples of valid names
     */
    public static String describe(String timezone, Clock clock) {
        Objects.requireNonNull(clock, "clock");
        ZonedDateTime now = ZonedDateTime.now(clock.withZone(zone(timezone))).truncatedTo(ChronoUnit.SECONDS);
        return now.format(DateTimeFormatter.ISO_ZONED_DATE_TIME)
                + " (" + now.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + ")";
    }

    /** {@link #describe(String, Clock)} with the system clock. */
    public static String describe(String timezone) {
        return describe(timezone, Clock.systemUTC());
    }

    private static ZoneId zone(String timezone) {
        if (timezone == null || timezone.isBlank()) {
            return ZoneOffset.UTC;
        }
        String name = timezone.strip();
        ZoneId zone;
        try {
            zone = ZoneId.of(name);
        } catch (DateTimeException unknown) {
            zone = ZoneId.getAvailableZoneIds().stream()
                    .filter(name::equalsIgnoreCase)
                    .findFirst()
                    .map(ZoneId::of)
                    .orElseThrow(() -> new IllegalArgumentException("unknown time zone \"" + name
                            + "\"; use an IANA time zone name such as " + EXAMPLES, unknown));
        }
        // "UTC", "Etc/UTC" and "Z" all print as a plain "Z" rather than "Z[UTC]".
        return zone.normalized().equals(ZoneOffset.UTC) ? ZoneOffset.UTC : zone;
    }
}
