package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Issue 2's builder API: a bad setting is a {@link ReinException} that names it, when the agent or tool is built. */
class BuilderEdgesTest {

    @Test
    void aToolTimeoutUnderAMillisecondIsRefusedRatherThanTimingOutEveryCallAtZeroSeconds() {
        // the timeout stage and its message count milliseconds: 500 ns was accepted, and every call then
        // ended "exceeded its timeout of 0 s", as 14eb724 found for the run's maxDuration
        assertThatThrownBy(() -> Agent.builder().model(ScriptedModel.of(text("a"))).tools(TestTools.echo())
                .toolTimeout(Duration.ofNanos(500)).build())
                .isInstanceOf(ReinException.class).hasMessage("toolTimeout must be at least 1 ms, was PT0.0000005S: give the longest one tool call may take, e.g. Duration.ofSeconds(30) (the default)");
        assertThatThrownBy(() -> Tool.builder("slow").description("Slow.").handler((a, c) -> "x")
                .timeout(Duration.ofNanos(999_999)).build())
                .isInstanceOf(ReinException.class).hasMessage("tool 'slow': timeout must be at least 1 ms, was PT0.000999999S: give a Duration of at least 1 ms, or"
                        + " leave it unset for the agent's toolTimeout (30 s by default)");
        // zero and negative keep their messages
        assertThatThrownBy(() -> Agent.builder().model(ScriptedModel.of(text("a"))).toolTimeout(Duration.ZERO).build())
                .hasMessage("toolTimeout must be positive, was PT0S: give the longest one tool call may take, e.g. Duration.ofSeconds(30) (the default)");
        assertThatThrownBy(() -> Tool.builder("slow").description("Slow.").handler((a, c) -> "x")
                .timeout(Duration.ofSeconds(-1)).build()).hasMessage("tool 'slow': timeout must be positive, was PT-1S: give a Duration of at least 1 ms, or leave it unset"
                        + " for the agent's toolTimeout (30 s by default)");
        Tool.builder("slow").description("Slow.").handler((a, c) -> "x").timeout(Duration.ofMillis(1)).build();
    }

    /**
     * safety(...) replaces every safety setting: a store or approval policy given before it was dropped without a
     * word (the agent then saved to a fresh in-memory store, so its paused runs could not be resumed elsewhere). It is
     * refused now, saying what to do; the other order, and a SafetyConfig carrying the same store or policy, are fine.
     */
    @Test
    void aStoreOrApprovalPolicyGivenBeforeSafetyIsNotDroppedWithoutAWord() {
        dev.rein.state.RunStore store = new dev.rein.state.InMemoryRunStore();
        assertThatThrownBy(() -> Agent.builder().model(ScriptedModel.of(text("a"))).store(store)
                .safety(SafetyConfig.builder().strictProvenance(true).build()))
                .isInstanceOf(ReinException.class)
                .hasMessage("Agent.Builder.safety(...) would replace a store given to store(...) before it with the SafetyConfig's"
                        + " own store, and the earlier one would be lost: call safety(...) first and store(...) after it, or set"
                        + " it on the SafetyConfig (SafetyConfig.builder().store(...))");
        assertThatThrownBy(() -> Agent.builder().model(ScriptedModel.of(text("a")))
                .approvalPolicy(dev.rein.approval.ApprovalPolicy.NEVER).safety(SafetyConfig.defaults()))
                .isInstanceOf(ReinException.class).hasMessageContaining("approval policy given to approvalPolicy(...)");

        Agent after = Agent.builder().model(ScriptedModel.of(text("a"))).safety(SafetyConfig.builder().strictProvenance(true).build())
                .store(store).approvalPolicy(dev.rein.approval.ApprovalPolicy.NEVER).build();
        org.assertj.core.api.Assertions.assertThat(after.config().safety().store()).isSameAs(store);
        org.assertj.core.api.Assertions.assertThat(after.config().safety().strictProvenance()).isTrue();
        Agent same = Agent.builder().model(ScriptedModel.of(text("a"))).store(store)
                .safety(SafetyConfig.builder().store(store).strictProvenance(true).build()).build();
        org.assertj.core.api.Assertions.assertThat(same.config().safety().store()).isSameAs(store);
        // a variant of an agent shares its store unless told otherwise, and may take a safety(...) of its own
        Agent variant = same.config().toBuilder().safety(SafetyConfig.builder().approvalPolicy(dev.rein.approval.ApprovalPolicy.NEVER)
                .build()).build();
        org.assertj.core.api.Assertions.assertThat(variant.config().safety().approvalPolicy()).isEqualTo(dev.rein.approval.ApprovalPolicy.NEVER);
        org.assertj.core.api.Assertions.assertThat(same.config().toBuilder().build().config().safety().store()).isSameAs(store);
    }

