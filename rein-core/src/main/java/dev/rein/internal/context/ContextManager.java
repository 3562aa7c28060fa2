package dev.rein.internal.context;

import dev.rein.context.ClearToolResults;
import dev.rein.context.Compaction;
import dev.rein.context.ContextPolicy;
import dev.rein.context.OutputStore;
import dev.rein.context.Side;
import dev.rein.context.TokenCounting;
import dev.rein.context.TokenEstimator;
import dev.rein.internal.loop.Step;
import dev.rein.model.Message;
import dev.rein.model.Model;
import dev.rein.model.ModelException;
import dev.rein.model.ModelGateway;
import dev.rein.model.ModelRequest;
import dev.rein.trace.TraceEvent;
import dev.rein.trace.Tracer;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Applies a {@link ContextPolicy}'s client-side edits to one run's history before each model call:
 * first clearing old tool results, then, if the request is still over the compaction trigger,
 * compaction. Every edit is checked with {@link HistoryValidator} (an edit that would break the
 * history is discarded and reported) and recorded as a {@link TraceEvent.ContextEdited}.
 */
public final class ContextManager {
    private final ContextPolicy policy;
    private final Model model;
    private final OutputStore store;
    private final Tracer tracer;

    /** The client-side edits of {@code policy} for one run. */
    public ContextManager(ContextPolicy policy, Model model, OutputStore store, Tracer tracer) {
        this.policy = policy;
        this.model = model;
        this.store = store;
        this.tracer = tracer;
    }

    /**
     * Edits the history of {@code request} if a client-side policy triggers. The step function
     * decides which edit follows a measurement; this class performs the edits.
     *
     * @return the edited history, or empty when nothing changed
     */
    public Optional<List<Message>> prepare(ModelRequest request, ModelGateway gateway) throws InterruptedException {
        return prepare(request, gateway, CONTEXT_ONLY);
    }

    /** As {@link #prepare(ModelRequest, ModelGateway)}, deciding with the run's decision state. */
    public Optional<List<Message>> prepare(ModelRequest request, ModelGateway gateway, Step.State decisions)
            throws InterruptedException {
        ClearToolResults clearing = client(policy.clearing());
        Compaction compaction = policy.compaction() != null && policy.compaction().side() == Side.CLIENT ? policy.compaction() : null;
        if (clearing == null && compaction == null) {
            return Optional.empty();
        }
        int clearingTrigger = clearing == null ? 0 : clearing.triggerTokens();
        int compactionTrigger = compaction == null ? 0 : compaction.triggerTokens();
        int firstTrigger = Math.min(clearing == null ? Integer.MAX_VALUE : clearingTrigger,
                compaction == null ? Integer.MAX_VALUE : compactionTrigger);
        List<Message> history = request.messages();
        boolean edited = false;
        long tokens = measure(request, firstTrigger, gateway);
        boolean cleared = false;
        while (true) {
            Step.Decision decision = Step.decide(decisions, new Step.Event.ContextMeasured(tokens, clearingTrigger,
                    compactionTrigger, cleared));
            if (decision.commands().isEmpty()) {
                return edited ? Optional.of(history) : Optional.empty();
            }
            switch (decision.commands().get(0)) {
                case Step.Command.ClearToolResults ignored -> {
                    cleared = true;
                    Optional<Cleared> done = clear(clearing, with(request, history), tokens, firstTrigger, gateway);
                    if (done.isPresent()) {
                        history = done.get().history();
                        tokens = done.get().tokens();
                        edited = true;
                    }
                }
                case Step.Command.Compact compact -> {
                    Optional<List<Message>> compacted = compact(compaction, with(request, history), gateway, compact.tokens(),
                            firstTrigger);
                    return compacted.isPresent() ? compacted : edited ? Optional.of(history) : Optional.empty();
                }
                default -> throw new IllegalStateException("not a context edit: " + decision.commands().get(0));
            }
        }
    }

    /** Decisions about the context read no rules: the neutral state for callers outside a run. */
    private static final Step.State CONTEXT_ONLY = Step.State.start(new Step.Rules(0, 1, 0), 0);

    private record Cleared(List<Message> history, long tokens) {}

    private Optional<Cleared> clear(ClearToolResults clearing, ModelRequest request, long tokens, int firstTrigger,
                                    ModelGateway gateway) throws InterruptedException {
        ToolResultClearing.Result cleared = ToolResultClearing.clear(request.messages(), clearing.keep(),
                new HashSet<>(clearing.excludeTools()), store);
        if (cleared.notStored() > 0) {
            intervention(cleared.notStored() + " tool result(s) were not cleared because the output store could not keep"
                    + " them (" + cleared.storeError() + "); they stay in the history", Map.of("not_stored",
                    cleared.notStored(), "error", cleared.storeError()));
        }
        if (cleared.cleared() == 0 || !valid("clear_tool_results", cleared.history())) {
            return Optional.empty();
        }
        long after = measure(with(request, cleared.history()), firstTrigger, gateway);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("cleared", cleared.cleared());
        details.put("characters", cleared.characters());
        details.put("kept", clearing.keep());
        emit("clear_tool_results", tokens, after, details);
        return Optional.of(new Cleared(cleared.history(), after));
    }

    private Optional<List<Message>> compact(Compaction compaction, ModelRequest request, ModelGateway gateway, long tokens,
                                            int firstTrigger) throws InterruptedException {
        Compactor.Outcome.Compacted result;
        switch (Compactor.compact(request.messages(), compaction, request, model, gateway)) {
            case Compactor.Outcome.Skipped skipped -> {
                intervention("compaction did not happen: " + skipped.why() + "; the full history is sent",
                        Map.of("tokens", tokens, "reason", skipped.why()));
                return Optional.empty();
            }
            case Compactor.Outcome.Compacted compacted -> result = compacted;
        }
        if (!valid("compact", result.history())) {
            return Optional.empty();
        }
        long after = measure(with(request, result.history()), firstTrigger, gateway);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("messages_replaced", result.messagesReplaced());
        details.put("summary_characters", result.summaryCharacters());
        emit("compact", tokens, after, details);
        return Optional.of(result.history());
    }

    /** The request's input tokens: estimated, or counted by the provider once near a trigger. */
    long measure(ModelRequest request, int firstTrigger, ModelGateway gateway) throws InterruptedException {
        long estimate = TokenEstimator.estimate(request);
        if (policy.counting() == TokenCounting.PROVIDER && estimate * 2 >= firstTrigger) {
            try {
                long counted = gateway.countTokens(model, request);
                if (counted >= 0) {
                    return counted;
                }
            } catch (ModelException e) {
                return estimate;
            }
        }
        return estimate;
    }

    private boolean valid(String edit, List<Message> history) {
        List<String> problems = HistoryValidator.problems(history);
        if (problems.isEmpty()) {
            return true;
        }
        intervention("the " + edit + " edit was discarded because it would break the history: " + problems.get(0),
                Map.of("problems", problems));
        return false;
    }

    private void emit(String edit, long before, long after, Map<String, Object> details) {
        tracer.emit(new TraceEvent.ContextEdited(tracer.runId(), tracer.step(), tracer.now(), edit, before, after, details));
    }

    private void intervention(String message, Map<String, Object> evidence) {
        tracer.emit(new TraceEvent.Intervention(tracer.runId(), tracer.step(), tracer.now(), "context", message, evidence));
    }

    private static ClearToolResults client(ClearToolResults clearing) {
        return clearing != null && clearing.side() == Side.CLIENT ? clearing : null;
    }

    private static ModelRequest with(ModelRequest request, List<Message> history) {
        return request.toBuilder().messages(history).build();
    }
}
