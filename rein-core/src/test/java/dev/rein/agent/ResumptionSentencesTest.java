package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.ReinException;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import org.junit.jupiter.api.Test;

/**
 * The note that a refused resume did not apply the decisions follows the refusal as one sentence follows another, and
 * keeps the refusal's kind ({@link Resumption#notApplied}).
 */
class ResumptionSentencesTest {
    private static final String NOTE = "The decisions taken on its pause (refund) were not applied: the run ends without them";

    @Test
    void aMessageEndingASentenceGetsNoSecondFullStop() {
        assertThat(Resumption.sentences("the exporter is not configured.", NOTE))
                .isEqualTo("the exporter is not configured. " + NOTE);
        assertThat(Resumption.sentences("set REIN_EXPORTER first!", NOTE)).isEqualTo("set REIN_EXPORTER first! " + NOTE);
        assertThat(Resumption.sentences("is the exporter configured?  ", NOTE)).isEqualTo("is the exporter configured? " + NOTE);
        assertThat(Resumption.sentences("エクスポーターが未設定です。", NOTE)).isEqualTo("エクスポーターが未設定です。 " + NOTE);
    }

    @Test
    void aMessageWithoutAnEndGetsOneAndNoMessageNone() {
        assertThat(Resumption.sentences("the exporter is not configured", NOTE))
                .isEqualTo("the exporter is not configured. " + NOTE);
        assertThat(Resumption.sentences(null, NOTE)).isEqualTo(NOTE);
        assertThat(Resumption.sentences(" ", NOTE)).isEqualTo(NOTE);
    }

    /** rev113: a sentence ended inside closing quotes or brackets is ended too: no ". " after it. */
    @Test
    void aSentenceEndedInsideClosingQuotesOrBracketsGetsNoSecondFullStop() {
        assertThat(Resumption.sentences("the exporter said \"stop.\"", NOTE)).isEqualTo("the exporter said \"stop.\" " + NOTE);
        assertThat(Resumption.sentences("configure it (see docs.)", NOTE)).isEqualTo("configure it (see docs.) " + NOTE);
        assertThat(Resumption.sentences("it said \u201cwait!\u201d", NOTE)).isEqualTo("it said \u201cwait!\u201d " + NOTE);
        assertThat(Resumption.sentences("「設定してください。」", NOTE)).isEqualTo("「設定してください。」 " + NOTE);
        assertThat(Resumption.sentences("['a', 'b']", NOTE)).isEqualTo("['a', 'b']. " + NOTE);
        assertThat(Resumption.sentences("(see the docs)", NOTE)).isEqualTo("(see the docs). " + NOTE);
    }

    /**
     * rev113: a refusal that is not a ReinException (a bug: a listener factory's IllegalStateException) becomes a
     * ReinException saying "internal error" and the decisions not applied, its cause kept; with no decisions taken the
     * refusal is handed back as it is.
     */
    @Test
    void aRefusalThatIsNoReinExceptionBecomesAnInternalErrorSayingTheDecisions() {
        InMemoryRunStore store = new InMemoryRunStore();
        Tool refund = Tool.builder("refund").description("Refunds.").risk(Risk.WRITE).handler((args, ctx) -> "refunded").build();
        Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("refund", "{}")), text("done"))).tools(refund)
                .approvalPolicy(ApprovalPolicy.SIDE_EFFECTS).store(store).build();
        RunResult paused = agent.run("refund it");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        IllegalStateException bug = new IllegalStateException("the listener factory failed.");
        assertThat(Resumption.notApplied(bug, store.load(paused.runId()).orElseThrow(), "the run ends without them"))
                .isSameAs(bug);

        agent.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "alice");
        RuntimeException said = Resumption.notApplied(bug, store.load(paused.runId()).orElseThrow(), "the run ends without them");

        assertThat(said).isExactlyInstanceOf(ReinException.class).hasCause(bug)
                .hasMessage("internal error: java.lang.IllegalStateException: the listener factory failed. The decisions taken"
                        + " on its pause (refund) were not applied: the run ends without them");
    }
}
