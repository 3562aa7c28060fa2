package dev.rein.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.Usage;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScriptedModelTest {
    /** A scripted reply given other usage keeps every other field, the service tier that served it among them. */
    @Test
    void aReplyGivenOtherUsageKeepsItsServiceTier() throws Exception {
        ScriptedModel.Turn served = (request, number) -> new ModelResponse("msg_1", "m", List.of(), StopReason.END_TURN,
                null, Usage.of(1, 1, 0, 0), "detail", "stop", "priority");

        ModelResponse r = ScriptedModel.withUsage(Usage.of(100, 20, 0, 0), served).answer(null, 1);

        assertThat(r).isEqualTo(new ModelResponse("msg_1", "m", List.of(), StopReason.END_TURN, null,
                Usage.of(100, 20, 0, 0), "detail", "stop", "priority"));
    }
}
