package dev.rein;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.agent.Agent;
import dev.rein.budget.ModelPrice;
import dev.rein.model.ModelIds;
import dev.rein.model.OutputSchema;
import dev.rein.provider.ProviderConfig;
import java.util.HashMap;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** Public entry points given null: a ReinException naming the parameter and what to pass, not a bare NullPointerException. */
class PublicApiNullInputsTest {
    private static void refused(ThrowingCallable call, String... words) {
        assertThatThrownBy(call).isInstanceOf(ReinException.class).message().contains(words);
    }

    record Answer(String text) {}

    @Test
    void outputSchemasGivenNoTypeSayWhatToPass() {
        refused(() -> OutputSchema.of(null), "OutputSchema.of", "type", "record");
        refused(() -> OutputSchema.of("answer", null), "OutputSchema.of", "type", "record");
        refused(() -> OutputSchema.readAnswer("{\"text\":\"a\"}", null), "readAnswer", "type", "record");
        refused(() -> dev.rein.state.StoredOutputSchema.of(null), "StoredOutputSchema.of", "OutputSchema");
    }

    @Test
    void aProviderConfigGivenNoEnvironmentSaysWhatToPass() {
        refused(() -> new ProviderConfig(null, Map.of()), "ProviderConfig", "env", "Map.of()");
        Map<String, String> withNull = new HashMap<>();
        withNull.put("ANTHROPIC_API_KEY", null);
        refused(() -> new ProviderConfig(withNull, Map.of()), "ProviderConfig", "ANTHROPIC_API_KEY", "null");
        refused(() -> new ProviderConfig(Map.of(), withNull), "ProviderConfig", "ANTHROPIC_API_KEY", "null");
    }

    @Test
    void anAgentConfigGivenNoListenerFactorySaysWhatToPass() {
        Agent agent = Agent.builder().model((request, context) -> null).modelName("m").price("m", ModelPrice.of("0", "0", "0"))
                .build();
        refused(() -> agent.config().withListener(null), "withListener", "RunListenerFactory");
    }

    @Test
    void modelIdsGivenNullSayWhichParameter() {
        refused(() -> ModelIds.dates(null, "claude-opus-5-20261015"), "ModelIds.dates", "base");
        refused(() -> ModelIds.dates("claude-opus-5", null), "ModelIds.dates", "model");
        refused(() -> ModelIds.listed(null, "m"), "ModelIds.listed", "listed", "List.of()");
        refused(() -> ModelIds.listed(java.util.List.of("m"), null), "ModelIds.listed", "model");
    }
}
