package dev.rein.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.rein.json.Json;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelResponseTest {
    private static final ToolUseBlock USE = new ToolUseBlock("toolu_1", "lookup", JsonNodeFactory.instance.objectNode().put("q", "検索"));

    private static ModelResponse response(ContentBlock... blocks) {
        return new ModelResponse("msg_1", "test-model", List.of(blocks), StopReason.TOOL_USE, null, Usage.ZERO);
    }

    @Test
    void aTurnWithoutEmptyTextIsKeptAsItIs() {
        ModelResponse response = response(new TextBlock("見てみます"), USE);

        Message message = response.toHistoryMessage().orElseThrow();

        assertThat(message.role()).isEqualTo(Role.ASSISTANT);
        assertThat(message.content()).containsExactly(new TextBlock("見てみます"), USE);
        assertThat(message.content()).isSameAs(response.content());
    }

    @Test
    void emptyTextBlocksAreDroppedAndTheRestKeepTheirOrder() {
        Message message = response(new TextBlock(""), USE, new TextBlock(""), new TextBlock("done")).toHistoryMessage().orElseThrow();

        assertThat(message.content()).containsExactly(USE, new TextBlock("done"));
    }

    @Test
    void nothingIsLeftOfAResponseWithOnlyEmptyTextOrNoContent() {
        assertThat(response(new TextBlock("")).toHistoryMessage()).isEmpty();
        assertThat(response().toHistoryMessage()).isEmpty();
    }

    /**
     * The provider's own stop reason is kept next to Rein's mapping (Mistral's {@code model_length},
     * a value Rein maps to UNKNOWN), written to traces and snapshots and read back; a response
     * without it (the six- and seven-argument constructors, a trace written before it existed)
     * has none and writes no key for it.
     */
    @Test
    void theProvidersOwnStopReasonIsKeptWrittenAndReadBack() throws Exception {
        ModelResponse mapped = ModelResponse.builder().id("msg_1").model("magistral-medium").content(List.of(new TextBlock("途中")))
                .stopReason(StopReason.UNKNOWN).usage(Usage.of(1, 2, 0, 0)).providerStopReason("eos_token").build();
        assertThat(mapped.providerStopReason()).isEqualTo("eos_token");

        String json = Json.storedMapper().writeValueAsString(mapped);
        assertThat(json).contains("\"provider_stop_reason\":\"eos_token\"");
        assertThat(Json.storedMapper().readValue(json, ModelResponse.class)).isEqualTo(mapped);

        ModelResponse without = new ModelResponse("msg_1", "m", List.of(), StopReason.END_TURN, null, Usage.ZERO, "detail");
        assertThat(without.providerStopReason()).isNull();
        assertThat(response().providerStopReason()).isNull();
        assertThat(Json.storedMapper().writeValueAsString(without)).doesNotContain("provider_stop_reason");
        // a trace or snapshot written before the field existed
        ModelResponse old = Json.storedMapper().readValue("{\"id\":\"msg_1\",\"model\":\"m\",\"content\":[],"
                + "\"stop_reason\":\"end_turn\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":1,\"output_tokens\":2,"
                + "\"cache_read_input_tokens\":0,\"cache_creation_input_tokens\":0}}", ModelResponse.class);
        assertThat(old.providerStopReason()).isNull();
        assertThat(old.stopReason()).isEqualTo(StopReason.END_TURN);
    }

    /**
     * The provider's system fingerprint (Chat Completions' system_fingerprint) is kept, written to traces and snapshots
     * and read back; a response without it (the shorter constructors, a trace written before it existed) has none and
     * writes no key for it, and a blank one is none.
     */
    @Test
    void theSystemFingerprintIsKeptWrittenAndReadBackAndAnOlderTraceHasNone() throws Exception {
        ModelResponse mapped = ModelResponse.builder().id("chatcmpl-1").model("gpt-5").content(List.of(new TextBlock("ok")))
                .stopReason(StopReason.END_TURN).usage(Usage.of(1, 2, 0, 0)).providerStopReason("stop").providerServiceTier("default")
                .systemFingerprint("fp_44709d6fcb").build();
        assertThat(mapped.systemFingerprint()).isEqualTo("fp_44709d6fcb");

        String json = Json.storedMapper().writeValueAsString(mapped);
        assertThat(json).contains("\"system_fingerprint\":\"fp_44709d6fcb\"");
        assertThat(Json.storedMapper().readValue(json, ModelResponse.class)).isEqualTo(mapped);
        assertThat(mapped.withUsage(Usage.ZERO).systemFingerprint()).isEqualTo("fp_44709d6fcb");
        assertThat(mapped.withContent(List.of()).systemFingerprint()).isEqualTo("fp_44709d6fcb");

        ModelResponse without = new ModelResponse("r", "m", List.of(), StopReason.END_TURN, null, Usage.ZERO, null, "stop",
                null, "default");
        assertThat(without.systemFingerprint()).isNull();
        assertThat(without.providerServiceTier()).isEqualTo("default");
        assertThat(Json.storedMapper().writeValueAsString(without)).doesNotContain("system_fingerprint");
        assertThat(ModelResponse.builder().id("r").model("m").stopReason(StopReason.END_TURN).systemFingerprint(" ").build()
                .systemFingerprint()).isNull();
        // a trace or snapshot written before the field existed
        ModelResponse old = Json.storedMapper().readValue("{\"id\":\"msg_1\",\"model\":\"m\",\"content\":[],"
                + "\"stop_reason\":\"end_turn\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":1,\"output_tokens\":2,"
                + "\"cache_read_input_tokens\":0,\"cache_creation_input_tokens\":0},\"provider_service_tier\":\"default\"}",
                ModelResponse.class);
        assertThat(old.systemFingerprint()).isNull();
        assertThat(old.providerServiceTier()).isEqualTo("default");
    }

    /**
     * The builder names each field and leaves the others unset: no id, no content, usage not reported (which the run
     * estimates), no stop sequence, detail, provider stop reason, tiers or fingerprint. It checks as the canonical
     * constructor does, with its messages; toBuilder keeps every field, so one changed field loses none of the others.
     */
    @Test
    void theBuilderLeavesWhatIsNotSetUnsetAndChecksAsTheCanonicalConstructorDoes() {
        ModelResponse built = ModelResponse.builder().model("m").stopReason(StopReason.END_TURN).build();

        assertThat(built).isEqualTo(new ModelResponse(null, "m", List.of(), StopReason.END_TURN, null, null));
        assertThat(built.id()).isNull();
        assertThat(built.content()).isEmpty();
        assertThat(built.usage()).isSameAs(Usage.NOT_REPORTED);
        assertThat(List.of(String.valueOf(built.stopSequence()), String.valueOf(built.stopDetail()),
                String.valueOf(built.providerStopReason()), String.valueOf(built.serviceTier()),
                String.valueOf(built.providerServiceTier()), String.valueOf(built.systemFingerprint()))).containsOnly("null");

        assertThatThrownBy(() -> ModelResponse.builder().stopReason(StopReason.END_TURN).build())
                .isInstanceOf(dev.rein.ReinException.class).hasMessageContaining("needs the model that answered");
        assertThatThrownBy(() -> ModelResponse.builder().model("m").build())
                .isInstanceOf(dev.rein.ReinException.class).hasMessageContaining("needs its stopReason");
        assertThatThrownBy(() -> ModelResponse.builder().model("m").stopReason(StopReason.END_TURN).content(null).build())
                .isInstanceOf(dev.rein.ReinException.class).hasMessageContaining("needs its content");
        assertThatThrownBy(() -> ModelResponse.builder().model("m").stopReason(StopReason.END_TURN)
                .content(java.util.Arrays.asList(new TextBlock("a"), null)).build())
                .isInstanceOf(dev.rein.ReinException.class).hasMessageContaining("content block 2 of 2 is null");
        assertThat(ModelResponse.builder().model("m").stopReason(StopReason.END_TURN).serviceTier(" ").build().serviceTier())
                .as("a blank tier names none, as in the constructor").isNull();

        ModelResponse full = new ModelResponse("id", "m", List.of(new TextBlock("t")), StopReason.STOP_SEQUENCE, "END",
                Usage.of(1, 2, 3, 4), "detail", "stop", "flex", "flex", "fp_1");
        assertThat(full.toBuilder().build()).isEqualTo(full);
        assertThat(full.toBuilder().model("other").build()).isEqualTo(new ModelResponse("id", "other", List.of(new TextBlock("t")),
                StopReason.STOP_SEQUENCE, "END", Usage.of(1, 2, 3, 4), "detail", "stop", "flex", "flex", "fp_1"));
    }
}
