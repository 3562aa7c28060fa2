package dev.rein.internal.context;

import dev.rein.context.Compaction;
import dev.rein.context.OutputStore;
import dev.rein.internal.text.Visible;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.Model;
import dev.rein.model.ModelException;
import dev.rein.model.ModelGateway;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.Role;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolChoice;
import java.util.ArrayList;
import java.util.List;

/**
 * Client-side compaction: one model call summarises everything before the newest messages, and
 * the history becomes [goal + summary, newest messages...]. The kept part starts at an assistant
 * message, so no tool_result loses its tool_use. The summary call is the agent's own request (same
 * system prompt and tools, so a history with tool blocks stays valid) with {@code tool_choice:
 * none} and the summary prompt after the last user message.
 */
final class Compactor {
    /** Starts the summary block in the first message, so a later compaction replaces it. */
    static final String MARKER = "[rein: summary of earlier work]";
    static final String DEFAULT_INSTRUCTIONS = "[rein] Your context is nearly full. The conversation so far will be"
            + " replaced by the summary you write now, so include everything needed to continue the task: the goal"
            + " and its constraints, the facts found with their sources, decisions made and why, what was tried and"
            + " failed, and what remains to do. Write only the summary; do not call tools.";

    /** What a compaction came to: the compacted history, or why the history stays as it is. */
    sealed interface Outcome {
        record Compacted(List<Message> history, int messagesReplaced, int summaryCharacters) implements Outcome {}

        /** {@code why}: one reason, for the context intervention (a list of possible ones would not say which). */
        record Skipped(String why) implements Outcome {}
    }

    private Compactor() {}

    /**
     * Where the kept part starts, or -1 when there is too little history to compact: at an
     * assistant message that follows a user message, so the summarised part ends with a user turn.
     * A paused turn (pause_turn) continued by the model is two assistant messages in a row, and is
     * never cut in two.
     */
    static int cut(List<Message> history, int keepMessages) {
        int cut = Math.max(history.size() - keepMessages, 1);
        while (cut < history.size()
                && (history.get(cut).role() != Role.ASSISTANT || history.get(cut - 1).role() != Role.USER)) {
            cut++;
        }
        // the summarised part must hold more than the goal and one answer to be worth a call
        return cut >= 3 && cut < history.size() ? cut : -1;
    }

    static Outcome compact(List<Message> history, Compaction compaction, ModelRequest base, Model model,
                           ModelGateway gateway) throws InterruptedException {
        int cut = cut(history, compaction.keepMessages());
        if (cut < 0) {
            return new Outcome.Skipped("too little history to summarise besides the newest " + compaction.keepMessages()
                    + " messages, which compaction keeps (the history has " + history.size() + ")");
        }
        List<Message> prefix = new ArrayList<>(history.subList(0, cut));
        Message last = prefix.get(prefix.size() - 1);
        List<ContentBlock> blocks = new ArrayList<>(last.content());
        blocks.add(new TextBlock(compaction.instructions() != null ? compaction.instructions() : DEFAULT_INSTRUCTIONS));
        prefix.set(prefix.size() - 1, new Message(last.role(), blocks));
        ModelRequest request = base.toBuilder().messages(prefix).toolChoice(ToolChoice.none()).build();
        String summary;
        try {
            ModelResponse response = gateway.call(model, request, "compaction");
            // the summary replaces the history: one cut off at max_tokens has lost its end (what remains
            // to do), and a refusal's text is no summary; either would lose the run's context
            switch (response.stopReason()) {
                case MAX_TOKENS -> {
                    return new Outcome.Skipped("the summary was cut off at max_tokens (" + request.maxTokens() + ")");
                }
                case REFUSAL -> {
                    return new Outcome.Skipped("the summary call was refused");
                }
                case MODEL_CONTEXT_WINDOW_EXCEEDED -> {
                    return new Outcome.Skipped("the summary call's request exceeded the model's context window");
                }
                default -> { }
            }
            summary = response.text().strip();
        } catch (ModelException e) {
            // the failure's details are in the trace (model_failed); the reason here says which it was
            return new Outcome.Skipped("the summary call failed: " + e.getMessage());
        }
        // only invisible characters (a zero-width space, a no-break space, a BOM) would replace the turns with nothing
        if (!Visible.any(summary)) {
            return new Outcome.Skipped("the summary call returned no text");
        }
        List<ContentBlock> first = new ArrayList<>();
        for (ContentBlock block : history.get(0).content()) {
            if (!(block instanceof TextBlock t && t.text().startsWith(MARKER))) {
                first.add(block);
            }
        }
        first.add(new TextBlock(MARKER + "\n" + summary));
        List<Message> compacted = new ArrayList<>();
        compacted.add(Message.user(first));
        compacted.addAll(history.subList(cut, history.size()));
        return new Outcome.Compacted(List.copyOf(compacted), cut, summary.length());
    }
}
