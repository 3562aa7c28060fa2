package dev.rein.context;

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

    ContextManager(ContextPolicy policy, Model model, OutputStore store, Tracer tracer) {
        this.policy = policy;
        this.model = model;
        this.store = store;
        this.tracer = tracer;
    }

    /**
     * Edits the history of {@code request} if a client-side policy triggers.
     *
     * @return the edited history, or empty when nothing changed
     */
    public Optional<List<Message>> prepare(ModelRequest request, ModelGateway gateway) throws InterruptedException {
        ClearToolResults clearing = client(policy.clearing());
        Compaction compaction = policy.compaction() != null && policy.compaction().side() == Side.CLIENT ? policy.compaction() : null;
        if (clearing == null && compaction == null) {
            return Optional.empty();
        }
        int firstTrigger = Math.min(clearing == null ? Integer.MAX_VALUE : clearing.triggerTokens(),
                compaction == null ? Integer.MAX_VALUE : compaction.triggerTokens());
        List<Message> history = request.messages();
        boolean edited = false;
        long tokens = measure(request, firstTrigger, gateway);
        if (clearing != null && tokens > clearing.triggerTokens()) {
            ToolResultClearing.Result cleared = ToolResultClearing.clear(history, clearing.keep(),
                    new HashSet<>(clearing.excludeTools()), store);
            if (cleared.cleared() > 0 && valid("clear_tool_results", cleared.history())) {
                long after = measure(with(request, cleared.history()), firstTrigger, gateway);
                Map<String, Object> details = new LinkedHashMap<>();
                details.put("cleared", cleared.cleared());
                details.put("characters", cleared.characters());
                details.put("kept", clearing.keep());
                emit("clear_tool_results", tokens, after, details);
                history = cleared.history();
                tokens = after;
                edited = true;
            }
        }
        if (compaction != null && tokens > compaction.triggerTokens()) {
            Optional<List<Message>> compacted = compact(compaction, with(request, history), gateway, tokens, firstTrigger);
            if (compacted.isPresent()) {
                history = compacted.get();
                edited = true;
            }
        }
        return edited ? Optional.of(history) : Optional.empty();
    }

    private Optional<List<Message>> compact(Compaction compaction, ModelRequest request, ModelGateway gateway, long tokens,
                                            int firstTrigger) throws InterruptedException {
        Optional<Compactor.Result> result = Compactor.compact(request.messages(), compaction, request, model, gateway);
        if (result.isEmpty()) {
            intervention("compaction did not happen (too little history to summarise, or the summary call failed or"
                    + " returned nothing); the full history is sent", Map.of("tokens", tokens));
            return Optional.empty();
        }
        if (!valid("compact", result.get().history())) {
            return Optional.empty();
        }
        long after = measure(with(request, result.get().history()), firstTrigger, gateway);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("messages_replaced", result.get().messagesReplaced());
        details.put("summary_characters", result.get().summaryCharacters());
        emit("compact", tokens, after, details);
        return Optional.of(result.get().history());
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
