package dev.rein.examples.date;

import dev.rein.run.FinalAnswer;
import dev.rein.examples.Exchanges.Exchange;
import dev.rein.examples.Exchanges;
import dev.rein.guard.RequiredFact;
import java.text.Normalizer;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.Month;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a date answer must establish, checked against the tools' results rather than the model's
 * word: the date it states is the one {@code add_days} computed, and when the question counts
 * from today, that computation started from the date {@code get_current_time} returned.
 */
final class DateFacts {
    private static final Pattern ISO = Pattern.compile("(\\d{4})-(\\d{1,2})-(\\d{1,2})");
    private static final Pattern JAPANESE = Pattern.compile("(\\d{4})年\\s*(\\d{1,2})月\\s*(\\d{1,2})日");
    private static final String MONTHS = "(january|february|march|april|may|june|july|august|september|october|november|december)";
    private static final Pattern ENGLISH_MDY = Pattern.compile(MONTHS + "\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})");
    private static final Pattern ENGLISH_DMY = Pattern.compile("(\\d{1,2})(?:st|nd|rd|th)?\\s+" + MONTHS + ",?\\s+(\\d{4})");
    private static final Pattern RELATIVE_TO_TODAY = Pattern.compile("today|from now|今日|本日|きょう", Pattern.CASE_INSENSITIVE);

    private DateFacts() {}

    /** The answer states the date {@code add_days} returned last. */
    static RequiredFact statesComputedDate() {
        return new RequiredFact("the date add_days computed", "compute the date with add_days and state it, e.g. as YYYY-MM-DD",
                answer -> lastComputed(answer).map(date -> datesIn(answer.answer()).contains(date)).orElse(false));
    }

    /** For a question relative to today: add_days started from the date get_current_time returned. */
    static RequiredFact countedFromToday() {
        return new RequiredFact("counted from today's date", "call get_current_time and pass its date to add_days",
                answer -> !RELATIVE_TO_TODAY.matcher(answer.goal()).find() || countedFromToday(answer));
    }

    private static boolean countedFromToday(FinalAnswer answer) {
        Set<LocalDate> today = new HashSet<>();
        for (Exchange e : Exchanges.succeeded(answer.history(), "get_current_time")) {
            today.addAll(datesIn(e.data()));
        }
        List<Exchange> computed = Exchanges.succeeded(answer.history(), "add_days");
        if (today.isEmpty() || computed.isEmpty()) {
            return false;
        }
        return datesIn(computed.get(computed.size() - 1).input().path("date").asText()).stream().anyMatch(today::contains);
    }

    private static Optional<LocalDate> lastComputed(FinalAnswer answer) {
        List<Exchange> computed = Exchanges.succeeded(answer.history(), "add_days");
        return computed.isEmpty() ? Optional.empty() : datesIn(computed.get(computed.size() - 1).data()).stream().findFirst();
    }

    /** Every full date written in {@code text}: ISO, Japanese (2026年6月9日) or English (June 9, 2026 / 9 June 2026). */
    static Set<LocalDate> datesIn(String text) {
        String t = Normalizer.normalize(text == null ? "" : text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        Set<LocalDate> dates = new HashSet<>();
        collect(ISO.matcher(t), 1, 2, 3, dates);
        collect(JAPANESE.matcher(t), 1, 2, 3, dates);
        Matcher mdy = ENGLISH_MDY.matcher(t);
        while (mdy.find()) {
            add(dates, mdy.group(3), String.valueOf(Month.valueOf(mdy.group(1).toUpperCase(Locale.ROOT)).getValue()), mdy.group(2));
        }
        Matcher dmy = ENGLISH_DMY.matcher(t);
        while (dmy.find()) {
            add(dates, dmy.group(3), String.valueOf(Month.valueOf(dmy.group(2).toUpperCase(Locale.ROOT)).getValue()), dmy.group(1));
        }
        return dates;
    }

    private static void collect(Matcher m, int year, int month, int day, Set<LocalDate> into) {
        while (m.find()) {
            add(into, m.group(year), m.group(month), m.group(day));
        }
    }

    private static void add(Set<LocalDate> into, String year, String month, String day) {
        try {
            into.add(LocalDate.of(Integer.parseInt(year), Integer.parseInt(month), Integer.parseInt(day)));
        } catch (DateTimeException | NumberFormatException ignored) {
            // Not a real date (2026-02-30): not a date the answer states.
        }
    }
}
