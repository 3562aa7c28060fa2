package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rein.model.ModelException;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.testkit.FakeReply;
import org.junit.jupiter.api.Test;

/**
 * Events a stream should not hold: the streaming docs give one message per stream, from message_start to
 * message_stop. The official SDK's accumulator takes the message as final at message_stop and refuses any event after
 * it ("'message_stop' event already received."), a second message_start and a second start of one block index
 * ("'message_start' event already received.", "Content block already started for index 0."). Rein keeps the whole
 * message at message_stop and reads nothing after it (failing there would have a retry pay for the answer again);
 * before it, a second message_start or block start is a malformed stream, not a silent reset.
 */
class StrayEventsTest extends FakeApi {

    private static final String TEXT_START = "{\"type\":\"text\",\"text\":\"\"}";

    @Test
    void eventsAfterMessageStopChangeNothingOfTheWholeMessage() throws Exception {
        String sse = new Sse()
                .messageStart("{\"input_tokens\":10,\"output_tokens\":1}")
                .block(0, TEXT_START, "{\"type\":\"text_delta\",\"text\":\"最初の答え\"}")
                .end("end_turn", "{\"output_tokens\":5}")
                // A second message from a misbehaving proxy: its text must not reach the listeners or the answer.
                .messageStart("{\"input_tokens\":99,\"output_tokens\":1}")
                .event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,"
                        + "\"delta\":{\"type\":\"text_delta\",\"text\":\"余計\"}}")
                .block(1, TEXT_START, "{\"type\":\"text_delta\",\"text\":\"二つ目\"}")
                .end("max_tokens", "{\"output_tokens\":77}")
                .build();
        server.enqueue(FakeReply.malformed(sse));

        ModelResponse response = call(request("hi"));

        assertThat(response.text()).isEqualTo("最初の答え");
        assertThat(response.content()).hasSize(1);
        assertThat(response.stopReason()).isEqualTo(StopReason.END_TURN);
        assertThat(response.usage().inputTokens()).isEqualTo(10);
        assertThat(response.usage().outputTokens()).isEqualTo(5);
        assertThat(stream.text()).as("the listeners saw the one message").isEqualTo("最初の答え");
    }

    @Test
    void anErrorEventAfterMessageStopDoesNotFailTheWholeMessage() throws Exception {
        // The streaming docs end the event flow at message_stop: an error after it (a proxy's) is not the
        // message's, and failing the call would have a retry pay for the whole answer again.
        String sse = new Sse()
                .messageStart("{\"input_tokens\":10,\"output_tokens\":1}")
                .block(0, TEXT_START, "{\"type\":\"text_delta\",\"text\":\"完全な答え\"}")
                .end("end_turn", "{\"output_tokens\":5}")
                .event("error", "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}")
                .build();
        server.enqueue(FakeReply.malformed(sse));

        ModelResponse response = call(request("hi"));

        assertThat(response.text()).isEqualTo("完全な答え");
        assertThat(response.stopReason()).isEqualTo(StopReason.END_TURN);
        assertThat(server.requests()).as("not retried").hasSize(1);
    }

    @Test
    void aSecondMessageStartBeforeMessageStopIsAMalformedStream() {
        String sse = new Sse()
                .messageStart("{\"input_tokens\":10,\"output_tokens\":1}")
                .block(0, TEXT_START, "{\"type\":\"text_delta\",\"text\":\"途中\"}")
                .messageStart("{\"input_tokens\":10,\"output_tokens\":1}")
                .block(1, TEXT_START, "{\"type\":\"text_delta\",\"text\":\"別\"}")
                .end("end_turn", "{\"output_tokens\":5}")
                .build();
        server.enqueue(FakeReply.malformed(sse));

        ModelException e = catchThrowableOfType(ModelException.class, () -> call(request("hi")));

        assertThat(e).isNotNull();
        assertThat(e.kind()).isEqualTo(ModelException.Kind.MALFORMED_RESPONSE);
        assertThat(e.getMessage()).contains("second message_start");
    }

    @Test
    void aSecondStartOfOneBlockIndexIsAMalformedStream() {
        String sse = new Sse()
                .messageStart("{\"input_tokens\":10,\"output_tokens\":1}")
                .block(0, TEXT_START, "{\"type\":\"text_delta\",\"text\":\"消えるはず\"}")
                .block(0, TEXT_START, "{\"type\":\"text_delta\",\"text\":\"上書き\"}")
                .end("end_turn", "{\"output_tokens\":5}")
                .build();
        server.enqueue(FakeReply.malformed(sse));

        ModelException e = catchThrowableOfType(ModelException.class, () -> call(request("hi")));

        assertThat(e).isNotNull();
        assertThat(e.kind()).isEqualTo(ModelException.Kind.MALFORMED_RESPONSE);
        assertThat(e.getMessage()).contains("started block 0 twice");
    }
}
