package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FakeReply;
import org.junit.jupiter.api.Test;

/**
 * A classifier refusal carries {@code stop_details} (category and a human-readable explanation
 * meant for the user), on the {@code message_delta} event next to {@code stop_reason}; the run
 * reports that explanation instead of the cut-off text alone.
 */
class RefusalDetailsTest extends FakeApi {

    private static final String EXPLANATION = "This request was declined because it could enable cyber harm.";

    /** A streamed refusal after some text, with {@code stopDetails} (JSON) on the message_delta event. */
    private static String refusal(String stopDetails) {
        return new Sse().messageStart("{\"input_tokens\":12,\"output_tokens\":1}")
                .block(0, "{\"type\":\"text\",\"text\":\"\"}", "{\"type\":\"text_delta\",\"text\":\"Hello..\"}")
                .event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"refusal\",\"stop_sequence\":null,"
                        + "\"stop_details\":" + stopDetails + "},\"usage\":{\"output_tokens\":3}}")
                .event("message_stop", "{\"type\":\"message_stop\"}")
                .build();
    }

    @Test
    void theExplanationAndCategoryOfARefusalAreKept() throws Exception {
        server.enqueue(FakeReply.malformed(refusal(
                "{\"type\":\"refusal\",\"category\":\"cyber\",\"explanation\":\"" + EXPLANATION + "\"}")));

        ModelResponse response = call(request("hi"));

        assertThat(response.stopReason()).isEqualTo(StopReason.REFUSAL);
        assertThat(response.stopDetail()).isEqualTo(EXPLANATION + " (category cyber)");
        assertThat(response.text()).isEqualTo("Hello..");
    }

    @Test
    void aRunEndsWithTheApisExplanationOfTheRefusal() {
        server.enqueue(FakeReply.malformed(refusal(
                "{\"type\":\"refusal\",\"category\":\"cyber\",\"explanation\":\"" + EXPLANATION + "\"}")));

        RunResult result = Agent.builder().model(model).build().run("hello");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo(Reasons.REFUSAL);
        assertThat(result.message()).isEqualTo("the model refused to continue: " + EXPLANATION + " (category cyber)");
    }

    @Test
    void aRefusalPastedIntoAFakeServerScriptKeepsItsStopDetailsStreamedAndWhole() throws Exception {
        // The test kit's script takes a real response pasted in: its stop_details must reach the client.
        String pasted = "[{\"id\":\"msg_01\",\"type\":\"message\",\"role\":\"assistant\",\"model\":\"claude-test\","
                + "\"content\":[{\"type\":\"text\",\"text\":\"お手伝い\"}],\"stop_reason\":\"refusal\",\"stop_sequence\":null,"
                + "\"stop_details\":{\"type\":\"refusal\",\"category\":\"cyber\",\"explanation\":\"" + EXPLANATION + "\"},"
                + "\"usage\":{\"input_tokens\":12,\"output_tokens\":3}}]";
        server.enqueue(dev.rein.testkit.FakeScript.parse(pasted));

        RunResult result = Agent.builder().model(model).build().run("hello");

        assertThat(result.reason()).isEqualTo(Reasons.REFUSAL);
        assertThat(result.message()).isEqualTo("the model refused to continue: " + EXPLANATION + " (category cyber)");
    }

    @Test
    void withoutANamedCategoryOrExplanationTheRefusedTextIsShownAsBefore() {
        server.enqueue(FakeReply.malformed(refusal("{\"type\":\"refusal\",\"category\":null,\"explanation\":null}")));

        RunResult result = Agent.builder().model(model).build().run("hello");

        assertThat(result.reason()).isEqualTo(Reasons.REFUSAL);
        assertThat(result.message()).isEqualTo("the model refused to continue: Hello..");
    }
}
