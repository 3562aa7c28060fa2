package dev.rein.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TraceContextHeadersTest {
    @Test
    void carriesTheHeadersAndRejectsWhatCouldSplitAnHttpRequest() {
        String traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
        assertThat(new TraceContextHeaders(Map.of("traceparent", traceparent)).headers()).containsEntry("traceparent", traceparent);
        assertThatThrownBy(() -> new TraceContextHeaders(Map.of("traceparent", "00-abc\r\nx-evil: 1")))
                .isInstanceOf(ReinException.class).hasMessageContaining("traceparent");
        assertThatThrownBy(() -> new TraceContextHeaders(Map.of("Bad Name", "v"))).isInstanceOf(ReinException.class);
    }

    @Test
    void aRequestWithTheOptionSharesItsConversation() {
        ModelRequest request = ModelRequest.builder("m").messages(java.util.List.of(Message.user("hi"))).maxTokens(10).build();
        ModelRequest traced = request.withOption(new TraceContextHeaders(Map.of("traceparent", "x")));
        assertThat(traced.messages()).isSameAs(request.messages());
        assertThat(traced.option(TraceContextHeaders.class)).isPresent();
        assertThat(request.option(TraceContextHeaders.class)).isEmpty();
    }
}
