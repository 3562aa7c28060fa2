package dev.rein.context;

import dev.rein.ReinException;
import dev.rein.model.ServerContextEdit;
import dev.rein.tool.ToolInterceptor;
import dev.rein.trace.Tracer;
import java.util.ArrayList;
import java.util.List;

/**
 * What the model sees of a growing run, in three layers: tool output truncated at a limit (the
 * full output kept in an {@link OutputStore}); old tool results cleared; old turns compacted into a
 * summary. Clearing and compaction are each applied client-side by Rein or server-side by the
 * provider, chosen here in one place ({@link Side}).
 *
 * <p>Defaults ({@link #defaults()}): truncation at {@value #DEFAULT_TOOL_OUTPUT_LIMIT} characters,
 * full outputs kept in memory for the run, no clearing, no compaction, provider token counting
 * near a trigger. Immutable.
 */
public final class ContextPolicy {
    public static final int DEFAULT_TOOL_OUTPUT_LIMIT = 4_000;

    private final int toolOutputLimit;
    private final OutputStore store;
    private final ClearToolResults clearing;
    private final Compaction compaction;
    private final TokenCounting counting;

    private ContextPolicy(Builder b) {
        this.toolOutputLimit = b.toolOutputLimit;
        this.store = b.store;
        this.clearing = b.clearing;
        this.compaction = b.compaction;
        this.counting = b.counting;
    }

    public static ContextPolicy defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The most characters of one tool output the model sees; 0 when truncation is off. */
    public int toolOutputLimit() {
        return toolOutputLimit;
    }

    /** Tool result clearing, or null. */
    public ClearToolResults clearing() {
        return clearing;
    }

    /** Compaction, or null. */
    public Compaction compaction() {
        return compaction;
    }

    public TokenCounting counting() {
        return counting;
    }

    /** The configured store, or a fresh in-memory one for each run when none was set. */
    public OutputStore storeForRun() {
        return store != null ? store : new InMemoryOutputStore();
    }

    /** The settings to send for the provider to apply (empty when everything is client-side). */
    public List<ServerContextEdit> serverEdits() {
        List<ServerContextEdit> edits = new ArrayList<>();
        if (clearing != null && clearing.side() == Side.SERVER) {
            edits.add(clearing.toServerEdit());
        }
        if (compaction != null && compaction.side() == Side.SERVER) {
            edits.add(compaction.toServerEdit());
        }
        return List.copyOf(edits);
    }

    /** The executor stage that truncates tool output for one run. */
    public ToolInterceptor truncationStage(OutputStore runStore, Tracer tracer) {
        return new OutputTruncation(toolOutputLimit, runStore, tracer);
    }

    /** Builder for {@link ContextPolicy}. */
    public static final class Builder {
        private int toolOutputLimit = DEFAULT_TOOL_OUTPUT_LIMIT;
        private OutputStore store;
        private ClearToolResults clearing;
        private Compaction compaction;
        private TokenCounting counting = TokenCounting.PROVIDER;

        private Builder() {}

        /** The most characters of one tool output shown to the model (default 4,000); 0 turns truncation off. */
        public Builder toolOutputLimit(int characters) {
            if (characters < 0) {
                throw new ReinException("the tool output limit cannot be negative, was " + characters);
            }
            this.toolOutputLimit = characters;
            return this;
        }

        /** Where full outputs are kept (default: in memory, one store per run); null is a ReinException. */
        public Builder outputStore(OutputStore store) {
            if (store == null) {
                throw new ReinException("ContextPolicy.Builder.outputStore(...) was given no store (null): pass where full"
                        + " tool outputs are kept, OutputStore.inMemory() (the default) or OutputStore.directory(path)");
            }
            this.store = store;
            return this;
        }

        /** Clears old tool results, client- or server-side; null for none (default). */
        public Builder clearToolResults(ClearToolResults clearing) {
            this.clearing = clearing;
            return this;
        }

        /** Compacts old turns, client- or server-side; null for none (default). */
        public Builder compaction(Compaction compaction) {
            this.compaction = compaction;
            return this;
        }

        /** How tokens are counted for the triggers (default {@link TokenCounting#PROVIDER}); null is a ReinException. */
        public Builder tokenCounting(TokenCounting counting) {
            if (counting == null) {
                throw new ReinException("ContextPolicy.Builder.tokenCounting(...) was given no way of counting (null): pass"
                        + " TokenCounting.PROVIDER (the default) or TokenCounting.ESTIMATE");
            }
            this.counting = counting;
            return this;
        }

        public ContextPolicy build() {
            if (clearing != null && compaction != null && clearing.side() == Side.CLIENT && compaction.side() == Side.CLIENT
                    && compaction.triggerTokens() < clearing.triggerTokens()) {
                throw new ReinException("compaction triggers at " + compaction.triggerTokens() + " tokens, before tool result"
                        + " clearing at " + clearing.triggerTokens() + ": clearing would never run. Set the compaction"
                        + " trigger at or above the clearing trigger.");
            }
            return new ContextPolicy(this);
        }
    }
}
