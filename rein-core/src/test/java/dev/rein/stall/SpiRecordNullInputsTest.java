package dev.rein.stall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.agent.GuardConfig;
import dev.rein.agent.SafetyConfig;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.context.ContextPolicy;
import dev.rein.json.Json;
import dev.rein.retry.RetryPolicy;
import dev.rein.state.InMemoryRunStore;
import dev.rein.tool.ErrorClass;
import dev.rein.tool.ScopePolicy;
import dev.rein.tool.ToolOutcome;
import dev.rein.tool.ToolResult;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * Records an application builds through the public API (a stage's deferred outcome and result, a stall detector's
 * calls and observations in its tests, the guard and safety settings) given null: a ReinException naming the field and
 * what to give, as the rest of the public API; before, a bare NullPointerException naming only the field.
 */
class SpiRecordNullInputsTest {
    private static void refused(ThrowingCallable call, String... words) {
        assertThatThrownBy(call).isInstanceOf(ReinException.class).message().contains(words);
    }

    @Test
    void aDeferredOutcomeAndAResultGivenNullSayWhatToGive() {
        refused(() -> new ToolOutcome.Deferred(null, "refund", "h"), "deferred", "callId", "give");
        refused(() -> new ToolOutcome.Deferred("c1", null, "h"), "deferred", "c1", "toolName");
        refused(() -> new ToolOutcome.Deferred("c1", "refund", null), "deferred", "c1", "actionHash", "ActionHash.of");
        refused(() -> new ToolOutcome.Completed(null), "completed", "result");
        refused(() -> new ToolOutcome.Failed(null), "failed", "result");
        Instant now = Instant.EPOCH;
        refused(() -> new ToolResult(null, "t", "x", false, null, null, now, Duration.ZERO), "tool result", "callId");
        refused(() -> new ToolResult("c1", null, "x", false, null, null, now, Duration.ZERO), "tool result", "c1", "toolName");
        refused(() -> new ToolResult("c1", "t", null, false, null, null, now, Duration.ZERO), "tool result", "c1", "content", "\"\"");
        refused(() -> new ToolResult("c1", "t", "x", false, null, null, null, Duration.ZERO), "tool result", "c1", "observedAt");
        assertThat(new ToolResult("c1", "t", "", true, null, null, now, null).errorClass()).isEqualTo(ErrorClass.EXECUTION_FAILED);
    }

    @Test
    void aProposedCallAndAnObservationGivenNullSayWhatToGive() {
        refused(() -> new ProposedCall(null, "t", Json.object(), "k", 1, false, null, null), "proposed call", "callId");
        refused(() -> new ProposedCall("c1", null, Json.object(), "k", 1, false, null, null), "proposed call", "c1", "tool");
        refused(() -> new ProposedCall("c1", "t", null, "k", 1, false, null, null), "proposed call", "c1", "arguments");
        refused(() -> new ProposedCall("c1", "t", Json.object(), null, 1, false, null, null), "proposed call", "c1", "key",
                "ProposedCall.of");
        refused(() -> ProposedCall.of("c1", "t", null, null, 1), "proposed call", "c1", "arguments");
        ProposedCall call = ProposedCall.of("c1", "t", Json.object(), null, 1);
        refused(() -> new Observed(null, "x", false), "observation", "call");
        refused(() -> new Observed(call, null, false), "observation", "c1", "content");
    }

    @Test
    void guardAndSafetySettingsGivenNullSayWhatToGive() {
        refused(() -> new GuardConfig(null, ContextPolicy.defaults(), List.of()), "GuardConfig", "stall", "StallPolicy.defaults()");
        refused(() -> new GuardConfig(StallPolicy.defaults(), null, List.of()), "GuardConfig", "context", "ContextPolicy.defaults()");
        refused(() -> new GuardConfig(StallPolicy.defaults(), ContextPolicy.defaults(), null), "GuardConfig", "reflection",
                "List.of()");
        refused(() -> new GuardConfig(StallPolicy.defaults(), ContextPolicy.defaults(), Arrays.asList(null, null)), "GuardConfig",
                "reflection", "position 0");
        // an immutable list (as the builder gives) is taken: its indexOf(null) would throw
        assertThat(new GuardConfig(StallPolicy.defaults(), ContextPolicy.defaults(), List.of(dev.rein.reflection.Reflection.critic(
                dev.rein.testkit.ScriptedModel.of(), "critic"))).reflection()).hasSize(1);
        assertThat(GuardConfig.defaults().reflection()).isEmpty();
        InMemoryRunStore store = new InMemoryRunStore();
        refused(() -> new SafetyConfig(null, store, ScopePolicy.REQUIRED_SCOPES, RetryPolicy.NONE, false, true, 1),
                "SafetyConfig", "approvalPolicy", "ApprovalPolicy.NEVER");
        refused(() -> new SafetyConfig(ApprovalPolicy.NEVER, null, ScopePolicy.REQUIRED_SCOPES, RetryPolicy.NONE, false, true, 1),
                "SafetyConfig", "store", "InMemoryRunStore");
        refused(() -> new SafetyConfig(ApprovalPolicy.NEVER, store, null, RetryPolicy.NONE, false, true, 1),
                "SafetyConfig", "scopePolicy", "ScopePolicy.REQUIRED_SCOPES");
        refused(() -> new SafetyConfig(ApprovalPolicy.NEVER, store, ScopePolicy.REQUIRED_SCOPES, null, false, true, 1),
                "SafetyConfig", "toolRetryPolicy", "RetryPolicy.NONE");
    }
}
