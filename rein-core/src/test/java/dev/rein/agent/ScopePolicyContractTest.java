package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * docs/safety.md: a pluggable ScopePolicy answers Optional.empty() (allowed) or a reason (denied). One that answers null
 * broke that contract: a programmer error, which ends the run internal_error naming it, as a stage that breaks the tool
 * chain's contract does, never a tool error for the model.
 */
class ScopePolicyContractTest {
    @Test
    void aScopePolicyThatReturnsNullEndsTheRunAsAProgrammerErrorAndTheToolIsNotCalled() {
        AtomicInteger called = new AtomicInteger();
        Tool lookup = Tool.builder("lookup").description("looks up").handler((args, ctx) -> "found #" + called.incrementAndGet()).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("lookup", "{}")), text("ok"));

        RunResult result = Agent.builder().model(model).tools(lookup)
                .safety(SafetyConfig.builder().scopePolicy((principal, tool, arguments) -> null).build()).build().run("go");

        // before: SUCCEEDED, the model having read 'Tool 'lookup' could not be run: NullPointerException: Cannot invoke
        // "java.util.Optional.isEmpty()" because "denied" is null' as the call's result
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo("internal_error");
        assertThat(result.message()).contains("returned null for call toolu_1_1 of tool 'lookup'")
                .contains("Optional.empty() to allow the call or Optional.of(reason) to deny it");
        assertThat(called).hasValue(0);
        assertThat(model.requests()).hasSize(1);
    }
}
