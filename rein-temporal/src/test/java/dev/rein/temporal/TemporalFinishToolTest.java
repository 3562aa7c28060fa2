package dev.rein.temporal;

import static dev.rein.temporal.SameAsLocal.assertSameAsLocal;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.temporal.SameAsLocal.Also;
import dev.rein.temporal.SameAsLocal.Ran;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.TraceEvent;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An agent with Rein's finish tool ends on Temporal as it ends locally: a completed, failed or needs_user_input report,
 * and finish arguments its schema refuses until the refusals run out (ReinPlanTools decides a lone finish call); and a
 * response's stop reason ends a run (or lets it go on) as locally.
 */
class TemporalFinishToolTest {
    private static Supplier<ScriptedModel> script(String outcome) {
        String finish = switch (outcome) {
            case "completed" -> "{\"status\":\"completed\",\"summary\":\"A-1 を調べた\",\"result\":\"A-1 は配達済みです。\"}";
            case "failed" -> "{\"status\":\"failed\",\"summary\":\"注文が見つからない\",\"result\":\"\"}";
            case "needs_user_input" -> "{\"status\":\"needs_user_input\",\"summary\":\"どの注文ですか\",\"result\":\"注文番号を教えてください\"}";
            default -> "{\"status\":\"completed\"}"; // invalid: summary and result missing
        };
        // the finish call repeated past the step limit (8): a model that keeps sending arguments its schema refuses
        java.util.List<ScriptedModel.Turn> turns = new java.util.ArrayList<>();
        turns.add(ScriptedModel.toolCalls(ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}")));
        for (int i = 0; i < 9; i++) {
            turns.add(ScriptedModel.toolCalls(ScriptedModel.call("finish", finish)));
        }
        return () -> ScriptedModel.of(turns);
    }

    private static ScriptedModel stopping(String stop) {
        dev.rein.model.Usage usage = ScriptedModel.DEFAULT_USAGE;
        ScriptedModel.Turn turn = switch (stop) {
            case "empty" -> ScriptedModel.text("");
            default -> ScriptedModel.reply(dev.rein.model.StopReason.valueOf(stop), usage,
                    new dev.rein.model.TextBlock(stop.equals("REFUSAL") ? "" : "途中までの答え"));
        };
        return ScriptedModel.of(turn, turn, turn, turn, ScriptedModel.text("最後の答え"));
    }

    /** Each stop reason a response can have ends the run, or goes on, as locally (probe). */
    @ParameterizedTest
    @ValueSource(strings = {"REFUSAL", "MAX_TOKENS", "PAUSE_TURN", "MODEL_CONTEXT_WINDOW_EXCEEDED", "STOP_SEQUENCE", "UNKNOWN", "empty"})
    void aResponsesStopReasonEndsTheRunAsLocally(String stop) {
        Ran remote = assertSameAsLocal(trace -> Orders.agent(stopping(stop), trace, Orders.lookup()).build(), "A-1 の状況は?",
                "run-stop-" + stop.toLowerCase().replace('_', '-'), Also.MESSAGE, Also.USAGE, Also.COST);
        assertThat(remote.trace().events(TraceEvent.RunFinished.class)).singleElement();
    }

    /**
     * A finish call whose arguments its schema refuses counts with the refusals of an answer, as locally: the run ends
     * FAILED invalid_output once maxVerificationFailures are used up. ReinPlanTools counted each refusal from the
     * workflow's count, which never took it up, so the model was refused again and again until the step limit.
     */
    @org.junit.jupiter.api.Test
    void aFinishCallItsSchemaRefusesCountsWithTheRefusalsAsLocally() {
        aFinishCallEndsTheRunAsLocally("invalid");
    }

    /**
     * A finish report a verifier refuses goes back to the model as the finish call's result, and a refusal of the finish
     * arguments and one of a verifier count together toward maxVerificationFailures, as locally (probe).
     */
    @ParameterizedTest
    @ValueSource(strings = {"refusedOnceThenAccepted", "schemaThenVerifier"})
    void aFinishReportAVerifierRefusesGoesOnAsLocally(String script) {
        String good = "{\"status\":\"completed\",\"summary\":\"A-1 を調べた\",\"result\":\"A-1 は配達済みです。\"}";
        String bad = "{\"status\":\"completed\"}";
        Supplier<ScriptedModel> model = () -> ScriptedModel.of(
                ScriptedModel.toolCalls(ScriptedModel.call("finish", script.equals("schemaThenVerifier") ? bad : good)),
                ScriptedModel.toolCalls(ScriptedModel.call("finish", good)),
                ScriptedModel.toolCalls(ScriptedModel.call("finish", good)),
                ScriptedModel.toolCalls(ScriptedModel.call("finish", good)));
        Supplier<dev.rein.run.Verifier> verifier = () -> {
            java.util.concurrent.atomic.AtomicInteger checks = new java.util.concurrent.atomic.AtomicInteger();
            return answer -> checks.incrementAndGet() == 1 ? dev.rein.run.Verdict.fail("配達日を書くこと")
                    : dev.rein.run.Verdict.pass();
        };
        assertSameAsLocal(trace -> Orders.agent(model.get(), trace, Orders.lookup()).finishTool(true).verifier(verifier.get())
                .build(), "A-1 の状況は?", "run-finish-verified-" + script, Also.MESSAGE, Also.HISTORY);
    }

    /** A completed, failed or needs_user_input report ends the run as locally (probe). */
    @ParameterizedTest
    @ValueSource(strings = {"completed", "failed", "needs_user_input"})
    void aFinishCallEndsTheRunAsLocally(String outcome) {
        Ran remote = assertSameAsLocal(trace -> Orders.agent(script(outcome).get(), trace, Orders.lookup()).finishTool(true)
                .build(), "A-1 の状況は?", "run-finish-" + outcome.replace('_', '-'), Also.MESSAGE, Also.FINISH, Also.HANDOFF);
        assertThat(remote.trace().events(TraceEvent.RunFinished.class)).singleElement();
    }
}
