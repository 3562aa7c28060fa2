package dev.rein.agent;

import dev.rein.ReinException;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.retry.RetryPolicy;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunStore;
import dev.rein.tool.ScopePolicy;
import dev.rein.tool.ToolExecutor;

/**
 * The control settings of an agent: who approves what, where runs are kept, who may call what,
 * how transient tool failures are retried, how strict provenance is and how tool output reaches
 * the model. Immutable; build with {@link #builder()}.
 *
 * @param approvalPolicy     which calls wait for a person (default: WRITE and IRREVERSIBLE)
 * @param store              where runs are checkpointed after every step (default: in memory, this process only)
 * @param scopePolicy        who may call what (default: the tool's required scopes)
 * @param toolRetryPolicy    retries of transient tool failures (default {@link ToolExecutor#DEFAULT_TOOL_RETRY})
 * @param strictProvenance   reject tool results without a source (default off)
 * @param wrapToolOutput     put tool output in an untrusted-data wrapper before the model sees it (default on)
 * @param maxArgumentBytes   the largest arguments object accepted (default 256 KiB)
 */
public record SafetyConfig(ApprovalPolicy approvalPolicy, RunStore store, ScopePolicy scopePolicy,
                           RetryPolicy toolRetryPolicy, boolean strictProvenance, boolean wrapToolOutput,
                           int maxArgumentBytes) {
    /** @throws ReinException when a policy or the store is null, naming it and what to give, or maxArgumentBytes &lt; 1 */
    public SafetyConfig {
        given(approvalPolicy, "approvalPolicy", "give an ApprovalPolicy (ApprovalPolicy.NEVER for no approvals)");
        given(store, "store", "give a RunStore (new InMemoryRunStore() is the default)");
        given(scopePolicy, "scopePolicy", "give a ScopePolicy (ScopePolicy.REQUIRED_SCOPES is the default)");
        given(toolRetryPolicy, "toolRetryPolicy",
                "give a RetryPolicy (RetryPolicy.NONE for no retries; ToolExecutor.DEFAULT_TOOL_RETRY is the default)");
        if (maxArgumentBytes < 1) {
            throw new ReinException(ToolExecutor.maxArgumentBytesProblem(maxArgumentBytes));
        }
    }

    private static void given(Object value, String field, String instead) {
        if (value == null) {
            throw new ReinException("SafetyConfig was given no " + field + " (null): " + instead);
        }
    }

    /** The defaults, with a fresh in-memory store. */
    public static SafetyConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.approvalPolicy = approvalPolicy;
        b.store = store;
        b.scopePolicy = scopePolicy;
        b.toolRetryPolicy = toolRetryPolicy;
        b.strictProvenance = strictProvenance;
        b.wrapToolOutput = wrapToolOutput;
        b.maxArgumentBytes = maxArgumentBytes;
        return b;
    }

    /** Builder for {@link SafetyConfig}. */
    public static final class Builder {
        private ApprovalPolicy approvalPolicy = ApprovalPolicy.SIDE_EFFECTS;
        private RunStore store;
        private ScopePolicy scopePolicy = ScopePolicy.REQUIRED_SCOPES;
        private RetryPolicy toolRetryPolicy = ToolExecutor.DEFAULT_TOOL_RETRY;
        private boolean strictProvenance;
        private boolean wrapToolOutput = true;
        private int maxArgumentBytes = ToolExecutor.DEFAULT_MAX_ARGUMENT_BYTES;

        private Builder() {}

        public Builder approvalPolicy(ApprovalPolicy policy) {
            this.approvalPolicy = BuilderSettings.given(policy, "approvalPolicy", "pass an ApprovalPolicy (ApprovalPolicy.NEVER for no approvals)");
            return this;
        }

        public Builder store(RunStore store) {
            this.store = BuilderSettings.given(store, "store", "pass a RunStore (new InMemoryRunStore() is the default)");
            return this;
        }

        public Builder scopePolicy(ScopePolicy policy) {
            this.scopePolicy = BuilderSettings.given(policy, "scopePolicy", "pass a ScopePolicy (ScopePolicy.REQUIRED_SCOPES is the default)");
            return this;
        }

        public Builder toolRetryPolicy(RetryPolicy policy) {
            this.toolRetryPolicy = BuilderSettings.given(policy, "toolRetryPolicy",
                    "pass a RetryPolicy (RetryPolicy.NONE for no retries; ToolExecutor.DEFAULT_TOOL_RETRY is the default)");
            return this;
        }

        public Builder strictProvenance(boolean strict) {
            this.strictProvenance = strict;
            return this;
        }

        public Builder wrapToolOutput(boolean wrap) {
            this.wrapToolOutput = wrap;
            return this;
        }

        public Builder maxArgumentBytes(int bytes) {
            this.maxArgumentBytes = bytes;
            return this;
        }

        public SafetyConfig build() {
            return new SafetyConfig(approvalPolicy, store == null ? new InMemoryRunStore() : store, scopePolicy,
                    toolRetryPolicy, strictProvenance, wrapToolOutput, maxArgumentBytes);
        }
    }
}
