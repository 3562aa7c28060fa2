package dev.rein.provider;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.ParallelToolCalls;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class OptionedModelTest {
    private final List<ModelRequest> seen = new ArrayList<>();
    private final AtomicBoolean closed = new AtomicBoolean();

    private final class Recording implements Model, AutoCloseable {
        @Override
        public ModelResponse call(ModelRequest request, ModelCallContext context) {
            seen.add(request);
            return null;
        }

        @Override
        public long countTokens(ModelRequest request) {
            seen.add(request);
            return 7;
        }

        @Override
        public boolean abortsOnInterrupt() {
            return true;
        }

        @Override
        public void close() {
            closed.set(true);
        }
    }

    @Test
    void everyCallAndCountWithoutAnOptionOfTheirTypeGetsTheOptions() throws Exception {
        Model model = OptionedModel.of(new Recording(), List.of(ParallelToolCalls.DISABLED));
        model.call(ModelRequest.builder("m").build(), null);
        assertThat(model.countTokens(ModelRequest.builder("m").build())).isEqualTo(7);
        assertThat(seen).hasSize(2).allSatisfy(request ->
                assertThat(request.option(ParallelToolCalls.class)).contains(ParallelToolCalls.DISABLED));
        assertThat(model.abortsOnInterrupt()).isTrue();
        ((AutoCloseable) model).close();
        assertThat(closed).isTrue();
    }

    /**
     * A request's own option of their type wins: a stage or interceptor that switched it with the model (as a refusal
     * advises: request.withModel(...).withOption(...)) keeps its choice below the stages.
     */
    @Test
    void aRequestsOwnOptionOfTheirTypeIsKeptForCallsAndCounts() throws Exception {
        Model model = OptionedModel.of(new Recording(), List.of(ParallelToolCalls.DISABLED));
        ModelRequest own = ModelRequest.builder("m").option(new ParallelToolCalls(true)).build();
        model.call(own, null);
        model.countTokens(own);
        assertThat(seen).hasSize(2).allSatisfy(request ->
                assertThat(request.option(ParallelToolCalls.class)).contains(new ParallelToolCalls(true)));
    }

    /** Through a run: an interceptor that switches the option for one step is what the model gets. */
    @Test
    void anInterceptorsSwitchOfTheOptionReachesTheModelInARun() {
        List<ModelRequest> sent = new java.util.concurrent.CopyOnWriteArrayList<>();
        Model answering = (request, context) -> {
            sent.add(request);
            return new ModelResponse("r", request.model(), List.of(new dev.rein.model.TextBlock("done")),
                    dev.rein.model.StopReason.END_TURN, null, dev.rein.model.Usage.of(1, 1, 0, 0));
        };
        dev.rein.model.ModelInterceptor switching = (call, chain) -> chain.proceed(call.withRequest(
                call.request().withModel("other").withOption(new ParallelToolCalls(true))));
        dev.rein.agent.RunResult result = dev.rein.agent.Agent.builder()
                .model(OptionedModel.of(answering, List.of(ParallelToolCalls.DISABLED))).modelName("m")
                .price("m", dev.rein.budget.ModelPrice.of("0", "0", "0"))
                .price("other", dev.rein.budget.ModelPrice.of("0", "0", "0"))
                .modelInterceptor(switching).build().run("go");
        assertThat(result.status()).isEqualTo(dev.rein.run.RunStatus.SUCCEEDED);
        assertThat(sent).isNotEmpty().allSatisfy(request -> {
            assertThat(request.model()).isEqualTo("other");
            assertThat(request.option(ParallelToolCalls.class)).contains(new ParallelToolCalls(true));
        });
    }

    /**
     * An agent built with it takes the options as its own request options, replacing its own of their type, so what its
     * run traces and stores as the request is what is sent (they were added only below the tracing stage).
     */
    @Test
    void anAgentBuiltWithItHasTheOptionsAmongItsRequestOptions() {
        Model model = OptionedModel.of(new Recording(), List.of(ParallelToolCalls.DISABLED));
        dev.rein.agent.Agent agent = dev.rein.agent.Agent.builder().model(model).modelName("m")
                .price("m", dev.rein.budget.ModelPrice.of("0", "0", "0")).modelOption(new ParallelToolCalls(true)).build();
        assertThat(agent.config().requestOptions().get(ParallelToolCalls.class)).contains(ParallelToolCalls.DISABLED);
    }

    @Test
    void withoutOptionsTheModelIsItself() {
        Model model = new Recording();
        assertThat(OptionedModel.of(model, List.of())).isSameAs(model);
    }
}
