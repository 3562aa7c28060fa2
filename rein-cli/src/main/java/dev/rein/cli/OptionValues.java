package dev.rein.cli;

import dev.rein.eval.file.UsdLimits;
import dev.rein.openai.OpenAiReasoningEffort;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Converters for option values. Each rejects a bad value with a message that says what is
 * expected; picocli prefixes it with the option name ("Invalid value for option '--max-steps': ...").
 */
final class OptionValues {
    private OptionValues() {}

    /** A step count: a whole number of at least 1. */
    static final class StepCount implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            int steps;
            try {
                steps = Integer.parseInt(value.strip());
            } catch (NumberFormatException e) {
                String why = value.strip().matches("-?\\d+") ? "is too large (at most " + Integer.MAX_VALUE + ")" : "is not a whole number";
                throw new TypeConversionException("'" + value + "' " + why + "; give the most steps the run may take, e.g. 10");
            }
            if (steps < 1) {
                throw new TypeConversionException("the run needs at least 1 step, got " + steps);
            }
            return steps;
        }
    }

    /** The most web searches per request of {@code --web-search}: a whole number of at least 1. */
    static final class WebSearchUses implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            String v = value.strip();
            String advice = "; give the most web searches Claude may run per model call, e.g. --web-search 5";
            if (!v.matches("-?\\d+")) {
                throw new TypeConversionException("'" + value + "' is not a whole number" + advice);
            }
            if (v.startsWith("-") || v.replaceFirst("^0+", "").isEmpty()) {
                throw new TypeConversionException("it must be at least 1, got " + v + advice);
            }
            try {
                return Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + v + "' is too large (at most " + Integer.MAX_VALUE + ")" + advice);
            }
        }
    }

    /**
     * {@code --thinking}: {@code adaptive}, {@code between_tools}, or a thinking budget in tokens, a whole number of at least
     * {@value dev.rein.anthropic.AnthropicThinking#MIN_BUDGET_TOKENS} (the API's minimum); kept as given.
     */
    static final class Thinking implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            String v = value.strip();
            if (v.equalsIgnoreCase(ADAPTIVE)) {
                return ADAPTIVE;
            }
            if (v.equalsIgnoreCase(BETWEEN_TOOLS)) {
                return BETWEEN_TOOLS;
            }
            String advice = "; give --thinking adaptive (the model decides how much to think), between_tools (Claude Sonnet 5.5:"
                    + " no thinking before the first tool call), or a budget of thinking tokens of at least " + dev.rein.anthropic.AnthropicThinking.MIN_BUDGET_TOKENS + " below --max-tokens, e.g. --thinking 4000";
            if (!v.matches("-?\\d+")) {
                throw new TypeConversionException("'" + value + "' is neither adaptive, between_tools nor a whole number" + advice);
            }
            int budget;
            try {
                budget = Integer.parseInt(v);
            } catch (NumberFormatException e) {
                throw new TypeConversionException("'" + v + "' is too large (at most " + Integer.MAX_VALUE + ")" + advice);
            }
            if (budget < dev.rein.anthropic.AnthropicThinking.MIN_BUDGET_TOKENS) {
                throw new TypeConversionException("a budget of " + v + " tokens is below the API's minimum of "
                        + dev.rein.anthropic.AnthropicThinking.MIN_BUDGET_TOKENS + advice);
            }
            return Integer.toString(budget);
        }

        static final String ADAPTIVE = "adaptive";
        static final String BETWEEN_TOOLS = "between_tools";

        /** The request option {@code value} (as {@link #convert} returns it) stands for. */
        static dev.rein.anthropic.AnthropicThinking option(String value) {
            return ADAPTIVE.equals(value) ? dev.rein.anthropic.AnthropicThinking.adaptive()
                    : BETWEEN_TOOLS.equals(value) ? dev.rein.anthropic.AnthropicThinking.betweenTools()
                    : dev.rein.anthropic.AnthropicThinking.budget(Integer.parseInt(value));
        }

        /**
         * Refuses a budget the API would refuse at every call: it must stay below max_tokens, the run's
         * {@code maxTokens} or the library's default of 8192. Said in the options' terms.
         */
        static void requireBelow(String value, Integer maxTokens, String maxTokensOption) {
            if (value == null || ADAPTIVE.equals(value) || BETWEEN_TOOLS.equals(value)) {
                return;
            }
            int budget = Integer.parseInt(value);
            int max = maxTokens != null ? maxTokens : DEFAULT_MAX_TOKENS;
            if (budget >= max) {
                throw new UsageException("--thinking " + budget + " must be below max_tokens, which is " + max
                        + (maxTokens != null ? " (" + maxTokensOption + ")" : " by default") + ", as the API wants thinking's"
                        + " budget below it: raise it with " + maxTokensOption + " " + (budget + 4096) + ", or lower the budget");
            }
        }

        /** The library's max_tokens when none is given (Agent.Builder.maxTokens). */
        static final int DEFAULT_MAX_TOKENS = 8192;
    }

    /**
     * {@code --reasoning-effort}: one of the levels the Chat Completions reference lists for {@code reasoning_effort}, in any
     * case, returned as the API writes it. A typo is refused here rather than by the server at the first call.
     */
    static final class ReasoningEffort implements ITypeConverter<String> {
        /** The API reference's values, in its order. */
        static final List<String> LEVELS = OpenAiReasoningEffort.LISTED.stream().map(OpenAiReasoningEffort::effort).toList();

        @Override
        public String convert(String value) {
            String v = value.strip().toLowerCase(Locale.ROOT);
            if (LEVELS.contains(v)) {
                return v;
            }
            String levels = String.join(", ", LEVELS.subList(0, LEVELS.size() - 1)) + " or " + LEVELS.getLast();
            throw new TypeConversionException("'" + value + "' is not a reasoning effort; give one of " + levels + " (which"
                    + " ones a model takes is the model's: gpt-5.1 and later take none, the first gpt-5 models minimal),"
                    + " e.g. --reasoning-effort none");
        }
    }

    /** A trial count of {@code rein eval} and {@code rein example --eval}; checked for at least 1 by the commands. */
    static final class TrialCount implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return atLeastOne(value, "each task needs at least 1 trial", "; give how many trials each task runs, e.g. 3");
        }
    }

    /** How many trials {@code rein eval} and {@code rein example --eval} run at once ({@code --parallel}): a whole number, at least 1. */
    static final class ParallelCount implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return atLeastOne(value, "at least 1 trial must run at a time", "; give how many trials run at once, e.g. 2");
        }
    }

    /** A whole number of at least 1; else why, as {@code tooFew}, then {@code advice}. */
    private static int atLeastOne(String value, String tooFew, String advice) {
        int count;
        try {
            count = Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            String why = value.strip().matches("-?\\d+") ? "is too large (at most " + Integer.MAX_VALUE + ")" : "is not a whole number";
            throw new TypeConversionException("'" + value + "' " + why + advice);
        }
        if (count < 1) {
            // here, not in each command: worded as every other bad value, with the command's --help
            throw new TypeConversionException(tooFew + ", got " + count + advice);
        }
        return count;
    }

    /** A max_tokens value: a whole number from 1 to {@value #MAX_TOKENS_LIMIT}. */
    static final class TokenCount implements ITypeConverter<Integer> {
        static final int MAX_TOKENS_LIMIT = 1_000_000;

        @Override
        public Integer convert(String value) {
            String v = value.strip();
            if (!v.matches("-?\\d+")) {
                throw new TypeConversionException("'" + value + "' is not a whole number; give the most tokens one model response"
                        + " may have, e.g. 16000");
            }
            if (v.startsWith("-") || v.replaceFirst("^0+", "").isEmpty()) {
                throw new TypeConversionException("a response needs at least 1 token, got " + v);
            }
            if (v.length() > 7 || Integer.parseInt(v) > MAX_TOKENS_LIMIT) {
                throw new TypeConversionException("'" + v + "' is too large (at most " + MAX_TOKENS_LIMIT
                        + "; the model's own limit may be lower)");
            }
            return Integer.parseInt(v);
        }
    }

    /**
     * A file or folder named on the command line. A name with bytes that are not UTF-8 (a Latin-1
     * {@code café}) arrives with U+FFFD in their place, so it would name another file: a trace or
     * report written there would be lost to the user, and a file to read would seem missing. An empty
     * name (an unset shell variable) would be the working directory, which would be indexed, replayed
     * or written into.
     */
    static final class FilePath implements ITypeConverter<Path> {
        /** The end of the message for an empty name; Errors names a FILE's or a DIR's kind in its place. */
        static final String FILE_OR_FOLDER = "give a file or folder name";

        @Override
        public Path convert(String value) {
            if (value.isEmpty()) {
                throw new TypeConversionException("the name is empty, which would mean the working directory; " + FILE_OR_FOLDER);
            }
            int at = value.indexOf('\uFFFD');
            if (at >= 0) {
                throw new TypeConversionException("'" + value + "' is not valid UTF-8: it held bytes that are not UTF-8 text (replaced"
                        + " by U+FFFD at character " + (at + 1) + "), so it would name another file; give the file a UTF-8 name"
                        + " (rename it, e.g. with 'convmv -t utf-8')");
            }
            return Path.of(value);
        }
    }

    /** An amount in US dollars from {@link UsdLimits#LEAST} to {@link UsdLimits#MOST}, as a suite file takes. */
    static final class UsdAmount implements ITypeConverter<BigDecimal> {
        private static final String EXPECTED = "an amount in US dollars from " + UsdLimits.LEAST.toPlainString() + " to "
                + UsdLimits.MOST.toPlainString() + ", such as 0.50";

        @Override
        public BigDecimal convert(String value) {
            BigDecimal amount = positiveDecimal(value, EXPECTED);
            if (amount.compareTo(UsdLimits.MOST) > 0) {
                throw new TypeConversionException("'" + value + "' is too large (at most " + UsdLimits.MOST.toPlainString()
                        + "); give " + EXPECTED);
            }
            if (amount.compareTo(UsdLimits.LEAST) < 0) {
                throw new TypeConversionException("'" + value + "' is too small (at least " + UsdLimits.LEAST.toPlainString()
                        + "); give " + EXPECTED);
            }
            return amount;
        }
    }

    /** A number of seconds (fractions allowed), at least one millisecond. */
    static final class Seconds implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            BigDecimal seconds = positiveDecimal(value, "a number of seconds from 0.001 to " + Long.MAX_VALUE / 1_000_000_000L
                    + " (about 292 years), such as 120");
            BigDecimal nanos = seconds.movePointRight(9);
            if (nanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
                // the run keeps its limit as a Duration in nanoseconds: a long holds about 292 years
                throw new TypeConversionException("'" + value + "' seconds is too long (at most " + Long.MAX_VALUE / 1_000_000_000L
                        + ", about 292 years); give a number of seconds such as 120");
            }
            Duration duration = Duration.ofNanos(nanos.longValue());
            if (duration.toMillis() == 0) { // the run keeps its limit in whole milliseconds (for rein resume)
                throw new TypeConversionException("'" + value + "' rounds to zero (the limit is kept in whole milliseconds);"
                        + " give at least 0.001 seconds");
            }
            return duration;
        }
    }

    /** A number more than 0; {@code expected} says what is taken, with the range, in every refusal. */
    private static BigDecimal positiveDecimal(String value, String expected) {
        if (value.strip().matches("(?i)[+-]?(inf|infinity|nan)")) {
            throw new TypeConversionException("'" + value + "' is not a finite number; give " + expected);
        }
        BigDecimal number;
        try {
            number = new BigDecimal(value.strip());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("'" + value + "' is not a number; give " + expected);
        }
        if (number.signum() <= 0) {
            throw new TypeConversionException("'" + value.strip() + "' is not more than 0; give " + expected);
        }
        return number;
    }
}