    @Test
    void aVariantOfAnAgentTakesANewSafetyConfigThoughItsBuilderCarriesTheAgentsStore() {
        // toBuilder() hands the variant the agent's store, which the application did not give to store(...): a
        // variant with other safety settings is a legitimate pattern, refused since d64dcff4 as if a store given
        // before safety(...) would be lost
        dev.rein.state.RunStore store = new dev.rein.state.InMemoryRunStore();
        Agent agent = Agent.builder().model(ScriptedModel.of(text("a"))).store(store).build();
        Agent strict = agent.config().toBuilder().safety(SafetyConfig.builder().strictProvenance(true).build()).build();
        org.assertj.core.api.Assertions.assertThat(strict.config().safety().strictProvenance()).isTrue();
        Agent kept = agent.config().toBuilder().safety(SafetyConfig.builder().strictProvenance(true).build()).store(store).build();
        org.assertj.core.api.Assertions.assertThat(kept.config().safety().store()).isSameAs(store);
        // a store the application gives the variant's builder is still not dropped without a word
        dev.rein.state.RunStore other = new dev.rein.state.InMemoryRunStore();
        assertThatThrownBy(() -> agent.config().toBuilder().store(other).safety(SafetyConfig.defaults()))
                .isInstanceOf(ReinException.class).hasMessageContaining("a store given to store(...)");
    }

    @Test
    void aResumeOrReplyWithoutARunIdIsAConfigurationErrorSayingWhatToPass() {
        Agent agent = Agent.builder().model(ScriptedModel.of(text("a"))).build();
        // a programmer error, under the one root issue 2 gives them; it was the store's NullPointerException
        // ('Cannot invoke "Object.hashCode()" because "key" is null')
        String expected = "was given no run id: pass the id of a stored run (RunResult.runId(), or one of agent.runs().list())";
        assertThatThrownBy(() -> agent.resume(null)).isInstanceOf(ReinException.class).hasMessage("resume(...) " + expected);
        assertThatThrownBy(() -> agent.startResume(null)).isInstanceOf(ReinException.class).hasMessage("resume(...) " + expected);
        assertThatThrownBy(() -> agent.reply(null, "会議室Bでお願いします")).isInstanceOf(ReinException.class)
                .hasMessage("reply(...) " + expected);
        assertThatThrownBy(() -> agent.startReply(null, "はい")).isInstanceOf(ReinException.class).hasMessage("reply(...) " + expected);
    }

    @Test
    void aToolGivenANullRiskOrSchemaObjectIsRefusedNamingTheSetting() {
        // risk(null) threw the bare NullPointerException "risk"; inputSchema((ObjectNode) null) (a schema file that did
        // not load) made a tool without arguments, unseen, where inputSchema((String) null) was refused
        assertThatThrownBy(() -> Tool.builder("refund").description("Refunds.").risk(null))
                .isInstanceOf(ReinException.class)
                .hasMessage("tool 'refund': risk(...) was given null; pass Risk.READ, Risk.WRITE or Risk.IRREVERSIBLE");
        assertThatThrownBy(() -> Tool.builder("refund").description("Refunds.").inputSchema((com.fasterxml.jackson.databind.node.ObjectNode) null))
                .isInstanceOf(ReinException.class)
                .hasMessage("tool 'refund': inputSchema(...) was given null; pass the JSON schema of the input object,"
                        + " or leave it unset for a tool without arguments");
    }

