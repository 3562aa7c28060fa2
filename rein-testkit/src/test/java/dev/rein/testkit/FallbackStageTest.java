package dev.rein.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.model.ModelException;
import dev.rein.run.RunStatus;
import dev.rein.trace.TraceEvent;
import org.junit.jupiter.api.Test;

/** The kit's fallback stage moves a call on as an application's does, and ends it with the failure it was told to. */
class FallbackStageTest {
    private static ScriptedModel.Turn failing(String message) {
        // not retryable: the retry stage below would try the same model again first
        return ScriptedModel.fail(new ModelException(ModelException.Kind.SERVER_ERROR, 500, message, false, null, null, null,
                null));
    }

    @Test
    void aFailedAttemptMovesTheCallToTheBackupModel() {
        RecordingListener trace = new RecordingListener();
        RunResult result = Agent.builder().model(ScriptedModel.of(failing("down"), ScriptedModel.text("Hi.")))
                .budget(dev.rein.budget.Budget.builder().maxCostUsd((java.math.BigDecimal) null).build())
                .listener(trace).modelInterceptor(FallbackStage.toModel("backup")).build().run("say hi");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(trace.events(TraceEvent.ModelFallback.class)).singleElement()
                .satisfies(f -> assertThat(f.toModel()).isEqualTo("backup"));
    }

    @Test
    void everyAttemptFailedEndsWithTheLastFailureOrTheFirst() {
        RunResult last = Agent.builder().model(ScriptedModel.of(failing("primary down"), failing("backup down")))
                .budget(dev.rein.budget.Budget.builder().maxCostUsd((java.math.BigDecimal) null).build())
                .modelInterceptor(FallbackStage.toModel("backup")).build().run("say hi");
        RunResult firstFailure = Agent.builder().model(ScriptedModel.of(failing("primary down"), failing("backup down")))
                .budget(dev.rein.budget.Budget.builder().maxCostUsd((java.math.BigDecimal) null).build())
                .modelInterceptor(FallbackStage.toModel("backup").endingWithFirstFailure()).build().run("say hi");

        assertThat(last.message()).endsWith("backup down");
        assertThat(firstFailure.message()).endsWith("primary down");
    }

    /**
     * One failure instance failing every attempt ends the call with it, and is not changed for the next run: the stage
     * added each later failure to the first's suppressed ones, which threw "Self-suppression not permitted" for the same
     * instance and piled up on a script's shared one.
     */
    @Test
    void theSameFailureFailingEveryAttemptEndsTheCallWithItUnchanged() {
        ModelException down = new ModelException(ModelException.Kind.SERVER_ERROR, 500, "down", false, null, null, null,
                null);
        for (int run = 0; run < 2; run++) {
            RunResult result = Agent.builder().model(ScriptedModel.of(ScriptedModel.fail(down), ScriptedModel.fail(down)))
                    .budget(dev.rein.budget.Budget.builder().maxCostUsd((java.math.BigDecimal) null).build())
                    .modelInterceptor(FallbackStage.toModel("backup").endingWithFirstFailure()).build().run("say hi");

            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.message()).endsWith("down").doesNotContain("uppression");
        }
        assertThat(down.getSuppressed()).isEmpty();
    }

    @Test
    void aStageWithoutAMoveIsRefused() {
        assertThatThrownBy(FallbackStage::of).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one move");
    }
}
