package dev.rein.internal.stall;

import dev.rein.model.ContentBlock;
import dev.rein.stall.Finding;
import dev.rein.stall.Observed;
import dev.rein.stall.ProposedCall;
import dev.rein.stall.StallDetector;
import dev.rein.stall.StallPolicy;
import dev.rein.model.Message;
import dev.rein.model.Role;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.tool.Tool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs a {@link StallPolicy}'s detectors over one run and decides what each finding means: a
 * finding on a proposed call blocks that call, a finding over a step adds a notice to its results,
 * and a detector's finding beyond {@link StallPolicy#maxInterventions()} stops the run.
 *
 * <p>Its state is a function of the calls and results seen, so {@link #replay} over a stored
 * history rebuilds it (a resumed run keeps its stall counts). Not thread-safe: the loop owns it.
 */
public final class StallMonitor {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([a-z_]+)}");

    /** What to do with a proposed call. */
    public sealed interface CallDecision {
        /** Run it. */
        record Allow() implements CallDecision {}

        /** Do not run it; answer it with the finding's message as an error result. */
        record Block(Finding finding) implements CallDecision {}

        /** Do not run it, nor anything else: the run ends FAILED, reason stalled. */
        record Stop(Finding finding) implements CallDecision {}
    }

    /**
     * The verdict on one step's results: notices to add for the model, and the finding that stops
     * the run, if any ({@code alsoStopping}: later detectors' findings in the same step that would
     * have stopped it too; the first one in policy order names the stop, the others are traced).
     */
    public record StepReview(List<Finding> warnings, Optional<Finding> stop, List<Finding> alsoStopping) {
        public StepReview {
            warnings = List.copyOf(warnings);
            alsoStopping = List.copyOf(alsoStopping);
        }

        public StepReview(List<Finding> warnings, Optional<Finding> stop) {
            this(warnings, stop, List.of());
        }
    }

    private static final CallDecision ALLOW = new CallDecision.Allow();

    private final StallPolicy policy;
    private final List<StallDetector> detectors;
    private final Map<String, Integer> fired = new HashMap<>();

    /** A fresh monitor of {@code policy} for one run. */
    public StallMonitor(StallPolicy policy) {
        this.policy = policy;
        this.detectors = policy.newDetectors();
    }

    /** Records a proposed call with every detector, then asks them in order whether it may run. */
    public CallDecision beforeCall(ProposedCall call) {
        for (StallDetector detector : detectors) {
            detector.recordCall(call);
        }
        for (StallDetector detector : detectors) {
            Optional<Map<String, Object>> evidence = detector.checkCall(call);
            if (evidence.isPresent()) {
                Finding finding = fire(detector, call.callId(), evidence.get());
                return stops(finding) ? new CallDecision.Stop(finding) : new CallDecision.Block(finding);
            }
        }
        return ALLOW;
    }

    /** Records the results of the calls that ran in one step, then asks every detector about the step. */
    public StepReview afterStep(List<Observed> observed) {
        if (observed.isEmpty()) {
            return new StepReview(List.of(), Optional.empty());
        }
        for (StallDetector detector : detectors) {
            detector.recordStep(observed);
        }
        List<Finding> warnings = new ArrayList<>();
        Finding stop = null;
        List<Finding> alsoStopping = new ArrayList<>();
        for (StallDetector detector : detectors) {
            Optional<Map<String, Object>> evidence = detector.checkStep();
            if (evidence.isPresent()) {
                Finding finding = fire(detector, null, evidence.get());
                if (!stops(finding)) {
                    warnings.add(finding);
                } else if (stop == null) {
                    stop = finding;
                } else {
                    alsoStopping.add(finding); // counted by fire(), so it must reach the trace too
                }
            }
        }
        return new StepReview(warnings, Optional.ofNullable(stop), alsoStopping);
    }

    /** How many times each detector has fired so far. */
    public Map<String, Integer> firedCounts() {
        return Map.copyOf(fired);
    }

    /**
     * Rebuilds the state from a stored history by driving the detectors exactly as the live run
     * did: each assistant message's tool calls in order, then the results of the calls that were
     * allowed. Results cleared by a context policy replay as their placeholders, and turns removed
     * by compaction are gone; detections are then less sensitive, never more.
     *
     * @param tools   finds a tool by name (null when unknown)
     * @param ignored calls the live guard did not watch (the loop's own {@code finish} tool)
     */
    public void replay(List<Message> history, Function<String, Tool> tools, Predicate<String> ignored) {
        replay(history, 0, 0, tools, ignored);
    }

    /**
     * Rebuilds the state from the current turn of a conversation only (see {@link #replay}): the
     * last {@code steps - stepsBefore} model turns of {@code history}, numbered so that the last one
     * is step {@code steps}. Calls made in earlier turns do not count: after a person's reply,
     * asking the same thing again is a new question, not a repeat. A fresh reply turn
     * ({@code steps == stepsBefore}) starts with no counts at all.
     *
     * @param stepsBefore the model steps of the earlier turns (0 in the first turn: the whole history)
     * @param steps       the run's model steps so far, this turn's included
     */
    public void replayTurn(List<Message> history, int stepsBefore, int steps, Function<String, Tool> tools,
                           Predicate<String> ignored) {
        if (stepsBefore == 0) {
            replay(history, tools, ignored);
            return;
        }
        int turnSteps = steps - stepsBefore;
        // Each step adds at most one assistant message (an empty response adds none), so the last
        // turnSteps of them reach back at most into the earlier turn's closing answer, which has no
        // watched call (a text answer or the finish tool) and so counts nothing.
        int start = history.size();
        for (int seen = 0; start > 0 && seen < turnSteps; ) {
            start--;
            if (history.get(start).role() == Role.ASSISTANT) {
                seen++;
            }
        }
        replay(history, start, steps - assistantTurns(history, start), tools, ignored);
    }

    private static int assistantTurns(List<Message> history, int from) {
        int n = 0;
        for (int i = from; i < history.size(); i++) {
            if (history.get(i).role() == Role.ASSISTANT) {
                n++;
            }
        }
        return n;
    }

    /** Replays {@code history} from index {@code from}, its first assistant message being step {@code stepBefore + 1}. */
    private void replay(List<Message> history, int from, int stepBefore, Function<String, Tool> tools,
                        Predicate<String> ignored) {
        int step = Math.max(0, stepBefore);
        for (int i = from; i < history.size(); i++) {
            Message message = history.get(i);
            if (message.role() != Role.ASSISTANT) {
                continue;
            }
            step++;
            List<ToolUseBlock> uses = message.toolUses();
            if (uses.isEmpty() || i + 1 >= history.size()) {
                continue;
            }
            Map<String, ToolResultBlock> results = results(history.get(i + 1));
            List<Observed> observed = new ArrayList<>();
            for (ToolUseBlock use : uses) {
                if (ignored.test(use.name())) {
                    continue;
                }
                ProposedCall call = ProposedCall.of(use.id(), use.name(), use.input(), tools.apply(use.name()), step);
                CallDecision decision = beforeCall(call);
                ToolResultBlock result = results.get(use.id());
                if (decision instanceof CallDecision.Allow && result != null) {
                    observed.add(new Observed(call, result.content(), result.isError()));
                }
            }
            afterStep(observed);
        }
    }

    private static Map<String, ToolResultBlock> results(Message message) {
        Map<String, ToolResultBlock> byId = new HashMap<>();
        if (message.role() == Role.USER) {
            for (ContentBlock block : message.content()) {
                if (block instanceof ToolResultBlock r) {
                    byId.put(r.toolUseId(), r);
                }
            }
        }
        return byId;
    }

    /** The text telling the model the run is being stopped (every unanswered call gets it). */
    public static String stopNotice(Finding finding) {
        return "[rein] Not run: the run is being stopped because it stalled (" + finding.detector() + ", "
                + finding.occurrence() + " detections). " + finding.message();
    }

    /** The run's closing message for a stop. */
    public String stopMessage(Finding finding) {
        return "the run stalled: the " + finding.detector() + " guard fired " + finding.occurrence()
                + " times (the model was warned " + policy.maxInterventions() + " times); evidence: " + finding.evidence();
    }

    private boolean stops(Finding finding) {
        return finding.occurrence() > policy.maxInterventions();
    }

    private Finding fire(StallDetector detector, String callId, Map<String, Object> evidence) {
        int occurrence = fired.merge(detector.name(), 1, Integer::sum);
        String template = policy.message(detector.name());
        String message = render(template != null ? template : detector.defaultMessage(), evidence);
        return new Finding(detector.name(), callId, message, evidence, occurrence);
    }

    static String render(String template, Map<String, Object> evidence) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            Object value = evidence.get(m.group(1));
            m.appendReplacement(sb, Matcher.quoteReplacement(value == null ? m.group() : String.valueOf(value)));
        }
        m.appendTail(sb);
        return sb.toString();
    }
}