    @Test
    void aToolGivenABlankResourceArgumentIsRefusedSayingWhatToPass() {
        // "" was kept: no call has an argument named "", so the edit-then-revert check and the per-resource
        // progress of that write tool were off, unseen
        for (String blank : new String[] {"", "  "}) {
            assertThatThrownBy(() -> Tool.builder("write_file").description("Writes a file.").resourceArgument(blank))
                    .isInstanceOf(ReinException.class)
                    .hasMessage("tool 'write_file': resourceArgument(...) was given a blank name; pass the name of the argument"
                            + " naming the resource the tool changes (\"path\"), or null for none");
        }
        // a name outside the schema is kept: a tool with the default (empty) schema takes any argument
        org.assertj.core.api.Assertions.assertThat(Tool.builder("write_file").description("Writes a file.").resourceArgument("path")
                .handler((a, c) -> "done").build().resourceArgument()).isEqualTo("path");
    }

    @Test
    void aSafetyConfigGivenANullPolicyOrStoreSaysWhatToPassAsTheAgentBuilderDoes() {
        // SafetyConfig.builder()'s setters threw the bare NullPointerException "policy" (the same word for all three
        // policies) or "store", where Agent.builder()'s setters of the same settings said what to pass
        assertThatThrownBy(() -> dev.rein.agent.SafetyConfig.builder().approvalPolicy(null)).isInstanceOf(ReinException.class)
                .hasMessage("approvalPolicy(...) was given null: pass an ApprovalPolicy (ApprovalPolicy.NEVER for no approvals)");
        assertThatThrownBy(() -> dev.rein.agent.SafetyConfig.builder().store(null)).isInstanceOf(ReinException.class)
                .hasMessage("store(...) was given null: pass a RunStore (new InMemoryRunStore() is the default)");
        assertThatThrownBy(() -> dev.rein.agent.SafetyConfig.builder().scopePolicy(null)).isInstanceOf(ReinException.class)
                .hasMessage("scopePolicy(...) was given null: pass a ScopePolicy (ScopePolicy.REQUIRED_SCOPES is the default)");
        assertThatThrownBy(() -> dev.rein.agent.SafetyConfig.builder().toolRetryPolicy(null)).isInstanceOf(ReinException.class)
                .hasMessage("toolRetryPolicy(...) was given null: pass a RetryPolicy (RetryPolicy.NONE for no retries;"
                        + " ToolExecutor.DEFAULT_TOOL_RETRY is the default)");
    }

    @Test
    void aScopeNamedTwiceIsOneRequiredScope() {
        // requiredScopes("orders:read", "orders:read") threw Set.of's IllegalArgumentException ("duplicate element")
        Tool tool = Tool.builder("lookup").description("Looks up.").handler((a, c) -> "x")
                .requiredScopes("orders:read", "orders:read").requiredScopes("orders:read", "注文:読む").build();
        org.assertj.core.api.Assertions.assertThat(tool.requiredScopes()).containsExactlyInAnyOrder("orders:read", "注文:読む");
    }

    @Test
    void resumingARunThatEndedAndCanTakeAReplySaysToReplyInstead() {
        ScriptedModel model = ScriptedModel.of(text("東京は晴れです"), text("大阪も晴れです"));
        Agent agent = Agent.builder().model(model).store(new dev.rein.state.InMemoryRunStore()).build();
        RunResult answered = agent.run("東京の天気は？");
        // resume is for a paused or interrupted run; an answered one goes on with a reply, which the message
        // named nowhere ('only a paused or interrupted run can be resumed')
        assertThatThrownBy(() -> agent.resume(answered.runId())).isInstanceOf(ReinException.class)
                .hasMessage("run " + answered.runId() + " already ended SUCCEEDED (completed); only a paused or interrupted run"
                        + " can be resumed. To continue it with a person's answer or a follow-up, use agent.reply(runId, text)");
        org.assertj.core.api.Assertions.assertThat(agent.reply(answered.runId(), "大阪は？").answer()).isEqualTo("大阪も晴れです");
    }

