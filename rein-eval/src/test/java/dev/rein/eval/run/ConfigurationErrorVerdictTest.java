package dev.rein.eval.run;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.budget.Budget;
import dev.rein.eval.AgentFactory;
import dev.rein.eval.Expect;
import dev.rein.eval.FailureKind;
import dev.rein.eval.Suite;
import dev.rein.eval.Task;
import dev.rein.eval.env.FileTreeEnvironment;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelResponse;
import dev.rein.run.Reasons;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A run ended by the agent's setup (configuration_error) says nothing about the agent: an infrastructure error, as internal_error. */
class ConfigurationErrorVerdictTest {
    @Test
    void aRunEndedByAConfigurationErrorIsAnInfrastructureErrorNotTheAgentsFailure() throws Exception {
        ModelInterceptor unpricedFallback = new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                return chain.proceed(call.withRequest(call.request().withModel("unpriced-backup")));
            }
        };
        AgentFactory<FileTreeEnvironment> agent = (env, model) -> Agent.builder().model(model.model()).modelName(model.name())
                .budget(Budget.builder().maxCostUsd("1").build()).modelInterceptor(unpricedFallback).build();
        Suite suite = Suite.builder("setup")
                .task(Task.builder("fallback-unpriced", () -> new FileTreeEnvironment(Map.of())).goal("Say hi").agent(agent)
                        .script(text("hi")).build())
                .build();

        TrialOutcome trial = EvalRunner.builder().trials(1).build().run(suite).trialsOf("fallback-unpriced").get(0);

        assertThat(trial.reason()).isEqualTo(Reasons.CONFIGURATION_ERROR);
        assertThat(trial.verdict()).isEqualTo(Verdict.INFRA_ERROR);
        assertThat(trial.infraError()).startsWith("configuration_error: no price is known for model 'unpriced-backup'");
    }

    @Test
    void anUnexpectedConfigurationErrorIsAnErrorKindOfFailure() {
        dev.rein.agent.RunResult result = new dev.rein.agent.RunResult("r", dev.rein.run.RunStatus.FAILED,
                Reasons.CONFIGURATION_ERROR, "no price", "", 0, dev.rein.model.Usage.ZERO, java.math.BigDecimal.ZERO,
                java.time.Duration.ZERO, null, java.util.List.of());
        assertThat(Expect.kindOf(result)).isEqualTo(FailureKind.ERROR);
    }
}
