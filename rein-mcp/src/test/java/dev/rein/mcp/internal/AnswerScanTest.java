package dev.rein.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class AnswerScanTest {
    @Test
    void theTopLevelIdIsReadInPiecesAfterALongResultAndNotANestedOne() {
        String answer = "{\"jsonrpc\":\"2.0\",\"result\":{\"id\":\"inner\",\"content\":[{\"type\":\"text\",\"text\":\""
                + "日本語".repeat(10_000) + "\"}]},\"id\":\"c-7\"}";
        assertThat(scan(answer, 7)).isEqualTo(Json.parse("\"c-7\""));
        assertThat(scan("{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-1,\"message\":\"x\"}}", 5)).isEqualTo(Json.parse("3"));
    }

    @Test
    void whatIsNoSingleAnswerHasNoId() {
        assertThat(scan("{\"jsonrpc\":\"2.0\",\"id\":\"r\",\"method\":\"ping\"}", 4)).as("a request").isNull();
        assertThat(scan("[{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{}}]", 4)).as("a batch").isNull();
        assertThat(scan("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"result\":{", 4)).as("cut short").isNull();
        assertThat(scan("not json", 4)).isNull();
        assertThat(scan("{\"jsonrpc\":\"2.0\",\"id\":null,\"result\":{}}", 4)).as("a null id").isNull();
    }

    @Test
    void theTopLevelErrorIsReadWholeWhereverItsCodeAndMessageComeNotANestedOne() {
        String data = "{\"error\":{\"code\":1,\"message\":\"inner\"},\"stack\":\"" + "x".repeat(20_000) + "\"}";
        assertThat(error("{\"jsonrpc\":\"2.0\",\"error\":{\"data\":" + data + ",\"message\":\"東京 refused\",\"code\":-32000},\"id\":null}", 7))
                .isEqualTo("JSON-RPC error -32000: 東京 refused");
        assertThat(error("{\"error\":{\"message\":\"no code\"}}", 3)).isEqualTo("JSON-RPC error ?: no code");
        assertThat(error("{\"result\":{\"error\":{\"code\":1,\"message\":\"nested\"}}}", 3)).isNull();
        assertThat(error("{\"error\":{\"code\":1,\"message\":\"cut", 3)).as("cut short").isNull();
    }

    @Test
    void anErrorWithANullOrNoIdIsIdless() {
        String error = ",\"error\":{\"code\":-32600,\"message\":\"bad\",\"data\":\"" + "x".repeat(20_000) + "\"}}";
        assertThat(feed("{\"jsonrpc\":\"2.0\",\"id\":null" + error, 5).idlessError()).isEqualTo("JSON-RPC error -32600: bad");
        assertThat(feed("{\"jsonrpc\":\"2.0\"" + error, 5).idlessError()).isEqualTo("JSON-RPC error -32600: bad");
        assertThat(feed("{\"jsonrpc\":\"2.0\",\"id\":7" + error, 5).idlessError()).isNull();
        assertThat(feed("{\"jsonrpc\":\"2.0\",\"id\":{\"a\":1}" + error, 5).idlessError()).isNull();
    }

    @Test
    void aMalformedErrorWithAnIdIsJudgedAsMalformedAnswerJudgesItWhereverItsMessageComes() {
        String data = "\"data\":\"" + "x".repeat(20_000) + "\"";
        for (String answer : List.of("{\"id\":3,\"error\":\"失敗 boom\"}", "{\"id\":\"a\",\"error\":[1]}", "{\"id\":3,\"error\":null}",
                "{\"id\":3,\"error\":{" + data + ",\"message\":\"失敗 boom\"}}", "{\"error\":{\"code\":\"x\"," + data + ",\"message\":\"m\"},\"id\":3}",
                "{\"id\":3,\"error\":{\"code\":1.5,\"message\":\"m\"}}", "{\"id\":3,\"error\":{\"code\":1,\"message\":7}}",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-1,\"message\":\"fine\"}}", "{\"id\":3.5,\"error\":\"x\"}",
                "{\"id\":null,\"error\":\"x\"}", "{\"id\":3,\"method\":\"m\",\"error\":\"x\"}", "{\"id\":3,\"result\":{}}")) {
            assertThat(feed(answer, 5).malformedWhy()).as(answer).isEqualTo(MalformedAnswer.why(Json.parse(answer)));
        }
        AnswerScan scan = feed("{\"id\":3,\"error\":{\"code\":\"x\"," + data + ",\"message\":\"失敗 boom\"}}", 5);
        assertThat(scan.malformedQuote()).isEqualTo("{\"id\":3,\"error\":{\"code\":\"x\",\"message\":\"失敗 boom\",…}}");
        assertThat(feed("{\"id\":\"k\",\"error\":\"失敗 boom\"}", 3).malformedQuote()).isEqualTo("{\"id\":\"k\",\"error\":\"失敗 boom\"}");
    }

    private static String error(String json, int size) {
        return feed(json, size).error();
    }

    /** {@code json} fed to a scan in pieces of {@code size} bytes (cutting characters in two). */
    private static JsonNode scan(String json, int size) {
        return feed(json, size).answerId();
    }

    private static AnswerScan feed(String json, int size) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        AnswerScan scan = new AnswerScan();
        for (int start = 0; start < bytes.length; start += size) {
            scan.feed(ByteBuffer.wrap(bytes, start, Math.min(size, bytes.length - start)));
        }
        return scan;
    }
}
