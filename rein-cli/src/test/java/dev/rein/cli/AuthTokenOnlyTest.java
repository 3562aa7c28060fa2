package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.testkit.FakeMessagesServer;
import dev.rein.testkit.FakeReply;
import dev.rein.testkit.RecordedRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Probe (passed at once): ANTHROPIC_AUTH_TOKEN alone, without ANTHROPIC_API_KEY, is enough for every command that builds
 * an Anthropic model, as docs/cli.md says for the provider: each sends the token as a bearer token, sends no x-api-key,
 * and none falls back to the scripted model or asks for the key.
 */
class AuthTokenOnlyTest {
    private static final String TOKEN = "gw-token-1234";

    private static InProcessCli cli() {
        return new InProcessCli().models(ProviderModels::create).env("ANTHROPIC_AUTH_TOKEN", TOKEN);
    }

    private static void assertBearerOnly(FakeMessagesServer server, String command) {
        assertThat(server.requests()).as(command).isNotEmpty();
        for (RecordedRequest request : server.requests()) {
            assertThat(request.header("authorization")).as(command).isEqualTo("Bearer " + TOKEN);
            assertThat(request.header("x-api-key")).as(command).isNull();
        }
    }

    @Test
    void runAndResumeSendTheTokenAlone() throws Exception {
        try (FakeMessagesServer server = FakeMessagesServer.start()) {
            server.enqueue(FakeReply.message().toolUse("toolu_1", "send_message",
                    "{\"to\":\"sato@example.jp\",\"subject\":\"会議\",\"body\":\"明日10時に変更です。\"}").build(),
                    FakeReply.message().text("送信しました。").build());
            InProcessCli cli = cli();
            InProcessCli.Outcome run = cli.run("run", "--base-url", server.baseUrl(), "--tools", "send_message", "佐藤さんに連絡して");
            assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCodes.WAITING_APPROVAL);
            String id;
            try (var files = Files.list(cli.home().resolve("runs"))) {
                id = files.findFirst().orElseThrow().getFileName().toString().replace(".json", "");
            }
            assertThat(cli.run("approve", id).exitCode()).isZero();
            InProcessCli.Outcome resumed = cli.run("resume", id, "--json");
            assertThat(resumed.exitCode()).as(resumed.stderr()).isZero();
            assertThat(Json.parse(resumed.stdout()).get("answer").asText()).isEqualTo("送信しました。");
            assertBearerOnly(server, "run, resume");
        }
    }

    @Test
    void evalWithAModelSendsTheTokenAlone(@TempDir Path dir) throws Exception {
        Path suite = dir.resolve("suite.yaml");
        Files.writeString(suite, """
                suite: one
                environment: {name: file_tree}
                agent: {toolsets: [files_read]}
                tasks:
                  - id: hello
                    goal: こんにちはと言って
                    expect: {answer_contains: [こんにちは]}
                    script:
                      - text: こんにちは
                """);
        try (FakeMessagesServer server = FakeMessagesServer.start()) {
            server.enqueue(FakeReply.message().text("こんにちは").build());
            InProcessCli.Outcome outcome = cli().run("eval", suite.toString(), "--model", "claude-sonnet-4-5", "--base-url",
                    server.baseUrl(), "--trials", "1");
            assertThat(outcome.exitCode()).as(outcome.stdout() + outcome.stderr()).isZero();
            assertBearerOnly(server, "eval");
        }
    }

    @Test
    void anExampleAndItsEvaluationRunOnTheRealModelWithTheTokenAlone() {
        try (FakeMessagesServer server = FakeMessagesServer.start()) {
            server.enqueue(FakeReply.message().text("100日後は分かりません。").build());
            InProcessCli.Outcome demo = cli().run("example", "date", "--base-url", server.baseUrl());
            assertThat(demo.exitCode()).as(demo.stdout() + demo.stderr()).isNotEqualTo(ExitCodes.USAGE);
            assertThat(demo.stderr()).doesNotContain("runs offline").doesNotContain("is not set");
            assertThat(demo.stdout()).doesNotContain("scripted (offline");
            assertBearerOnly(server, "example");
        }
        try (FakeMessagesServer server = FakeMessagesServer.start()) {
            InProcessCli.Outcome eval = cli().run("example", "date", "--eval", "--trials", "1", "--parallel", "1", "--base-url",
                    server.baseUrl());
            assertThat(eval.exitCode()).as(eval.stdout() + eval.stderr()).isNotEqualTo(ExitCodes.USAGE);
            assertThat(eval.stderr()).doesNotContain("is not set");
            assertBearerOnly(server, "example --eval");
        }
    }
}
