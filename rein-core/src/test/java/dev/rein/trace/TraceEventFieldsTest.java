package dev.rein.trace;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.run.RunStatus;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The JSONL form of events that gained fields: every earlier field stays as it was, the new ones are added. */
class TraceEventFieldsTest {
    private static final Instant T = Instant.parse("2026-12-02T00:00:00Z");

    @Test
    void runResumedKeepsItsFieldsAndAddsTheModelAndTheLimits() {
        Map<String, Object> limits = new LinkedHashMap<>();
        limits.put("max_steps", 7);
        limits.put("max_cost_usd", null);
        JsonNode line = Json.parse(Json.write(new TraceEvent.RunResumed("run_1", 3, T, RunStatus.WAITING_APPROVAL, 1200,
                "test-model", limits)));

        assertThat(line.path("type").asText()).isEqualTo("run_resumed");
        assertThat(line.path("run_id").asText()).isEqualTo("run_1");
        assertThat(line.path("step").asInt()).isEqualTo(3);
        assertThat(line.path("from").asText()).isEqualTo("WAITING_APPROVAL");
        assertThat(line.path("active_millis").asLong()).isEqualTo(1200);
        assertThat(line.path("model").asText()).isEqualTo("test-model");
        assertThat(line.path("limits").path("max_steps").asInt()).isEqualTo(7);
    }

    @Test
    void aFailedModelCallAddsTheRequestIdOnlyWhenThereIsOneAndOldLinesStillRead() throws Exception {
        JsonNode with = Json.parse(Json.write(new TraceEvent.ModelFailed("run_1", 2, T, "OVERLOADED", 529, "Overloaded", "req_1")));
        assertThat(with.path("request_id").asText()).isEqualTo("req_1");
        assertThat(with.path("http_status").asInt()).isEqualTo(529);
        String old = Json.write(new TraceEvent.ModelRetry("run_1", 2, T, 1, "OVERLOADED", 529, "Overloaded", 500));
        assertThat(old).doesNotContain("request_id");

        TraceEvent read = Json.mapper().readValue(old, TraceEvent.class);
        assertThat(read).isEqualTo(new TraceEvent.ModelRetry("run_1", 2, T, 1, "OVERLOADED", 529, "Overloaded", 500, null));
        assertThat(Json.mapper().readValue(Json.write(with), TraceEvent.class)).isInstanceOfSatisfying(TraceEvent.ModelFailed.class,
                failed -> assertThat(failed.requestId()).isEqualTo("req_1"));
    }

    /** A trace written before a failed call's reported usage was recorded reads as it did: no reported usage. */
    @Test
    void oldModelRetryAndModelFailedLinesWithoutReportedUsageStillRead() throws Exception {
        String failed = "{\"type\":\"model_failed\",\"run_id\":\"run_1\",\"step\":2,\"time\":\"2026-12-02T00:00:00Z\","
                + "\"error_kind\":\"OVERLOADED\",\"http_status\":0,\"message\":\"Overloaded\",\"request_id\":\"req_1\"}";
        String retry = "{\"type\":\"model_retry\",\"run_id\":\"run_1\",\"step\":2,\"time\":\"2026-12-02T00:00:00Z\","
                + "\"attempt\":1,\"error_kind\":\"OVERLOADED\",\"http_status\":529,\"message\":\"Overloaded\",\"delay_millis\":500}";

        assertThat(Json.mapper().readValue(failed, TraceEvent.class))
                .isEqualTo(new TraceEvent.ModelFailed("run_1", 2, T, "OVERLOADED", 0, "Overloaded", "req_1", null));
        assertThat(Json.mapper().readValue(retry, TraceEvent.class))
                .isEqualTo(new TraceEvent.ModelRetry("run_1", 2, T, 1, "OVERLOADED", 529, "Overloaded", 500, null, null));
        // and an event without it is written as before
        assertThat(Json.write(new TraceEvent.ModelFailed("run_1", 2, T, "OVERLOADED", 0, "Overloaded", "req_1")))
                .doesNotContain("reported_usage");
    }

    @Test
    void aFailedCallsReportedUsageIsWrittenAndReadBack() throws Exception {
        dev.rein.model.Usage usage = new dev.rein.model.Usage(1420, 7, 1000, 300, Map.of(), true, Map.of());
        String line = Json.write(new TraceEvent.ModelRetry("run_1", 2, T, 1, "OVERLOADED", 0, "Overloaded", 500, null, usage));
        assertThat(Json.parse(line).path("reported_usage").path("input_tokens").asLong()).isEqualTo(1420);
        assertThat(Json.parse(line).path("reported_usage").path("estimated").asBoolean()).isTrue();
        assertThat(Json.mapper().readValue(line, TraceEvent.class)).isInstanceOfSatisfying(TraceEvent.ModelRetry.class,
                retry -> assertThat(retry.reportedUsage()).isEqualTo(usage));
    }

