package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.approval.ApprovalPolicy;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolInterceptor;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * docs/safety.md: a tool-chain stage never throws (a failure is a ToolOutcome.Failed), and an approval or scope
 * policy answers, never throws. One that throws is a programmer error, not the model's: the run ends
 * FAILED/internal_error with a message naming the policy or interceptor and what it threw, the model never sees it,
 * where the model read "Tool 'x' could not be run: IllegalStateException: ..." and the run went on (to SUCCEEDED),
 * the developer told only in the trace.
 */
class ThrowingPolicyContractTest {
    private final AtomicInteger called = new AtomicInteger();
    private final ScriptedModel model = ScriptedModel.of(toolCalls(call("send", "{}")), text("sent"));

    private Agent.Builder agent() {
        return agent(model);
    }

    private Agent.Builder agent(ScriptedModel model) {
        Tool send = Tool.builder("send").description("sends").risk(Risk.WRITE)
                .handler((args, ctx) -> "sent #" + called.incrementAndGet()).build();
        return Agent.builder().model(model).tools(send);
    }

    static final class FlakyPolicy implements ApprovalPolicy {
        @Override
        public boolean requiresApproval(Tool tool, com.fasterxml.jackson.databind.JsonNode arguments,
                                        dev.rein.tool.Principal principal) {
            throw new IllegalStateException("the policy table is not loaded");
        }
    }

    @Test
    void anApprovalPolicyThatThrowsEndsTheRunNamingItAndTheToolIsNotCalled() {
        RunResult result = agent().safety(SafetyConfig.builder().approvalPolicy(new FlakyPolicy()).build()).build().run("go");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo("internal_error");
        assertThat(result.message()).contains("the approval policy " + FlakyPolicy.class.getName())
                .contains("threw IllegalStateException: the policy table is not loaded")
                .contains("call toolu_1_1 of tool 'send'").contains("was not run");
        assertThat(called).hasValue(0);
        assertThat(model.requests()).as("the model never sees it").hasSize(1);
    }

    static final class AuditInterceptor implements ToolInterceptor {
        private final boolean after;

        AuditInterceptor(boolean after) {
            this.after = after;
        }

        @Override
        public dev.rein.tool.ToolOutcome intercept(dev.rein.tool.ToolInvocation invocation, Chain chain) throws InterruptedException {
            if (after) {
                chain.proceed(invocation);
            }
            throw new IllegalStateException("the audit log is full");
        }
    }

    @Test
    void anApplicationInterceptorThatThrowsEndsTheRunNamingItAndSaysWhetherTheToolRan() {
        RunResult before = agent().safety(SafetyConfig.builder().approvalPolicy(ApprovalPolicy.NEVER).build())
                .toolInterceptor(new AuditInterceptor(false)).build().run("go");
        assertThat(before.status()).isEqualTo(RunStatus.FAILED);
        assertThat(before.reason()).isEqualTo("internal_error");
        assertThat(before.message()).contains(AuditInterceptor.class.getName())
                .contains("threw IllegalStateException: the audit log is full").contains("call toolu_1_1 of tool 'send'")
                .contains("before passing the call on: it was not run");
        assertThat(called).hasValue(0);
        assertThat(model.requests()).hasSize(1);

        ScriptedModel again = ScriptedModel.of(toolCalls(call("send", "{}")), text("sent"));
        RunResult after = agent(again).safety(SafetyConfig.builder().approvalPolicy(ApprovalPolicy.NEVER).build())
                .toolInterceptor(new AuditInterceptor(true)).build().run("go");
        assertThat(after.reason()).isEqualTo("internal_error");
        assertThat(after.message()).contains(AuditInterceptor.class.getName())
                .contains("after the rest of the chain had answered the call");
        assertThat(called).hasValue(1);
    }

    @Test
    void aSecretTheThrownMessageQuotesIsMaskedInTheRunsMessage() {
        String secret = "sk-live-4f9a8b7c6d";
        ToolInterceptor auth = (invocation, chain) -> {
            throw new IllegalStateException("the key " + invocation.context().secrets().get("key").orElseThrow() + " was refused");
        };
        RunResult result = agent().safety(SafetyConfig.builder().approvalPolicy(ApprovalPolicy.NEVER).build()).toolInterceptor(auth)
                .secrets(dev.rein.tool.Secrets.of(java.util.Map.of("key", secret))).build().run("go");
        assertThat(result.reason()).isEqualTo("internal_error");
        assertThat(result.message()).contains("the key [REDACTED:key] was refused").doesNotContain(secret);
    }

    @Test
    void aScopePolicyThatThrowsEndsTheRunNamingIt() {
        RunResult result = agent().safety(SafetyConfig.builder().approvalPolicy(ApprovalPolicy.NEVER)
                .scopePolicy((principal, tool, arguments) -> {
                    throw new IllegalArgumentException("no tenant");
                }).build()).build().run("go");
        assertThat(result.reason()).isEqualTo("internal_error");
        assertThat(result.message()).contains("the scope policy").contains("threw IllegalArgumentException: no tenant")
                .contains("was not run");
        assertThat(called).hasValue(0);
        assertThat(model.requests()).hasSize(1);
    }
}
