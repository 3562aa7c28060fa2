package dev.rein.cli.demo;

import static dev.rein.testkit.ScriptedModel.call;

import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ToolResultBlock;
import dev.rein.testkit.ScriptedModel;
import dev.rein.testkit.ScriptedModel.Turn;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The scripted models of {@code rein demo}. They play the part of the LLM only: every tool call
 * they propose is validated and executed by the real loop and the real built-in tools, and every
 * later turn reads the real tool results from the request it receives, so the answers are right
 * for the day the demo runs.
 */
public final class DemoScripts {
    /** get_current_time answers like {@code 2026-12-01T10:05:11+09:00[Asia/Tokyo] (Tuesday)}. */
    private static final Pattern ZONED = Pattern.compile(
            "(\\d{4}-\\d{2}-\\d{2})T(\\d{2}:\\d{2})(?::\\d{2})?(?:[+-]\\d{2}:\\d{2}|Z)(?:\\[([^\\]]+)])?");
    /** A number standing alone, not part of an id such as toolu_2_1 or of a date. */
    private static final Pattern NUMBER = Pattern.compile("(?<![\\w.:-])-?\\d+(?:\\.\\d+)?(?![\\w.:-])");
    private static final String[] WEEKDAYS_JA = {"月", "火", "水", "木", "金", "土", "日"};

    /** One demo: a title, the goal, and the scripted model that plays the LLM. */
    public record Demo(String title, String goal, ScriptedModel model) {}

    private DemoScripts() {}

    public static List<Demo> all() {
        return List.of(hundredDays(), parallelCalls());
    }

    /**
     * The worked example: look up today's date in Tokyo, add 100 days to its day of the year with
     * {@code calculate}, and turn the sum back into a calendar date.
     */
    public static Demo hundredDays() {
        Turn askTime = ScriptedModel.toolCalls("まず今日の日付を確認します。", call("get_current_time", "{\"timezone\":\"Asia/Tokyo\"}"));
        Turn addDays = (request, number) -> {
            LocalDate today = LocalDate.parse(zoned(onlyResult(request, "get_current_time"), "Asia/Tokyo").group(1));
            String expression = today.getDayOfYear() + " + 100";
            String note = "今日は" + japanese(today) + "で、" + today.getYear() + "年の" + today.getDayOfYear()
                    + "日目です。100日を足します。";
            return ScriptedModel.toolCalls(note, call("calculate", "{\"expression\":\"" + expression + "\"}")).answer(request, number);
        };
        Turn answer = (request, number) -> {
            int dayOfYear = wholeNumberIn(onlyResult(request, "calculate"));
            LocalDate today = LocalDate.parse(zoned(resultsOf(request, 2).get(0), "Asia/Tokyo").group(1));
            LocalDate target = LocalDate.of(today.getYear(), 1, 1).plusDays(dayOfYear - 1L);
            String text = "今日(" + japanese(today) + "、Asia/Tokyo)から100日後は、" + japanese(target) + "です。"
                    + "(" + today.getYear() + "年の" + today.getDayOfYear() + "日目 + 100 = " + dayOfYear + "日目)";
            return ScriptedModel.text(text).answer(request, number);
        };
        return new Demo("the worked example: get_current_time, then calculate, then the answer",
                "今日から100日後は何月何日?", ScriptedModel.of(askTime, addDays, answer));
    }

    /** One response with four tool calls, executed in parallel; the answer quotes each result. */
    public static Demo parallelCalls() {
        Turn fourCalls = ScriptedModel.toolCalls("I'll look up the three clocks and do the multiplication at once.",
                call("get_current_time", "{\"timezone\":\"Asia/Tokyo\"}"),
                call("get_current_time", "{\"timezone\":\"Europe/London\"}"),
                call("get_current_time", "{\"timezone\":\"America/New_York\"}"),
                call("calculate", "{\"expression\":\"1234 * 5678\"}"));
        Turn answer = (request, number) -> {
            List<String> results = resultsOf(request, 4);
            String text = "Tokyo: " + time(results.get(0), "Asia/Tokyo") + "\nLondon: " + time(results.get(1), "Europe/London")
                    + "\nNew York: " + time(results.get(2), "America/New_York") + "\n1234 × 5678 = " + wholeNumberIn(results.get(3));
            return ScriptedModel.text(text).answer(request, number);
        };
        return new Demo("one response with four tool calls, run in parallel",
                "What time is it now in Tokyo, London and New York, and what is 1234 × 5678?", ScriptedModel.of(fourCalls, answer));
    }

    /** The successful results of the tool calls answered in the last message; fails the call if any is missing or an error. */
    private static List<String> resultsOf(ModelRequest request, int expected) throws ModelException {
        List<String> results = new ArrayList<>();
        for (Message message : request.messages()) {
            for (ContentBlock block : message.content()) {
                if (block instanceof ToolResultBlock result) {
                    if (result.isError()) {
                        throw scriptBroken("a tool call failed: " + result.content());
                    }
                    results.add(result.content());
                }
            }
        }
        if (results.size() < expected) {
            throw scriptBroken("expected " + expected + " tool results, found " + results.size());
        }
        return results.subList(results.size() - expected, results.size());
    }

    private static String onlyResult(ModelRequest request, String tool) throws ModelException {
        Message last = request.messages().get(request.messages().size() - 1);
        for (ContentBlock block : last.content()) {
            if (block instanceof ToolResultBlock result) {
                if (result.isError()) {
                    throw scriptBroken(tool + " failed: " + result.content());
                }
                return result.content();
            }
        }
        throw scriptBroken("no result of " + tool + " in the request");
    }

    /** The date and time in {@code zone} reported by get_current_time (the match naming that zone, else the first). */
    private static MatchResult zoned(String toolResult, String zone) throws ModelException {
        Matcher m = ZONED.matcher(toolResult);
        MatchResult first = null;
        while (m.find()) {
            if (zone.equals(m.group(3))) {
                return m.toMatchResult();
            }
            if (first == null) {
                first = m.toMatchResult();
            }
        }
        if (first == null) {
            throw scriptBroken("no date and time in get_current_time's result: " + toolResult);
        }
        return first;
    }

    private static String time(String toolResult, String zone) throws ModelException {
        MatchResult m = zoned(toolResult, zone);
        return m.group(1) + " " + m.group(2);
    }

    private static int wholeNumberIn(String toolResult) throws ModelException {
        String text = toolResult.strip();
        Matcher m = NUMBER.matcher(text);
        if (!m.find()) {
            throw scriptBroken("no number in calculate's result: " + toolResult);
        }
        try {
            return new BigDecimal(m.group()).intValueExact();
        } catch (ArithmeticException e) {
            throw scriptBroken("calculate's result is not a whole number: " + toolResult);
        }
    }

    private static String japanese(LocalDate date) {
        return date.getYear() + "年" + date.getMonthValue() + "月" + date.getDayOfMonth() + "日("
                + WEEKDAYS_JA[date.getDayOfWeek().getValue() - 1] + ")";
    }

    /** The script met a result it cannot read: the run fails with this message instead of inventing an answer. */
    private static ModelException scriptBroken(String message) {
        return new ModelException(ModelException.Kind.OTHER, 0, "demo script: " + message);
    }
}