    /** An option that needs fewer tokens than the request's max tokens, as a provider's thinking budget does. */
    private record NeedsRoom(int tokens) implements dev.rein.model.ModelOption {
        @Override
        public void check(dev.rein.model.ModelRequest request) {
            if (tokens >= request.maxTokens()) {
                throw new ReinException("needs " + tokens + " below maxTokens " + request.maxTokens());
            }
        }
    }

    @Test
    void aModelOptionThatCannotWorkWithTheAgentsSettingsFailsTheBuildNotTheFirstCall() {
        ScriptedModel model = ScriptedModel.of(text("a"));
        assertThatThrownBy(() -> Agent.builder().model(model).modelOption(new NeedsRoom(10_000)).build())
                .isInstanceOf(ReinException.class).hasMessage("needs 10000 below maxTokens 8192");
        Agent.builder().model(model).maxTokens(16_000).modelOption(new NeedsRoom(10_000)).build();
        org.assertj.core.api.Assertions.assertThat(model.requests()).isEmpty();
    }

    /** An option that cannot work when earlier turns are rewritten, as preserved thinking with a budget cannot. */
    private record NeedsAppendOnlyHistory() implements dev.rein.model.ModelOption {
        @Override
        public void check(dev.rein.model.ModelRequest request) {
            request.option(dev.rein.model.RewrittenHistory.class).ifPresent(rewritten -> {
                throw new ReinException("earlier turns are rewritten by " + rewritten.causes());
            });
        }
    }

    @Test
    void anOptionCheckSeesTheRewrittenHistoryTheAgentsRequestsWillCarry() {
        // The check got the agent's options without RewrittenHistory, which AgentConfig added afterwards, so an
        // option that cannot work with a rewritten history could not refuse it when the agent was built.
        ScriptedModel model = ScriptedModel.of(text("a"));
        dev.rein.tool.ToolSource source = new dev.rein.tool.ToolSource() {
            @Override
            public long version() {
                return 1;
            }

            @Override
            public java.util.List<Tool> tools() {
                return java.util.List.of(TestTools.echo());
            }
        };
        assertThatThrownBy(() -> Agent.builder().model(model).modelOption(new NeedsAppendOnlyHistory())
                .stateInPrompt(dev.rein.context.StateInPrompt.STATE_ONLY).toolSource(source).build())
                .isInstanceOf(ReinException.class).hasMessage("earlier turns are rewritten by [state_in_prompt, tool_sources]");
        // the requests carry what the check saw; an agent that only appends carries none
        Agent rewriting = Agent.builder().model(model).stateInPrompt(dev.rein.context.StateInPrompt.STATE_ONLY).build();
        org.assertj.core.api.Assertions.assertThat(rewriting.config().requestOptions().get(dev.rein.model.RewrittenHistory.class))
                .contains(new dev.rein.model.RewrittenHistory(java.util.List.of("state_in_prompt")));
        Agent appending = Agent.builder().model(model).modelOption(new NeedsAppendOnlyHistory()).build();
        org.assertj.core.api.Assertions.assertThat(appending.config().requestOptions().get(dev.rein.model.RewrittenHistory.class)).isEmpty();
    }

