package dev.rein.tool.builtin;

import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolOutput;
import java.time.Clock;
import java.util.List;

/** The built-in tools: {@code get_current_time} and {@code calculate}. Both are read-only. */
public final class BuiltinTools {
    public static final String CURRENT_TIME = "get_current_time";
    public static final String CALCULATE = "calculate";

    private BuiltinTools() {}

    /**
     * Both built-in tools, with the calculator's default limits; {@code get_current_time} reads the
     * clock of the run that calls it ({@link dev.rein.tool.ToolContext#clock()}: the agent's
     * {@code Clock}, the system clock unless one is set), so an agent with a fixed clock sees its time.
     */
    public static List<Tool> all() {
        return List.of(currentTimeTool(null), calculate(Calculator.withDefaults()));
    }

    /** Both built-in tools with the given clock (for tests and demos). */
    public static List<Tool> all(Clock clock) {
        return List.of(currentTime(clock), calculate(Calculator.withDefaults()));
    }

    /**
     * The built-in tools named in {@code names}, in that order, {@code get_current_time} reading the
     * clock of the run that calls it (as {@link #all()}; a replay with live READ tools gives it the
     * recorded time). Unknown names are reported with the valid ones.
     */
    public static List<Tool> named(List<String> names) {
        return named(names, (Clock) null);
    }

    /**
     * The built-in tools named in {@code names}, in that order, {@code get_current_time} reading
     * {@code clock} (null: the calling run's clock). Unknown names are reported with the valid ones.
     */
    public static List<Tool> named(List<String> names, Clock clock) {
        return names.stream().map(name -> switch (name) {
            case CURRENT_TIME -> currentTimeTool(clock);
            case CALCULATE -> calculate(Calculator.withDefaults());
            default -> throw new dev.rein.ReinException("unknown built-in tool '" + name + "'; the built-in tools are "
                    + CALCULATE + " and " + CURRENT_TIME);
        }).toList();
    }

    /** {@code get_current_time} reading {@code clock}, whatever the clock of the run that calls it. */
    public static Tool currentTime(Clock clock) {
        return currentTimeTool(java.util.Objects.requireNonNull(clock, "clock"));
    }

    /** @param fixedClock the clock to read, or null for the calling run's clock */
    private static Tool currentTimeTool(Clock fixedClock) {
        return Tool.builder(CURRENT_TIME)
                .description("Returns the current date, time and weekday in a time zone, in ISO-8601 form, e.g. "
                        + "2026-12-01T10:05:11+09:00[Asia/Tokyo] (Tuesday). Use it whenever the answer depends on today's date.")
                .inputSchema("""
                        {"type":"object","properties":{"timezone":{"type":"string",
                          "description":"IANA time zone name such as Asia/Tokyo or Europe/Paris; UTC when omitted"}},
                         "additionalProperties":false}""")
                .risk(Risk.READ)
                // Asking the clock again is legitimate: its answer changes, so repeats are not a stall.
                .polling(true)
                // Never waits and returns at once: no thread of its own needed to bound it.
                .abortsOnInterrupt(true)
                .handler((args, ctx) -> {
                    String zone = args.hasNonNull("timezone") ? args.get("timezone").asText() : null;
                    try {
                        Clock clock = fixedClock != null ? fixedClock : ctx.clock();
                        return ToolOutput.text(CurrentTime.describe(zone, clock)).withSource("system-clock");
                    } catch (IllegalArgumentException e) {
                        return ToolOutput.error(e.getMessage());
                    }
                })
                .build();
    }

    public static Tool calculate(Calculator calculator) {
        return Tool.builder(CALCULATE)
                .description("Evaluates an arithmetic expression exactly: + - * / and ** (power), unary minus, parentheses,"
                        + " integers and decimals, e.g. (1200 - 350) * 1.1 or 2**10. No variables or functions.")
                .inputSchema("""
                        {"type":"object","properties":{"expression":{"type":"string",
                          "description":"the arithmetic expression to evaluate"}},
                         "required":["expression"],"additionalProperties":false}""")
                .risk(Risk.READ)
                // Never waits, and stops at the next operation once interrupted (Evaluator).
                .abortsOnInterrupt(true)
                .handler((args, ctx) -> {
                    try {
                        return ToolOutput.text(calculator.evaluateToString(args.get("expression").asText())).withSource("calculator");
                    } catch (CalculationException e) {
                        return ToolOutput.error("Cannot calculate: " + e.getMessage());
                    }
                })
                .build();
    }
}
