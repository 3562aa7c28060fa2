package dev.rein.approval;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.rein.tool.ToolResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The approval part of a paused run, as stored: the requests of the paused step, the decisions
 * made so far (by call id) and the results of that step's calls that already ran (by call id),
 * so that on resume every call of the step is answered once, in call order.
 */
public record ApprovalState(List<ApprovalRequest> requests, Map<String, ApprovalDecision> decisions,
                            Map<String, ToolResult> completed) {
    /** Nothing pending. */
    public static final ApprovalState NONE = new ApprovalState(List.of(), Map.of(), Map.of());

    public ApprovalState {
        requests = requests == null ? List.of()
                : requests.stream().sorted(Comparator.comparingInt(ApprovalRequest::index)).toList();
        decisions = decisions == null ? Map.of() : Map.copyOf(decisions);
        completed = completed == null ? Map.of() : Map.copyOf(completed);
    }

    /** The requests without a decision yet, in call order. */
    public List<ApprovalRequest> undecided() {
        return requests.stream().filter(r -> !decisions.containsKey(r.callId())).toList();
    }

    @JsonIgnore
    public boolean isEmpty() {
        return requests.isEmpty();
    }

    /**
     * Records a decision for every undecided request whose action hash is {@code given}
     * (identical actions proposed twice in one response are decided together). The hash may be
     * given in upper case: it is hex, so it names the same action ({@link ActionHash#normalised}).
     *
     * @param decision makes the decision for one request
     * @throws ApprovalException when no undecided request has that hash: the action shown to the
     *                           person is not the one pending, or it was decided already; or when
     *                           {@code given} is null or not of a hash's form, saying so
     */
    public ApprovalState decide(String runId, String given, Function<ApprovalRequest, ApprovalDecision> decision) {
        if (given == null) {
            throw noHash(runId, undecided());
        }
        String actionHash = ActionHash.normalised(given);
        List<ApprovalRequest> matching = undecided().stream().filter(r -> r.actionHash().equals(actionHash)).toList();
        if (matching.isEmpty()) {
            Optional<ApprovalException> shortHash = startOfHash(actionHash, undecided());
            if (shortHash.isPresent()) {
                throw shortHash.get();
            }
            Optional<ApprovalException> noHash = notAHash(actionHash, undecided());
            if (noHash.isPresent()) {
                throw noHash.get();
            }
            boolean decided = requests.stream().anyMatch(r -> r.actionHash().equals(actionHash));
            String why = decided ? "the action with hash " + actionHash + " was already decided"
                    : "run " + runId + " has no pending action with hash " + actionHash
                            + "; an approval is bound to the exact action shown, so a changed action needs a new look";
            throw new ApprovalException(why + ". Pending: " + describe(undecided()), undecided());
        }
        Map<String, ApprovalDecision> next = new LinkedHashMap<>(decisions);
        for (ApprovalRequest request : matching) {
            next.put(request.callId(), decision.apply(request));
        }
        return new ApprovalState(requests, next, completed);
    }

    /**
     * The refusal of a decision given no action hash (null): every decision names the action it is
     * for. Shared by every place that takes a decision (a local {@code Runs}, the Temporal handle).
     */
    public static ApprovalException noHash(String runId, List<ApprovalRequest> undecided) {
        return new ApprovalException("a decision for run " + runId + " was given no action hash: pass the hash of the"
                + " pending action it decides, as shown with it. Pending: " + describe(undecided), undecided);
    }

    /**
     * The refusal of a decision that names only the start of a waiting action's hash (the short form
     * the run's message and trace show, {@link ActionHash#shortForm}, copied as the hash): it says which
     * action it starts and the whole hash to pass, rather than treating it as a changed action. Empty
     * when {@code given} starts no hash of {@code undecided}, or the hashes of more than one action.
     * Shared by every place that takes a decision (a local {@code Runs}, the Temporal handle).
     */
    public static Optional<ApprovalException> startOfHash(String given, List<ApprovalRequest> undecided) {
        List<ApprovalRequest> started = startedBy(given, undecided);
        if (started.size() != 1) {
            return Optional.empty();
        }
        ApprovalRequest request = started.get(0);
        return Optional.of(new ApprovalException("'" + given + "' is the start of the hash of the waiting action " + request.tool()
                + "; a decision names the whole hash (ApprovalRequest.actionHash()), so that it covers exactly the"
                + " action shown: pass the whole hash: " + request.actionHash(), undecided));
    }

    /**
     * The refusal of a decision whose hash is not of a hash's form (64 hexadecimal digits,
     * {@link ActionHash#isHash}): a word, a hash with a space or line break copied along, a stray
     * character. It says what a hash is and lists the pending ones, rather than treating the value as
     * a changed action. Empty when {@code given} has a hash's form. Shared by every place that takes
     * a decision (a local {@code Runs}, the Temporal handle); ask {@link #startOfHash} first, since
     * the start of a hash is not of that form either.
     */
    public static Optional<ApprovalException> notAHash(String given, List<ApprovalRequest> undecided) {
        if (given == null || ActionHash.isHash(given)) {
            return Optional.empty();
        }
        return Optional.of(new ApprovalException(quoted(given) + " is not an action hash: an action hash is"
                + " 64 hexadecimal digits (SHA-256), as ApprovalRequest.actionHash() gives it; pass the hash of the pending action"
                + " the decision is for. Pending: " + describe(undecided), undecided));
    }

    /** {@code text} as a JSON string, so a space or line break copied along shows ({@code "abc\\n"}). */
    private static String quoted(String text) {
        return dev.rein.json.Json.canonical(com.fasterxml.jackson.databind.node.TextNode.valueOf(text));
    }

    /** The distinct undecided actions whose hash starts with {@code prefix} (in any case), one request each. */
    private static List<ApprovalRequest> startedBy(String prefix, List<ApprovalRequest> undecided) {
        if (prefix == null || prefix.isEmpty()) {
            return List.of();
        }
        String lower = prefix.toLowerCase(java.util.Locale.ROOT);
        Map<String, ApprovalRequest> byHash = new LinkedHashMap<>();
        for (ApprovalRequest r : undecided) {
            if (r.actionHash().startsWith(lower)) {
                byHash.putIfAbsent(r.actionHash(), r);
            }
        }
        return List.copyOf(byHash.values());
    }

    static String describe(List<ApprovalRequest> requests) {
        if (requests.isEmpty()) {
            return "(none)";
        }
        List<String> lines = new ArrayList<>();
        for (ApprovalRequest r : requests) {
            lines.add(r.tool() + " " + r.actionHash());
        }
        return String.join(", ", lines);
    }
}
