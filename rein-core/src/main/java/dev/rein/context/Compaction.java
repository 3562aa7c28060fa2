package dev.rein.context;

import dev.rein.ReinException;
import dev.rein.model.ServerContextEdit;
import java.util.Objects;

/**
 * Replacing old turns with a summary once the input passes {@code triggerTokens}. Client-side,
 * Rein makes one model call (traced with purpose "compaction", counted in the budget) asking for a
 * summary of everything but the newest {@code keepMessages} messages, and puts the summary after
 * the goal in the first message. Server-side the provider compacts (sent as a
 * {@link dev.rein.model.ServerContextEdit.Compact}; {@code keepMessages} does not apply). {@code instructions} replace the default summary prompt.
 *
 * <p>Defaults: trigger at {@value #DEFAULT_TRIGGER_TOKENS} input tokens, keep the newest
 * {@value #DEFAULT_KEEP_MESSAGES} messages.
 */
public record Compaction(Side side, int triggerTokens, int keepMessages, String instructions) {
    public static final int DEFAULT_TRIGGER_TOKENS = 150_000;
    public static final int DEFAULT_KEEP_MESSAGES = 4;

    public Compaction {
        Objects.requireNonNull(side, "side");
        if (triggerTokens < 1) {
            throw new ReinException("the compaction trigger must be positive, was " + triggerTokens
                    + ": give the input tokens at which to compact the conversation (the default is " + DEFAULT_TRIGGER_TOKENS + ")");
        }
        if (keepMessages < 1) {
            throw new ReinException("compaction must keep at least the newest message, was " + keepMessages);
        }
        if (instructions != null && instructions.isBlank()) {
            instructions = null;
        }
    }

    public static Compaction client() {
        return client(DEFAULT_TRIGGER_TOKENS);
    }

    public static Compaction client(int triggerTokens) {
        return new Compaction(Side.CLIENT, triggerTokens, DEFAULT_KEEP_MESSAGES, null);
    }

    public static Compaction server() {
        return server(DEFAULT_TRIGGER_TOKENS);
    }

    public static Compaction server(int triggerTokens) {
        return new Compaction(Side.SERVER, triggerTokens, DEFAULT_KEEP_MESSAGES, null);
    }

    /** The same setting keeping the newest {@code messages} messages verbatim (client-side). */
    public Compaction keepingLast(int messages) {
        return new Compaction(side, triggerTokens, messages, instructions);
    }

    /** The same setting with another summary prompt. */
    public Compaction withInstructions(String text) {
        return new Compaction(side, triggerTokens, keepMessages, text);
    }

    ServerContextEdit toServerEdit() {
        return new ServerContextEdit.Compact(triggerTokens, instructions);
    }
}
