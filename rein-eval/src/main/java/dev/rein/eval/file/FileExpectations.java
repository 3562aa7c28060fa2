package dev.rein.eval.file;

import dev.rein.ReinException;
import dev.rein.run.Reason;
import dev.rein.run.RunStatus;
import dev.rein.eval.EndExpectation;
import dev.rein.eval.Environment;
import dev.rein.eval.Expect;
import dev.rein.eval.Grader;
import dev.rein.eval.Graders;
import dev.rein.tool.ErrorClass;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/** Turns a suite file's {@code expect} block into an expected ending and graders. */
final class FileExpectations {
    private FileExpectations() {}

    /** The named ending, or "status: reason" for any run status; null when the file sets none. */
    static EndExpectation ending(String status, String where) {
        if (status == null) {
            return null;
        }
        String s = status.strip().toLowerCase(Locale.ROOT);
        switch (s) {
            case "succeeded":
                return Expect.succeeded();
            case "needs_user_input":
                return Expect.needsUserInput();
            case "waiting_approval":
                return Expect.waitingApproval();
            case "stopped_budget":
                return Expect.stoppedBudget();
            case "permission_refused":
                return Expect.refusedForPermission();
            case "tool_timeout_handled":
                return Expect.toolTimeoutHandled();
            case "injection_resisted":
                return Expect.injectionResisted();
            default:
                break;
        }
        String[] parts = s.split(":", 2);
        RunStatus runStatus;
        try {
            runStatus = RunStatus.valueOf(parts[0].strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ReinException(where + ".expect.status '" + status + "' is unknown; use succeeded, needs_user_input,"
                    + " waiting_approval, stopped_budget, permission_refused, tool_timeout_handled, injection_resisted, or"
                    + " '<status>: <reason>' such as 'failed: agent_failed'");
        }
        if (parts.length == 1) {
            return Expect.status(runStatus);
        }
        String reason = parts[1].strip();
        // runs end with one of a closed set of reasons: any other would grade every trial as the agent's failure
        if (Arrays.stream(Reason.values()).noneMatch(r -> r.wire().equals(reason))) {
            throw new ReinException(where + ".expect.status '" + status.strip() + "': no run ends with the reason '" + reason
                    + "'; the reasons are " + Arrays.stream(Reason.values()).map(Reason::wire).collect(Collectors.joining(", ")));
        }
        return Expect.status(runStatus, reason);
    }

    static <E extends Environment> List<Grader<? super E>> graders(SuiteSpec.ExpectSpec spec, EnvironmentType<E> type,
                                                                  String where) {
        List<Grader<? super E>> graders = new ArrayList<>();
        if (spec == null) {
            return graders;
        }
        if (notEmpty(spec.mustCall())) {
            graders.add(Graders.mustCall(texts(spec.mustCall(), where + ".expect.must_call")));
        }
        if (notEmpty(spec.mustNotCall())) {
            graders.add(Graders.mustNotCall(texts(spec.mustNotCall(), where + ".expect.must_not_call")));
        }
        if (notEmpty(spec.mustNotAttempt())) {
            graders.add(Graders.mustNotAttempt(texts(spec.mustNotAttempt(), where + ".expect.must_not_attempt")));
        }
        // Limits no trial can meet would grade every trial as the agent's failure: they are the file's.
        if (spec.maxSteps() != null) {
            if (spec.maxSteps() < 1) {
                throw new ReinException(where + ".expect.max_steps must be at least 1, was " + spec.maxSteps());
            }
            graders.add(Graders.maxSteps(spec.maxSteps()));
        }
        if (spec.maxCostUsd() != null) {
            BigDecimal max = decimal(spec.maxCostUsd(), where + ".expect.max_cost_usd");
            if (max.signum() < 0) {
                throw new ReinException(where + ".expect.max_cost_usd cannot be negative, was " + spec.maxCostUsd().strip());
            }
            graders.add(Graders.maxCost(max));
        }
        if (notEmpty(spec.approvals())) {
            graders.add(Graders.approvalRequested(texts(spec.approvals(), where + ".expect.approvals")));
        }
        if (notEmpty(spec.answerContains())) {
            graders.add(Graders.answerContains(texts(spec.answerContains(), where + ".expect.answer_contains")));
        }
        if (spec.answerMatches() != null) {
            if (spec.answerMatches().isEmpty()) {
                throw new ReinException(where + ".expect.answer_matches is empty: it would match every answer; give the"
                        + " expression the answer must match, or leave answer_matches out");
            }
            try {
                graders.add(Graders.answerMatches(spec.answerMatches()));
            } catch (PatternSyntaxException e) {
                throw new ReinException(where + ".expect.answer_matches '" + spec.answerMatches() + "' is not a regular"
                        + " expression: " + e.getDescription() + " near index " + e.getIndex());
            }
        }
        String[] errors = spec.observedErrors() == null ? new String[0]
                : texts(spec.observedErrors(), where + ".expect.observed_errors");
        for (int i = 0; i < errors.length; i++) {
            graders.add(Graders.observedError(errorClass(errors[i], where + ".expect.observed_errors[" + i + "]")));
        }
        List<SuiteSpec.StateSpec> states = spec.state() == null ? List.of() : spec.state();
        for (int i = 0; i < states.size(); i++) {
            graders.add(state(states.get(i), where + ".expect.state[" + i + "]"));
        }
        if (spec.stateHash() != null) {
            if (!spec.stateHash().strip().matches("[0-9a-fA-F]{64}")) {
                throw new ReinException(where + ".expect.state_hash '" + spec.stateHash() + "' is not a SHA-256 hash: give"
                        + " the 64 hexadecimal digits of the final state's hash");
            }
            graders.add(Graders.stateHash(spec.stateHash().strip()));
        }
        String[] checks = spec.checks() == null ? new String[0] : texts(spec.checks(), where + ".expect.checks");
        for (int i = 0; i < checks.length; i++) {
            String check = checks[i];
            String place = where + ".expect.checks[" + i + "]"; // the index places the error on its line
            graders.add(Graders.outcomeWithReason(check, type.check(check).orElseThrow(() -> new ReinException(place
                    + ": environment '" + type.name() + "' has no check '" + check + "'; known: "
                    + (type.checkNames().isEmpty() ? "(none)" : String.join(", ", type.checkNames()))))));
        }
        return graders;
    }

    /**
     * Fails on a tool name the checks cannot mean: must_call or approvals of a tool the agent does not
     * have would fail every trial, and must_not_call of a tool neither it nor its environment offers (a
     * misspelt name) would pass every trial, the unsafe call unnoticed. must_not_attempt takes any
     * name, since a model may propose a tool nobody offers (one an injected text asks for).
     */
    static void checkToolNames(SuiteSpec.ExpectSpec spec, InlineAgent.ToolNames tools, String environment, String where) {
        String agentTools = tools.agent().isEmpty() ? "(none)" : String.join(", ", tools.agent());
        Map<String, List<String>> needed = new LinkedHashMap<>();
        needed.put("must_call", spec.mustCall());
        needed.put("approvals", spec.approvals());
        needed.forEach((field, names) -> {
            for (int i = 0; names != null && i < names.size(); i++) {
                if (!tools.agent().contains(names.get(i))) {
                    throw new ReinException(where + ".expect." + field + "[" + i + "]: '" + names.get(i) + "' is not a"
                            + " tool of the agent, so no trial can meet the check; the agent's tools are " + agentTools);
                }
            }
        });
        List<String> forbidden = spec.mustNotCall();
        for (int i = 0; forbidden != null && i < forbidden.size(); i++) {
            if (!tools.environment().contains(forbidden.get(i))) {
                throw new ReinException(where + ".expect.must_not_call[" + i + "]: '" + forbidden.get(i) + "' is not a tool"
                        + " of the agent or of environment '" + environment + "', so the check would pass whatever the"
                        + " agent does; the agent's tools are " + agentTools);
            }
        }
    }

    /** True when the block names tools that {@link #checkToolNames} checks. */
    static boolean namesTools(SuiteSpec.ExpectSpec spec) {
        return spec != null && (notEmpty(spec.mustCall()) || notEmpty(spec.mustNotCall()) || notEmpty(spec.approvals()));
    }

    private static Grader<Environment> state(SuiteSpec.StateSpec state, String where) {
        if (state == null || state.path() == null || !state.path().startsWith("/")) {
            throw new ReinException(where + ": each entry needs a JSON pointer path starting with '/'");
        }
        boolean absent = Boolean.TRUE.equals(state.absent());
        if (absent == (state.value() != null)) {
            throw new ReinException(where + " (" + state.path() + "): give either equals or absent: true");
        }
        return absent ? Graders.stateAbsent(state.path()) : Graders.stateAt(state.path(), state.value());
    }

    private static ErrorClass errorClass(String text, String where) {
        try {
            return ErrorClass.valueOf(text.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ReinException(where + ": '" + text + "' is not an error class (timeout,"
                    + " permission_denied, transient, ...)");
        }
    }

    private static BigDecimal decimal(String text, String where) {
        try {
            return new BigDecimal(text.strip());
        } catch (NumberFormatException e) {
            throw new ReinException(where + " '" + text + "' is not a number");
        }
    }

    /**
     * The entries of a list of names or texts; an empty one ({@code - } with nothing after it is null)
     * is an error: it would crash a grader or make one that checks nothing ({@code must_not_call: ['']}).
     */
    static String[] texts(List<String> list, String where) {
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i) == null || list.get(i).isBlank()) {
                throw new ReinException(where + "[" + i + "] is empty: remove it or give a value");
            }
        }
        return list.toArray(String[]::new);
    }

    private static boolean notEmpty(List<String> list) {
        return list != null && !list.isEmpty();
    }
}
