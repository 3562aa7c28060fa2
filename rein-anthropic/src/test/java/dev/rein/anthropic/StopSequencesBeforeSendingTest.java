package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.rein.model.ModelException;
import dev.rein.testkit.FakeReply;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The API refuses a stop sequence without a non-whitespace character (400 "stop_sequences: each stop sequence must
 * contain non-whitespace"), and a retry would repeat it: Rein refuses such a request itself, before sending, naming the
 * setting and the sequence.
 */
class StopSequencesBeforeSendingTest extends FakeApi {

    @Test
    void anEmptyOrWhitespaceOnlyStopSequenceIsRefusedBeforeSendingNamingTheSetting() {
        ModelException e = catchThrowableOfType(ModelException.class,
                () -> call(request("こんにちは").stopSequences(List.of("END", "\n"))));

        assertThat(e).as("refused before sending").isNotNull();
        assertThat(e.kind()).isEqualTo(ModelException.Kind.INVALID_REQUEST);
        assertThat(e.retryable()).isFalse();
        assertThat(e.getMessage()).contains("ModelRequest.Builder.stopSequences").contains("\"\\n\"")
                .contains("each stop sequence must contain non-whitespace").contains("leave it out");
        ModelException empty = catchThrowableOfType(ModelException.class,
                () -> call(request("こんにちは").stopSequences(List.of(""))));
        assertThat(empty.getMessage()).contains("\"\"");
        assertThat(server.requests()).as("nothing was sent").isEmpty();
    }

    @Test
    void aStopSequenceWithTextAroundWhitespaceIsSent() throws Exception {
        server.enqueue(FakeReply.text("ok"));

        call(request("こんにちは").stopSequences(List.of("\nEND ")));

        assertThat(lastBody().path("stop_sequences").get(0).asText()).isEqualTo("\nEND ");
    }
}