    /** The called model's provider is for listeners only: a model_request line is as before and reads back without it. */
    @Test
    void aModelRequestsProviderIsNotWrittenAndALineReadsBackWithoutIt() throws Exception {
        dev.rein.model.ModelRequest request = dev.rein.model.ModelRequest.builder("test-model")
                .messages(java.util.List.of(dev.rein.model.Message.user("注文を確認して"))).build();
        String line = Json.write(new TraceEvent.ModelRequested("run_1", 1, T, "critic", request, "openai"));
        assertThat(Json.parse(line).has("provider")).isFalse();
        assertThat(line).isEqualTo(Json.write(new TraceEvent.ModelRequested("run_1", 1, T, "critic", request)));

        TraceEvent read = Json.mapper().readValue(line, TraceEvent.class);
        assertThat(read).isInstanceOfSatisfying(TraceEvent.ModelRequested.class, requested -> {
            assertThat(requested.provider()).isNull();
            assertThat(requested.purpose()).isEqualTo("critic");
            assertThat(requested.request().model()).isEqualTo("test-model");
        });
    }

    @Test
    void aModelRequestsServerIsNotWrittenAndALineReadsBackWithoutIt() throws Exception {
        dev.rein.model.ModelRequest request = dev.rein.model.ModelRequest.builder("test-model")
                .messages(java.util.List.of(dev.rein.model.Message.user("注文を確認して"))).build();
        String line = Json.write(new TraceEvent.ModelRequested("run_1", 1, T, "critic", request, "openai",
                java.net.URI.create("https://api.openai.com/v1")));
        assertThat(Json.parse(line).has("server")).isFalse();
        assertThat(line).isEqualTo(Json.write(new TraceEvent.ModelRequested("run_1", 1, T, "critic", request)));

        TraceEvent read = Json.mapper().readValue(line, TraceEvent.class);
        assertThat(read).isInstanceOfSatisfying(TraceEvent.ModelRequested.class, requested -> {
            assertThat(requested.server()).isNull();
            assertThat(requested.provider()).isNull();
            assertThat(requested.request().messages().get(0).toString()).contains("注文を確認して");
        });
    }

    @Test
    void toolResultKeepsItsFieldsAndAddsTheRisk() {
        JsonNode line = Json.parse(Json.write(new TraceEvent.ToolCompleted("run_1", 1, T, "c1", "lookup",
                "invalid arguments: 受注番号がありません", true, "INVALID_ARGUMENTS", "rein", 0, "READ")));

        assertThat(line.path("type").asText()).isEqualTo("tool_result");
        assertThat(line.path("tool").asText()).isEqualTo("lookup");
        assertThat(line.path("content").asText()).endsWith("受注番号がありません");
        assertThat(line.path("is_error").asBoolean()).isTrue();
        assertThat(line.path("error_class").asText()).isEqualTo("INVALID_ARGUMENTS");
        assertThat(line.path("duration_millis").asLong()).isZero();
        assertThat(line.path("risk").asText()).isEqualTo("READ");
    }

    @Test
    void stallDetectedKeepsItsFieldsAndAddsTheRisk() {
        JsonNode line = Json.parse(Json.write(new TraceEvent.StallDetected("run_1", 2, T, "exact_repeat", "blocked", "c2",
                "repeat", Map.of("tool", "lookup"), 1, "READ")));

        assertThat(line.path("type").asText()).isEqualTo("stall_detected");
        assertThat(line.path("detector").asText()).isEqualTo("exact_repeat");
        assertThat(line.path("action").asText()).isEqualTo("blocked");
        assertThat(line.path("call_id").asText()).isEqualTo("c2");
        assertThat(line.path("evidence").path("tool").asText()).isEqualTo("lookup");
        assertThat(line.path("occurrence").asInt()).isEqualTo(1);
        assertThat(line.path("risk").asText()).isEqualTo("READ");
    }

    /**
     * A failed attempt a stage moved on from is written as model_fallback with model_retry's fields for the failure;
     * what it lacks (the next model, request id, reported usage) is not written, and the line reads back as written.
     */
    @Test
    void aModelFallbackIsWrittenWithItsModelsAndFailureAndReadsBack() throws Exception {
        dev.rein.model.Usage usage = dev.rein.model.Usage.of(1420, 0, 0, 0);
        TraceEvent full = new TraceEvent.ModelFallback("run_1", 2, T, "primary", "backup", "OVERLOADED", 529, "Overloaded",
                "req_1", usage);
        JsonNode line = Json.parse(Json.write(full));
        assertThat(line.path("type").asText()).isEqualTo("model_fallback");
        assertThat(line.path("from_model").asText()).isEqualTo("primary");
        assertThat(line.path("to_model").asText()).isEqualTo("backup");
        assertThat(line.path("error_kind").asText()).isEqualTo("OVERLOADED");
        assertThat(line.path("http_status").asInt()).isEqualTo(529);
        assertThat(line.path("message").asText()).isEqualTo("Overloaded");
        assertThat(line.path("request_id").asText()).isEqualTo("req_1");
        assertThat(line.path("reported_usage").path("input_tokens").asLong()).isEqualTo(1420);
        assertThat(Json.mapper().readValue(Json.write(full), TraceEvent.class)).isEqualTo(full);

        TraceEvent bare = new TraceEvent.ModelFallback("run_1", 2, T, "backup", null, "SERVER_ERROR", 500, "down", null, null);
        String written = Json.write(bare);
        assertThat(written).doesNotContain("to_model").doesNotContain("request_id").doesNotContain("reported_usage");
        assertThat(Json.mapper().readValue(written, TraceEvent.class)).isEqualTo(bare);
    }
}
