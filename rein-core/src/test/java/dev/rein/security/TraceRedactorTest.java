package dev.rein.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.ModelRequest;
import dev.rein.model.ToolResultBlock;
import dev.rein.trace.TraceEvent;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TraceRedactorTest {
    private final TraceRedactor redactor = new TraceRedactor(() -> Map.of("key", "s3cr3t-value"));

    @Test
    void masksStringsJsonTreesNestedRecordsListsAndMaps() {
        ModelRequest request = ModelRequest.builder("m").system("use s3cr3t-value")
                .messages(List.of(Message.user(List.of(new ToolResultBlock("t1", "got s3cr3t-value", false))))).build();
        List<TraceEvent> events = List.of(
                new TraceEvent.ModelRequested("r", 1, Instant.now(), "step", request),
                new TraceEvent.ToolCalled("r", 1, Instant.now(), "c", "t", Json.parse("{\"a\":[\"x s3cr3t-value\"]}")),
                new TraceEvent.Intervention("r", 1, Instant.now(), "k", "m", Map.of("evidence", List.of("s3cr3t-value"))));

        for (TraceEvent event : events) {
            TraceEvent redacted = redactor.redact(event);
            assertThat(Json.write(redacted)).doesNotContain("s3cr3t-value").contains("[REDACTED:key]");
            assertThat(redacted.getClass()).isEqualTo(event.getClass());
        }
    }

    @Test
    void anEventWithoutSecretsIsPassedAsTheSameInstance() {
        TraceEvent event = new TraceEvent.ToolCalled("r", 1, Instant.now(), "c", "t", Json.parse("{\"a\":1}"));
        assertThat(redactor.redact(event)).isSameAs(event);
    }
}
