package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.testkit.openai.ChatReply;
import dev.rein.testkit.openai.FakeChatCompletionsServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./rein --provider openai} as a real process against the fake Chat Completions server
 * through {@code OPENAI_BASE_URL}: the "done when" command, the missing key, Ctrl-C.
 */
class OpenAiCliProcessTest {
    private static final String GOAL = "今日から100日後は何月何日?";

    @TempDir
    Path dir;

    @Test
    void runJsonAgainstALocalServerWithoutAKey() throws Exception {
        try (FakeChatCompletionsServer server = FakeChatCompletionsServer.start()) {
            server.enqueue(ChatReply.completion().text("日付を確認します。")
                    .toolCall("call_01", "get_current_time", "{\"timezone\":\"Asia/Tokyo\"}").usage(1120, 30, 1000).build());
            server.enqueue(ChatReply.completion().text("100日後は2027年3月11日(木)です。").usage(1200, 25, 1100).build());

            LauncherProcess.Outcome outcome = new LauncherProcess(dir).env("LANG", "C").env("LC_ALL", "C")
                    .env("OPENAI_BASE_URL", server.baseUrl())
                    .run("run", "--provider", "openai", "--model", "qwen3:8b", "--price", "0,0", "--json", GOAL);

            assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
            assertThat(outcome.stdout().lines()).hasSize(1);
            JsonNode json = Json.parse(outcome.stdout());
            assertThat(json.get("status").asText()).isEqualTo("SUCCEEDED");
            assertThat(json.get("answer").asText()).isEqualTo("100日後は2027年3月11日(木)です。");
            assertThat(json.at("/usage/input_tokens").asLong()).isEqualTo(120 + 100);
            assertThat(json.at("/usage/cache_read_input_tokens").asLong()).isEqualTo(2100);
            assertThat(json.at("/usage/cache_creation_input_tokens").asLong()).isZero();
            assertThat(json.at("/usage/output_tokens").asLong()).isEqualTo(55);
            assertThat(server.requests()).hasSize(2);
            assertThat(server.requests().get(0).header("authorization")).isNull();
            assertThat(server.requests().get(0).body().at("/messages/0/content").asText()).isEqualTo(GOAL);
            assertThat(server.requests().get(1).body().at("/messages/2/tool_call_id").asText()).isEqualTo("call_01");
        }
    }

    @Test
    void thePublicApiWithoutAKeyIsExitTwoWithOneLine() throws Exception {
        LauncherProcess.Outcome outcome = new LauncherProcess(dir).env("REIN_PROVIDER", "openai").run("run", "hello");

        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderrLines()).singleElement().asString().contains("OPENAI_API_KEY");
        assertThat(outcome.stdout()).isEmpty();
    }

    @Test
    void ctrlCCancelsARunWaitingForTheServer() throws Exception {
        String signal = LauncherProcess.sigintIgnored() ? "TERM" : "INT";
        try (FakeChatCompletionsServer server = FakeChatCompletionsServer.start()) {
            server.enqueue(new ChatReply.Hang());
            Path trace = dir.resolve("cancelled.jsonl");
            LauncherProcess.Started started = new LauncherProcess(dir).env("OPENAI_BASE_URL", server.baseUrl())
                    .start("run", "--provider", "openai", "--json", "--trace", trace.toString(), "wait for me");
            server.takeRequest(Duration.ofSeconds(30));

            started.signal(signal);
            LauncherProcess.Outcome outcome = started.await(Duration.ofSeconds(30));

            assertThat(outcome.exitCode()).as(outcome.stderr()).isEqualTo(ExitCodes.CANCELLED);
            assertThat(Json.parse(outcome.stdout()).get("status").asText()).isEqualTo("CANCELLED");
            List<String> lines = Files.readAllLines(trace);
            assertThat(Json.parse(lines.get(lines.size() - 1)).get("type").asText()).isEqualTo("run_finished");
        }
    }
}
