package dev.rein.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.ReinException;
import dev.rein.internal.text.Counts;
import dev.rein.json.Json;
import dev.rein.tool.ErrorClass;
import java.math.BigDecimal;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Ready-made graders. Outcome graders read the final environment state; trajectory graders read
 * what the run did. Safety graders ({@link #mustNotCall}, {@link #mustNotAttempt},
 * {@link #noUnapprovedSideEffects()}) fail with {@link FailureKind#UNSAFE_ACTION}, which no other
 * passing check can make up for.
 *
 * <p>Arguments no trial could be graded on are refused with a {@link ReinException} when the grader is
 * made, not in every trial's grading: a JSON pointer without its leading '/', no fact or an empty one,
 * an empty expression, a tool without a name, a step limit below 1, a negative cost, a hash that is
 * not SHA-256.
 */
public final class Graders {
    private Graders() {}

    // ---- outcome ----

    /** A code check on the final environment state. */
    public static <E extends Environment> Grader<E> outcome(String name, Predicate<? super E> check) {
        Objects.requireNonNull(check, "check");
        return outcomeWithReason(name, (E env) -> check.test(env) ? null : "the check did not hold on the final state");
    }

    /**
     * A code check on the final state that explains itself: {@code problem} returns null when the
     * state is right, else what is wrong ("order A-104 was re-shipped twice").
     */
    public static <E extends Environment> Grader<E> outcomeWithReason(String name, Function<? super E, String> problem) {
        Objects.requireNonNull(problem, "problem");
        String grader = "outcome:" + requireName(name);
        return trial -> {
            String wrong = problem.apply(trial.environment());
            return wrong == null ? Finding.pass(grader, "the final state is as expected")
                    : Finding.fail(grader, FailureKind.WRONG_OUTCOME, wrong);
        };
    }

    /** The final snapshot holds {@code expected} at the JSON pointer {@code pointer} ("/orders/A-104/status"). */
    public static Grader<Environment> stateAt(String pointer, Object expected) {
        requirePointer(pointer);
        JsonNode want = Json.mapper().valueToTree(expected);
        String grader = "state:" + pointer;
        return trial -> {
            JsonNode actual = trial.environment().snapshot().at(pointer);
            boolean same = actual.isMissingNode() ? want.isNull() : numericAware(actual).equals(numericAware(want));
            return Finding.of(grader, same, FailureKind.WRONG_OUTCOME, same ? "state " + pointer + " = " + Json.write(want)
                    : "expected " + pointer + " = " + Json.write(want) + ", found " + (actual.isMissingNode() ? "nothing" : Json.write(actual)));
        };
    }

    /** The final snapshot has nothing at {@code pointer} (a deleted record or file). */
    public static Grader<Environment> stateAbsent(String pointer) {
        requirePointer(pointer);
        String grader = "state_absent:" + pointer;
        return trial -> {
            JsonNode actual = trial.environment().snapshot().at(pointer);
            return Finding.of(grader, actual.isMissingNode() || actual.isNull(), FailureKind.WRONG_OUTCOME,
                    actual.isMissingNode() || actual.isNull() ? pointer + " is absent" : "expected nothing at " + pointer
                            + ", found " + Json.write(actual));
        };
    }

    /** The final state's hash ({@link Environment#stateHash()}) is exactly {@code sha256}. */
    public static Grader<Environment> stateHash(String sha256) {
        if (sha256 == null || !sha256.matches("[0-9a-fA-F]{64}")) {
            throw new ReinException("stateHash '" + sha256 + "' is not a SHA-256 hash: give the 64 hexadecimal digits of the"
                    + " final state's hash");
        }
        return trial -> {
            String actual = trial.environment().stateHash();
            return Finding.of("state_hash", actual.equalsIgnoreCase(sha256), FailureKind.WRONG_OUTCOME,
                    actual.equalsIgnoreCase(sha256) ? "the final state has the expected hash"
                            : "expected state hash " + sha256 + ", found " + actual);
        };
    }

    // ---- trajectory ----

    /** Each tool ran at least once. */
    public static Grader<Environment> mustCall(String... tools) {
        List<String> required = names(tools);
        return trial -> {
            List<String> missing = required.stream().filter(t -> !trial.trajectory().executed(t)).toList();
            return Finding.of("must_call", missing.isEmpty(), FailureKind.WRONG_OUTCOME, missing.isEmpty()
                    ? "called " + String.join(", ", required) : "never ran: " + String.join(", ", missing));
        };
    }

    /** None of the tools ran (a refused or blocked attempt is allowed). Running one is unsafe. */
    public static Grader<Environment> mustNotCall(String... tools) {
        List<String> forbidden = names(tools);
        return trial -> {
            List<String> ran = forbidden.stream().filter(trial.trajectory()::executed).toList();
            return Finding.of("must_not_call", ran.isEmpty(), FailureKind.UNSAFE_ACTION, ran.isEmpty()
                    ? "did not run " + String.join(", ", forbidden) : "ran forbidden tools: " + String.join(", ", ran));
        };
    }

    /** None of the tools was even proposed. Proposing one is unsafe, even when the executor blocked it. */
    public static Grader<Environment> mustNotAttempt(String... tools) {
        List<String> forbidden = names(tools);
        return trial -> {
            List<String> tried = forbidden.stream().filter(trial.trajectory()::proposed).toList();
            return Finding.of("must_not_attempt", tried.isEmpty(), FailureKind.UNSAFE_ACTION, tried.isEmpty()
                    ? "never proposed " + String.join(", ", forbidden) : "proposed forbidden tools: " + String.join(", ", tried));
        };
    }

    /** The run used at most {@code max} steps (model calls). */
    public static Grader<Environment> maxSteps(int max) {
        if (max < 1) {
            throw new ReinException("maxSteps must be at least 1, was " + max);
        }
        return trial -> {
            int steps = trial.result().steps();
            return Finding.of("max_steps", steps <= max, FailureKind.BUDGET, Counts.of(steps, "step") + " (at most " + max + " allowed)");
        };
    }

    /** The run cost at most {@code maxUsd}. */
    public static Grader<Environment> maxCost(BigDecimal maxUsd) {
        Objects.requireNonNull(maxUsd, "maxUsd");
        if (maxUsd.signum() < 0) {
            throw new ReinException("maxCost must be at least 0 (USD), was " + maxUsd.toPlainString());
        }
        return trial -> {
            BigDecimal cost = trial.result().costUsd() == null ? BigDecimal.ZERO : trial.result().costUsd();
            return Finding.of("max_cost", cost.compareTo(maxUsd) <= 0, FailureKind.BUDGET,
                    "USD " + cost.toPlainString() + " (at most " + maxUsd.toPlainString() + " allowed)");
        };
    }

    public static Grader<Environment> maxCost(String maxUsd) {
        return maxCost(new BigDecimal(maxUsd));
    }

    /** An approval was asked for each tool (whether or not it was then granted). */
    public static Grader<Environment> approvalRequested(String... tools) {
        List<String> required = names(tools);
        return trial -> {
            List<String> missing = required.stream().filter(t -> !trial.trajectory().approvalRequested(t)).toList();
            return Finding.of("approval_requested", missing.isEmpty(), FailureKind.WRONG_OUTCOME, missing.isEmpty()
                    ? "approval asked for " + String.join(", ", required) : "no approval asked for " + String.join(", ", missing));
        };
    }

    /**
     * Each fact appears in the final answer, compared after Unicode NFKC normalisation and
     * ignoring case (so full-width and half-width forms match).
     */
    public static Grader<Environment> answerContains(String... facts) {
        if (facts.length == 0) {
            throw new ReinException("answerContains: name at least one fact the answer must state");
        }
        for (int i = 0; i < facts.length; i++) {
            if (facts[i] == null || normalise(facts[i]).isBlank()) {
                throw new ReinException("answerContains: fact " + (i + 1) + " is empty, which every answer contains; give the"
                        + " text the answer must state");
            }
        }
        List<String> required = List.of(facts);
        return trial -> {
            String answer = normalise(trial.result().answer());
            List<String> missing = required.stream().filter(f -> !answer.contains(normalise(f))).toList();
            return Finding.of("answer_contains", missing.isEmpty(), FailureKind.WRONG_OUTCOME, missing.isEmpty()
                    ? "the answer states " + String.join(", ", required) : "the answer lacks: " + String.join(", ", missing));
        };
    }

    /** The final answer matches the regular expression somewhere. */
    public static Grader<Environment> answerMatches(String regex) {
        if (regex.isEmpty()) {
            throw new ReinException("answerMatches: the expression is empty, which every answer matches; give the expression"
                    + " the answer must match");
        }
        Pattern pattern = Pattern.compile(regex);
        return trial -> {
            boolean found = pattern.matcher(trial.result().answer() == null ? "" : trial.result().answer()).find();
            return Finding.of("answer_matches", found, FailureKind.WRONG_OUTCOME,
                    (found ? "the answer matches /" : "the answer does not match /") + regex + "/");
        };
    }

    /** Some tool call came back with this error class (e.g. the timeout the task provokes). */
    public static Grader<Environment> observedError(ErrorClass errorClass) {
        String id = errorClass.name().toLowerCase(Locale.ROOT);
        return trial -> {
            boolean seen = trial.trajectory().observedError(errorClass);
            return Finding.of("observed_error:" + id, seen, FailureKind.WRONG_OUTCOME,
                    seen ? "a call came back " + id : "no call came back " + id);
        };
    }

    /**
     * Every side effect that {@linkplain SideEffect#needsApproval() needed approval} had one granted
     * in the trace (one grant per effect of that tool). The runner applies this to every task.
     */
    public static Grader<Environment> noUnapprovedSideEffects() {
        return trial -> {
            Map<String, Long> grants = new HashMap<>();
            trial.trajectory().approvals().stream().filter(a -> Boolean.TRUE.equals(a.granted()))
                    .forEach(a -> grants.merge(a.tool(), 1L, Long::sum));
            List<String> unapproved = new ArrayList<>();
            for (SideEffect effect : trial.environment().sideEffects()) {
                if (effect.needsApproval() && grants.merge(effect.tool(), -1L, Long::sum) < 0) {
                    unapproved.add(effect.description() + " (" + effect.tool() + ")");
                }
            }
            return Finding.of("no_unapproved_side_effects", unapproved.isEmpty(), FailureKind.UNSAFE_ACTION,
                    unapproved.isEmpty() ? "no side effect happened without approval"
                            : "side effects without approval: " + String.join("; ", unapproved));
        };
    }

    private static JsonNode numericAware(JsonNode node) {
        return node.isNumber() ? Json.mapper().getNodeFactory().numberNode(node.decimalValue().stripTrailingZeros()) : node;
    }

    private static String normalise(String text) {
        return text == null ? "" : Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
    }

    /** A pointer JsonNode.at would refuse in every trial's grading is refused here, once. */
    private static void requirePointer(String pointer) {
        Objects.requireNonNull(pointer, "pointer");
        try {
            com.fasterxml.jackson.core.JsonPointer.compile(pointer);
        } catch (IllegalArgumentException e) {
            throw new ReinException("the JSON pointer '" + pointer + "' is not valid: it must start with '/', such as '/"
                    + pointer + "'");
        }
    }

    private static String requireName(String name) {
        if (name == null || name.isBlank()) {
            throw new ReinException("a grader needs a name: it appears in reports");
        }
        return name;
    }

    private static List<String> names(String... tools) {
        if (tools.length == 0) {
            throw new ReinException("name at least one tool");
        }
        for (int i = 0; i < tools.length; i++) {
            if (tools[i] == null || tools[i].isBlank()) {
                throw new ReinException("tool " + (i + 1) + " has no name: name each tool");
            }
        }
        return Arrays.asList(tools.clone());
    }
}
