package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.rein.budget.Budget;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.model.Model;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.Usage;
import dev.rein.run.NextStep;
import dev.rein.run.Reason;
import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.testkit.RecordingListener;
import dev.rein.trace.TraceEvent;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A setting that cannot work, found during the run, ends it {@code FAILED/configuration_error} (before: {@code internal_error},
 * the reason of a bug); and a reason name this version does not know is read, not refused.
 */
class ConfigurationErrorTest {
    private static final Model MODEL = (request, context) -> new ModelResponse("r", request.model(),
            List.of(new TextBlock("from " + request.model())), StopReason.END_TURN, null, Usage.of(1_000, 0, 0, 0));

    /** A fallback stage that sends every call to {@code backup}, a model without a price. */
    private static final ModelInterceptor FALLBACK = new ModelInterceptor() {
        @Override
        public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
            return chain.proceed(call.withRequest(call.request().withModel("backup")));
        }

        @Override
        public String toString() {
            return "fallback";
        }
    };

    private static Agent.Builder priced() {
        return Agent.builder().model(MODEL).modelName("main").prices(PriceTable.empty().with("main", ModelPrice.of("1", "0", "0")))
                .modelInterceptor(FALLBACK);
    }

    @Test
    void anUnpricedModelAStageChoseUnderTheRunsMoneyLimitEndsTheRunAsAConfigurationError() {
        RecordingListener listener = new RecordingListener();
        RunResult result = priced().budget(Budget.builder().maxCostUsd("0.50").build()).listener(listener).build().run("go");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo(Reasons.CONFIGURATION_ERROR);
        assertThat(result.reasonCode()).isEqualTo(Reason.CONFIGURATION_ERROR);
        assertThat(result.message()).startsWith("no price is known for model 'backup', which a model-call stage chose");
        assertThat(result.answer()).contains("the agent's configuration could not carry the run on").doesNotContain("internal error");
        assertThat(listener.events(TraceEvent.RunFinished.class)).singleElement()
                .satisfies(e -> assertThat(e.reason()).isEqualTo("configuration_error"));
    }

    @Test
    void anUnpricedModelAStageChoseUnderTheConversationsMoneyLimitEndsTheRunAsAConfigurationError() {
        RunResult result = priced().budget(Budget.builder().maxCostUsd((BigDecimal) null).build())
                .conversationBudget(Budget.builder().maxCostUsd("2").build()).build().run("go");

        assertThat(result.reason()).as(result.message()).isEqualTo(Reasons.CONFIGURATION_ERROR);
        assertThat(result.message()).contains("the conversation budget's USD 2 limit");
    }

    @Test
    void aReasonNameFromANewerVersionIsReadAsTheDocumentedFallbackNotRefused() throws Exception {
        assertThat(Reason.of("configuration_error")).isEqualTo(Reason.CONFIGURATION_ERROR);
        assertThat(Reason.of("a_reason_from_tomorrow")).isEqualTo(Reason.INTERNAL_ERROR);
        assertThat(Reason.known("a_reason_from_tomorrow")).isFalse();
        assertThat(Reason.known(null)).isFalse();
        assertThat(new ObjectMapper().readValue("\"a_reason_from_tomorrow\"", Reason.class)).isEqualTo(Reason.INTERNAL_ERROR);

        RunResult result = new RunResult("r1", RunStatus.FAILED, "a_reason_from_tomorrow", "m", "", 0, Usage.ZERO,
                BigDecimal.ZERO, java.time.Duration.ZERO, null, List.of());
        assertThat(result.reasonCode()).isEqualTo(Reason.INTERNAL_ERROR);
        assertThat(result.reason()).as("the name as written is kept").isEqualTo("a_reason_from_tomorrow");
    }

    @Test
    void aStopWithAReasonFromANewerWriterEndsTheRunKeepingItsNameInTheMessage() {
        DrivenRun.Next next = new DrivenRun.Next("stop", RunStatus.FAILED, "a_reason_from_tomorrow", "it stopped", "", null, null);
        NextStep.Stop stop = (NextStep.Stop) next.toNextStep();
        assertThat(stop.reason()).isEqualTo(Reason.INTERNAL_ERROR);
        assertThat(stop.message()).isEqualTo("it stopped (reason 'a_reason_from_tomorrow', which this version of Rein does not know)");

        NextStep.Stop known = (NextStep.Stop) new DrivenRun.Next("stop", RunStatus.FAILED, "configuration_error", "m", "", null,
                null).toNextStep();
        assertThat(known.reason()).isEqualTo(Reason.CONFIGURATION_ERROR);
        assertThat(known.message()).isEqualTo("m");
    }
}
