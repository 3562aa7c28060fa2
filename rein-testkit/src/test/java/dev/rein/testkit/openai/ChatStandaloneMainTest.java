package dev.rein.testkit.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChatStandaloneMainTest {
    private static final String BODY = "{\"model\":\"qwen3:8b\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"こんにちは\"}]}";

    @Test
    void servesTheScriptPrintsTheUrlAndRecordsEachRequest(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("script.json");
        Files.writeString(script, "[{\"type\":\"completion\",\"content\":\"scripted\",\"usage\":{\"prompt_tokens\":9,"
                + "\"completion_tokens\":2,\"cached_tokens\":4}}]");
        Path record = dir.resolve("requests.jsonl");
        Path urlFile = dir.resolve("url");
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        try (FakeChatCompletionsServer server = ChatStandaloneMain.start(
                new String[] {"--record", record.toString(), "--url-file", urlFile.toString(), script.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8))) {
            assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(server.baseUrl() + System.lineSeparator());
            assertThat(Files.readString(urlFile)).isEqualTo(server.baseUrl() + "\n");
            assertThat(server.baseUrl()).endsWith("/v1");

            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create(server.baseUrl() + "/chat/completions"))
                    .header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(BODY)).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(response.headers().firstValue("content-type").orElseThrow()).startsWith("text/event-stream");
            List<String> data = response.body().lines().filter(l -> l.startsWith("data: ")).map(l -> l.substring(6)).toList();
            assertThat(data.get(data.size() - 1)).isEqualTo("[DONE]");
            JsonNode usage = ChatEncoder.MAPPER.readTree(data.get(data.size() - 2));
            assertThat(usage.path("choices")).isEmpty();
            assertThat(usage.at("/usage/prompt_tokens_details/cached_tokens").asInt()).isEqualTo(4);
            assertThat(response.body()).contains("scripted".substring(0, 8));

            List<String> lines = Files.readAllLines(record);
            assertThat(lines).hasSize(1);
            JsonNode recorded = ChatEncoder.MAPPER.readTree(lines.get(0));
            assertThat(recorded.path("path").asText()).isEqualTo("/v1/chat/completions");
            assertThat(recorded.at("/body/messages/0/content").asText()).isEqualTo("こんにちは");
        }
    }

    @Test
    void aRequiredKeyAndBadCommandLines(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("s.json");
        Files.writeString(script, "[]");
        try (FakeChatCompletionsServer server = ChatStandaloneMain.start(
                new String[] {"--api-key", "sk-x", "--no-validate", script.toString()}, new PrintStream(new ByteArrayOutputStream()))) {
            assertThat(server.requiredApiKey()).isEqualTo("sk-x");
            assertThat(server.validatesRequests()).isFalse();
            assertThat(server.reportsUsage()).isTrue();
        }
        try (FakeChatCompletionsServer server = ChatStandaloneMain.start(
                new String[] {"--no-usage", script.toString()}, new PrintStream(new ByteArrayOutputStream()))) {
            assertThat(server.reportsUsage()).isFalse();
        }
        PrintStream sink = new PrintStream(new ByteArrayOutputStream());
        assertThatThrownBy(() -> ChatStandaloneMain.start(new String[] {}, sink)).hasMessageContaining("SCRIPT.json");
        assertThatThrownBy(() -> ChatStandaloneMain.start(new String[] {"--port"}, sink)).hasMessageContaining("needs a value");
        assertThatThrownBy(() -> ChatStandaloneMain.start(new String[] {"--verbose", "s"}, sink)).hasMessageContaining("--verbose");
    }

    @Test
    void aRecordOrUrlFileThatCannotBeWrittenIsACommandLineErrorAndNoServerIsLeftRunning(@TempDir Path dir) throws Exception {
        // main() reports an UncheckedIOException as one line and exit 2; an IOException escaped it as a stack
        // trace while the started server kept the process alive, so a script waiting for the URL waited forever.
        Path script = dir.resolve("s.json");
        Files.writeString(script, "[]");
        Path missing = dir.resolve("no-such-dir").resolve("file");
        PrintStream sink = new PrintStream(new ByteArrayOutputStream());
        for (String option : new String[] {"--record", "--url-file"}) {
            int port;
            try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                port = probe.getLocalPort();
            }
            assertThatThrownBy(() -> ChatStandaloneMain.start(
                    new String[] {"--port", String.valueOf(port), option, missing.toString(), script.toString()}, sink))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessageContaining(option).hasMessageContaining(missing.toString());
            try (ServerSocket again = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertThat(again.getLocalPort()).as("the server was closed, its port is free").isEqualTo(port);
            }
        }
    }

    @Test
    void everyBadEntryIsNamedWithItsPathAndWhatIsWrong() {
        // Scripts are written by hand: each mistake names the entry and says what was wrong. A negative count or delay,
        // tool_calls that are not a list, a status that is no error and a reply that is not an object were reported
        // without the entry (the constructor's words alone) or as a NullPointerException.
        String[][] cases = {
            {"[{\"type\":\"stream_error\",\"after_chunks\":-1}]", "[0]: afterChunks must not be negative"},
            {"[{\"type\":\"disconnect\",\"after_chunks\":-2}]", "[0]: afterChunks must not be negative"},
            {"[{\"type\":\"delayed\",\"delay_ms\":-5,\"reply\":{\"type\":\"hang\"}}]", "[0]: delay must not be negative"},
            {"[{\"type\":\"completion\",\"tool_calls\":{\"id\":\"c\"}}]", "[0].tool_calls: must be an array of tool calls"},
            {"[{\"type\":\"completion\",\"tool_calls\":[\"c\"]}]", "[0].tool_calls[0]: a tool call needs an id and a name"},
            {"[{\"type\":\"error\",\"status\":200}]", "[0]: an error status is 4xx or 5xx, got 200"},
            {"[\"hang\"]", "[0]: must be an object"},
        };
        for (String[] bad : cases) {
            assertThatThrownBy(() -> ChatScript.parse(bad[0])).as(bad[0])
                    .isInstanceOf(IllegalArgumentException.class).hasMessage(bad[1]);
        }
    }

    @Test
    void scriptErrorsNameTheEntry() {
        assertThatThrownBy(() -> ChatScript.parse("[{\"type\":\"completion\"},{\"type\":\"nope\"}]"))
                .hasMessageContaining("[1]").hasMessageContaining("nope");
        assertThatThrownBy(() -> ChatScript.parse("{}")).hasMessageContaining("array");
        ChatScript script = ChatScript.parse("[{\"type\":\"completion\",\"tool_calls\":[{\"id\":\"c\",\"type\":\"function\","
                + "\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]},{\"type\":\"delayed\",\"delay_ms\":5,"
                + "\"reply\":{\"type\":\"error\",\"status\":429,\"headers\":{\"retry-after-ms\":\"10\"}}},"
                + "{\"type\":\"no_done\",\"completion\":{\"content\":\"x\"}},{\"type\":\"disconnect\",\"after_chunks\":2,"
                + "\"partial\":{\"content\":\"abc\"}},{\"type\":\"hang\"},{\"type\":\"malformed\"},"
                + "{\"type\":\"stream_error\"}]");
        assertThat(script.replies()).hasSize(7);
        assertThat(((ChatReply.Completion) script.replies().get(0)).finishReason()).isEqualTo("tool_calls");
        assertThat(((ChatReply.HttpError) ((ChatReply.Delayed) script.replies().get(1)).reply()).headers())
                .containsEntry("retry-after-ms", "10");
    }
}
