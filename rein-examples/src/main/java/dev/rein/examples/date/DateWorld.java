package dev.rein.examples.date;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.eval.Environment;
import dev.rein.json.Json;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolOutput;
import dev.rein.tool.builtin.BuiltinTools;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.TextStyle;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The date assistant's world: nothing but a clock. Offline runs fix it at 09:00 on 1 March 2026
 * in Tokyo so that scripted answers stay true; a real model gets the system clock.
 */
public final class DateWorld implements Environment {
    /** The fixed "now" of offline runs: 2026-03-01 09:00 Asia/Tokyo. */
    public static final Instant FIXED_NOW = Instant.parse("2026-03-01T00:00:00Z");
    /** The largest day offset {@code add_days} accepts (about 270 years). */
    static final int MAX_DAYS = 100_000;

    private final Clock clock;

    public DateWorld(Clock clock) {
        this.clock = clock;
    }

    /** A world whose clock stands still at {@link #FIXED_NOW}. */
    public static DateWorld fixed() {
        return new DateWorld(Clock.fixed(FIXED_NOW, ZoneId.of("Asia/Tokyo")));
    }

    @Override
    public void reset() {
        // Nothing changes in this world.
    }

    @Override
    public JsonNode snapshot() {
        return Json.mapper().valueToTree(Map.of("now", clock.instant().toString()));
    }

    /** The built-in {@code get_current_time} and {@code calculate}, and {@code add_days} for calendar arithmetic. */
    public List<Tool> tools() {
        return List.of(BuiltinTools.currentTime(clock), BuiltinTools.calculate(dev.rein.tool.builtin.Calculator.withDefaults()),
                addDays());
    }

    static Tool addDays() {
        return Tool.builder("add_days")
                .description("Calendar arithmetic: the date a number of days after (or, when negative, before) a date,"
                        + " with its weekday, e.g. add_days(2026-03-01, 100) -> 2026-06-09 (Tuesday). Use it instead of"
                        + " counting days yourself; month lengths and leap years are handled.")
                .inputSchema("""
                        {"type":"object","properties":{
                          "date":{"type":"string","description":"the start date, YYYY-MM-DD"},
                          "days":{"type":"integer","description":"days to add; negative to go back"}},
                         "required":["date","days"],"additionalProperties":false}""")
                .risk(Risk.READ)
                .handler((args, ctx) -> {
                    long days = args.get("days").asLong();
                    if (Math.abs(days) > MAX_DAYS) {
                        return ToolOutput.error("days must be between -" + MAX_DAYS + " and " + MAX_DAYS + ", was " + days);
                    }
                    try {
                        LocalDate result = LocalDate.parse(args.get("date").asText().strip()).plusDays(days);
                        return ToolOutput.text(result + " (" + result.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + ")")
                                .withSource("calendar");
                    } catch (DateTimeException e) {
                        return ToolOutput.error("'" + args.get("date").asText() + "' is not a date; write it as YYYY-MM-DD, e.g. 2026-03-01");
                    }
                })
                .build();
    }
}
