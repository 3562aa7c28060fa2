package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.ModelPrice;
import dev.rein.model.Model;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.Usage;
import dev.rein.provider.ForwardingModel;
import dev.rein.run.RunStatus;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The stages between the loop and the model: only those that do something for the agent's configuration are on the
 * stack while the model answers (the stack a run parks with while it waits for the provider).
 */
class ModelChainStagesTest {
    private static final String AROUND = "dev.rein.internal.model.AroundModelStage$Bound"; // bound to the stage after it

    private static List<String> framesSeenByTheModel(Agent.Builder builder, List<String> seen) {
        // Ends on interrupt, as the providers' models do, so it is called on the run's thread, under every stage.
        Model model = new Model() {
            @Override
            public ModelResponse call(ModelRequest request, ModelCallContext context) {
                seen.addAll(StackWalker.getInstance().walk(frames -> frames.map(StackWalker.StackFrame::getClassName).toList()));
                return new ModelResponse("r", "m", List.of(new TextBlock("done")), StopReason.END_TURN, null, Usage.of(1, 1, 0, 0));
            }

            @Override
            public boolean abortsOnInterrupt() {
                return true;
            }
        };
        RunResult result = builder.model(model).modelName("m").price("m", ModelPrice.of("1", "0", "1")).build().run("go");
        assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
        return seen;
    }

    @Test
    void withoutModelInterceptorsNoAroundModelStageIsOnTheStack() {
        List<String> frames = framesSeenByTheModel(Agent.builder(), new CopyOnWriteArrayList<>());

        assertThat(frames).contains("dev.rein.internal.model.DeadlineStage$Bound", "dev.rein.agent.AgentLoop").doesNotContain(AROUND);
    }

    @Test
    void anInterceptorsAroundModelStillWrapsTheModel() {
        List<String> seen = new CopyOnWriteArrayList<>();
        ModelInterceptor wrapping = new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                return chain.proceed(call);
            }

            @Override
            public Model aroundModel(ModelCall call) {
                return new ForwardingModel(call.model()) {
                    @Override
                    public ModelResponse call(ModelRequest request, ModelCallContext context)
                            throws ModelException, InterruptedException {
                        seen.add("wrapper");
                        return super.call(request, context);
                    }
                };
            }
        };
        List<String> frames = framesSeenByTheModel(Agent.builder().modelInterceptor(wrapping), seen);

        assertThat(frames).contains("wrapper", AROUND);
    }
}