    /**
     * A tool named in client-side ClearToolResults.excluding that the agent does not have (a misspelt name, or
     * "memory" for the memory tools remember/recall) would never protect anything, so it is refused
     * when the agent is built, naming it and the agent's tools, as a toolCallLimit's is (7fc8b9b3).
     */
    @Test
    void aClearingExclusionNamingAToolTheAgentDoesNotHaveIsRefused() {
        Tool notes = Tool.builder("notes").description("Notes.").handler((args, ctx) -> "n").build();
        for (dev.rein.context.ClearToolResults clearing : new dev.rein.context.ClearToolResults[] {
                dev.rein.context.ClearToolResults.client(1_000, 1).excluding("memory"),
                dev.rein.context.ClearToolResults.client(1_000, 1).excluding("notes", "memory")}) {
            assertThatThrownBy(() -> Agent.builder().model(ScriptedModel.of(text("x"))).tools(notes)
                    .contextPolicy(dev.rein.context.ContextPolicy.builder().clearToolResults(clearing).build()).build())
                    .isInstanceOf(ReinException.class).hasMessageContaining("excluding").hasMessageContaining("'memory'")
                    .hasMessageContaining("its tools are: notes");
        }
        Agent.builder().model(ScriptedModel.of(text("x"))).tools(notes).contextPolicy(dev.rein.context.ContextPolicy.builder()
                .clearToolResults(dev.rein.context.ClearToolResults.client(1_000, 1).excluding("notes")).build()).build();
        // server-side clearing may name one of the provider's own server tools, which are no tools of the agent
        Agent.builder().model(ScriptedModel.of(text("x"))).tools(notes).contextPolicy(dev.rein.context.ContextPolicy.builder()
                .clearToolResults(dev.rein.context.ClearToolResults.server(50_000, 1).excluding("web_search")).build()).build();
    }

    @Test
    void anApprovalPolicyNamingAToolTheAgentDoesNotHaveIsRefused() {
        // ApprovalPolicy.tools holds only the tools it names: a misspelt name would let the real tool run unapproved
        Tool send = Tool.builder("send_message").description("Sends.").risk(dev.rein.tool.Risk.IRREVERSIBLE)
                .handler((args, ctx) -> "sent").build();
        for (dev.rein.approval.ApprovalPolicy policy : new dev.rein.approval.ApprovalPolicy[] {
                dev.rein.approval.ApprovalPolicy.tools("send_mesage"),
                dev.rein.approval.ApprovalPolicy.tools("send_message", "send_mesage"),
                dev.rein.approval.ApprovalPolicy.IRREVERSIBLE_ONLY.or(dev.rein.approval.ApprovalPolicy.tools("send_mesage"))}) {
            assertThatThrownBy(() -> Agent.builder().model(ScriptedModel.of(text("x"))).tools(send).approvalPolicy(policy).build())
                    .isInstanceOf(ReinException.class).hasMessageContaining("approval policy").hasMessageContaining("'send_mesage'")
                    .hasMessageContaining("its tools are: send_message");
        }
        Agent.builder().model(ScriptedModel.of(text("x"))).tools(send)
                .approvalPolicy(dev.rein.approval.ApprovalPolicy.tools("send_message", "send_message")).build();
    }

    @Test
    void aDomainAllowlistGuardNamingAToolTheAgentDoesNotHaveIsRefused() {
        // docs/safety.md: the guard refuses a model-proposed URL outside the list; under a misspelt tool name it checked none
        Tool fetch = Tool.builder("fetch_page").description("Fetches.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"url\":{\"type\":\"string\"}}}")
                .handler((args, ctx) -> "page").build();
        dev.rein.security.DomainAllowlist allowlist = dev.rein.security.DomainAllowlist.of("docs.example.com");
        assertThatThrownBy(() -> Agent.builder().model(ScriptedModel.of(text("x"))).tools(fetch)
                .toolInterceptor(allowlist.guard("fetch", "url")).build())
                .isInstanceOf(ReinException.class).hasMessageContaining("domain allowlist guard").hasMessageContaining("'fetch'")
                .hasMessageContaining("its tools are: fetch_page");
        Agent.builder().model(ScriptedModel.of(text("x"))).tools(fetch).toolInterceptor(allowlist.guard("fetch_page", "url")).build();
    }

    /** 'the model name is empty' said what was wrong, not what to give. */
    @Test
    void anEmptyModelNameSaysWhatToGive() {
        assertThatThrownBy(() -> Agent.builder().model(ScriptedModel.of(text("a"))).modelName(" ").build())
                .isInstanceOf(ReinException.class).hasMessage("the model name is empty: give the name its provider knows the"
                        + " model by, as in modelName(...)");
    }
}
