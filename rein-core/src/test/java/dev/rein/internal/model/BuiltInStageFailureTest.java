package dev.rein.internal.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.budget.Budget;
import dev.rein.budget.BudgetMeter;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.model.Message;
import dev.rein.model.Model;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.Usage;
import dev.rein.trace.TraceEvent;
import dev.rein.trace.Tracer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** A built-in stage below the tracing stage that throws: the call's model_failed is traced and the stage named (rev110). */
class BuiltInStageFailureTest {
    private final List<TraceEvent> events = new CopyOnWriteArrayList<>();
    private final Tracer tracer = new Tracer() {
        public String runId() { return "r"; }
        public int step() { return 1; }
        public Instant now() { return Instant.now(); }
        public void emit(TraceEvent e) { events.add(e); }
    };

    @Test
    void aBuiltInStageThatThrowsBelowTracingIsTracedAndNamed() {
        BudgetMeter meter = new BudgetMeter(Budget.builder().maxDuration(Duration.ofMinutes(1)).build(),
                PriceTable.empty().with("main", ModelPrice.of("1", "0", "0")), "main", Clock.systemUTC(), Instant.now());
        Model model = new Model() {
            public ModelResponse call(ModelRequest r, dev.rein.model.ModelCallContext c) {
                return new ModelResponse("r", r.model(), List.of(new TextBlock("ok")), StopReason.END_TURN, null, Usage.of(1, 0, 0, 0));
            }
            public long countTokens(ModelRequest r) { return 1; }
        };
        ModelChain chain = new ModelChain(List.of(new TracingStage(tracer, meter),
                new MaskingStage(b -> { throw new IllegalStateException("mask bug"); }), ModelChain.MODEL));
        ModelRequest req = ModelRequest.builder("main").maxTokens(10).addMessage(Message.user("hi")).build();
        assertThatThrownBy(() -> chain.call(new ModelCall(model, req, "step", ModelCallContext.until(Instant.now().plusSeconds(60)))))
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("model-call stage secret masking threw java.lang.IllegalStateException: mask bug");
        assertThat(events).map(e -> e.getClass().getSimpleName()).containsExactly("ModelRequested", "ModelFailed");
        TraceEvent.ModelFailed failed = (TraceEvent.ModelFailed) events.get(1);
        assertThat(failed.errorKind()).isEqualTo(TracingStage.STAGE_FAILED);
        assertThat(failed.message()).startsWith("model-call stage secret masking threw");
    }

    private BudgetMeter meter() {
        return new BudgetMeter(Budget.builder().maxDuration(Duration.ofMinutes(1)).build(),
                PriceTable.empty().with("main", ModelPrice.of("1", "0", "0")), "main", Clock.systemUTC(), Instant.now());
    }

    private static ModelCall call() {
        Model model = new Model() {
            public ModelResponse call(ModelRequest r, dev.rein.model.ModelCallContext c) {
                return new ModelResponse("r", r.model(), List.of(new TextBlock("ok")), StopReason.END_TURN, null, Usage.of(1, 0, 0, 0));
            }
            public long countTokens(ModelRequest r) { return 1; }
        };
        ModelRequest req = ModelRequest.builder("main").maxTokens(10).addMessage(Message.user("hi")).build();
        return new ModelCall(model, req, "step", ModelCallContext.until(Instant.now().plusSeconds(60)));
    }

    /**
     * An exception with no stack trace (the JIT's fast-throw NullPointerException once -XX:-OmitStackTraceInFastThrow is
     * off) shows no stage that threw it: the message says it was one of the run's stages (the model's own, which answers
     * every failure of its client, left out), not the first of them as if that were known.
     */
    @Test
    void aBuiltInStageThrowingWithoutAStackTraceIsOneOfTheRunNotItsFirst() {
        IllegalStateException noTrace = new IllegalStateException("mask bug");
        noTrace.setStackTrace(new StackTraceElement[0]);
        BudgetMeter meter = meter();
        ModelChain chain = new ModelChain(List.of(new TracingStage(tracer, meter), new MaskingStage(b -> { throw noTrace; }),
                new PricingStage(meter, "main", PriceTable.empty().with("main", ModelPrice.of("1", "0", "0"))), ModelChain.MODEL));
        assertThatThrownBy(() -> chain.call(call()))
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("one of the model-call stages secret masking, pricing threw java.lang.IllegalStateException: mask bug");
    }

    /** Two stages of one class in one run: their frames do not say which of them threw, so the message does not either. */
    @Test
    void aBuiltInStageOfAClassTheRunHoldsTwiceIsNotNamedAsTheEarlier() {
        ModelChain chain = new ModelChain(List.of(new TracingStage(tracer, meter()), new MaskingStage(b -> b),
                new MaskingStage(b -> { throw new IllegalStateException("mask bug"); }), ModelChain.MODEL));
        assertThatThrownBy(() -> chain.call(call()))
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("one of the 2 secret masking stages threw java.lang.IllegalStateException: mask bug");
    }

    /** A list that holds a class twice and another stage says so, not only the class's name once. */
    @Test
    void aListHoldingAClassTwiceSaysHowManyOfIt() {
        IllegalStateException noTrace = new IllegalStateException("mask bug");
        noTrace.setStackTrace(new StackTraceElement[0]);
        BudgetMeter meter = meter();
        ModelChain chain = new ModelChain(List.of(new TracingStage(tracer, meter), new MaskingStage(b -> b),
                new MaskingStage(b -> { throw noTrace; }),
                new PricingStage(meter, "main", PriceTable.empty().with("main", ModelPrice.of("1", "0", "0"))), ModelChain.MODEL));
        assertThatThrownBy(() -> chain.call(call()))
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("one of the model-call stages secret masking (2 of them), pricing threw"
                        + " java.lang.IllegalStateException: mask bug");
    }
}
