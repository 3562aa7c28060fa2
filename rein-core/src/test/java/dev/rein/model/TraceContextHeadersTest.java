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

    @Test
    void aHeaderThatCannotBeSentIsRefusedSayingWhatIsWrongAndWhatToGive() {
        assertThatThrownBy(() -> new TraceContextHeaders(Map.of("TraceParent", "v"))).isInstanceOf(ReinException.class)
                .hasMessage("trace header name 'TraceParent' is not a lower-case header token: give it in lower case, of"
                        + " letters, digits and '-' (1 to 64 characters), as W3C Trace Context names traceparent and tracestate");
        assertThatThrownBy(() -> new TraceContextHeaders(Map.of("traceparent", "00-abc\r\nx-evil: 1")))
                .isInstanceOf(ReinException.class)
                .hasMessage("trace header traceparent has a value that is not one line of printable ASCII (a line break or"
                        + " other control character at position 7): give the value as the propagator wrote it, one line of"
                        + " printable ASCII of at most 8192 characters");
        assertThatThrownBy(() -> new TraceContextHeaders(Map.of("tracestate", "vendor=é"))).isInstanceOf(ReinException.class)
                .hasMessageContaining("(a character that is not ASCII at position 8)");
        assertThatThrownBy(() -> new TraceContextHeaders(Map.of("tracestate", "x".repeat(8193)))).isInstanceOf(ReinException.class)
                .hasMessageContaining("(8193 characters, more than 8192)");
        assertThatThrownBy(() -> new TraceContextHeaders(null)).isInstanceOf(ReinException.class)
                .hasMessage("TraceContextHeaders was given no headers (null): give a map of header names to values"
                        + " (Map.of() for none)");
    }

    @Test
    void delIsRefusedAsAControlCharacterNotAsNonAscii() {
        assertThatThrownBy(() -> new TraceContextHeaders(Map.of("tracestate", "vendor=\u007f"))).isInstanceOf(ReinException.class)
                .hasMessageContaining("(a line break or other control character at position 8)");
    }

    @Test
    void rewrittenHistoryWithoutACauseIsRefusedSayingWhatToGive() {
        assertThatThrownBy(() -> new RewrittenHistory(java.util.List.of())).isInstanceOf(ReinException.class)
                .hasMessage("RewrittenHistory needs at least one cause: name what rewrites the history (state_in_prompt,"
                        + " memory_recall, clear_tool_results, compaction or tool_sources), or leave the option out when"
                        + " nothing does");
        assertThatThrownBy(() -> new RewrittenHistory(null)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("RewrittenHistory was given no causes (null): name what rewrites the history");
        assertThatThrownBy(() -> new RewrittenHistory(java.util.Arrays.asList("compaction", null)))
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("RewrittenHistory's cause 2 of 2 is null: name what rewrites the history");
    }
}
