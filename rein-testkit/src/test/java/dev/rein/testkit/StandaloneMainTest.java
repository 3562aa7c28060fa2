package dev.rein.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StandaloneMainTest {

    @Test
    void servesTheScriptPrintsTheUrlAndRecordsEachRequest(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("script.json");
        Files.writeString(script, "[{\"type\":\"message\",\"content\":[{\"type\":\"text\",\"text\":\"scripted\"}]}]");
        Path record = dir.resolve("requests.jsonl");
        Path urlFile = dir.resolve("url");
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        try (FakeMessagesServer server = StandaloneMain.start(
                new String[] {"--record", record.toString(), "--url-file", urlFile.toString(), script.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8))) {
            String printed = out.toString(StandardCharsets.UTF_8);
            assertThat(printed).isEqualTo(server.baseUrl() + System.lineSeparator());
            assertThat(Files.readString(urlFile)).isEqualTo(server.baseUrl() + "\n");

            Api api = new Api(server);
            assertThat(Api.json(api.messages(Api.userRequest("hello", false))).at("/content/0/text").asText())
                    .isEqualTo("scripted");

            List<String> lines = Files.readAllLines(record);
            assertThat(lines).hasSize(1);
            JsonNode recorded = Json.MAPPER.readTree(lines.get(0));
            assertThat(recorded.path("method").asText()).isEqualTo("POST");
            assertThat(recorded.path("path").asText()).isEqualTo("/v1/messages");
            assertThat(recorded.path("headers").path("x-api-key").get(0).asText()).isEqualTo("test-key");
            assertThat(recorded.at("/body/messages/0/content").asText()).isEqualTo("hello");
            assertThat(recorded.path("raw_body").asText()).isEqualTo(Api.userRequest("hello", false));
        }
    }

    @Test
    void parsesOptions() {
        StandaloneMain.Options options = StandaloneMain.parse(new String[] {"--port", "8123", "--no-validate", "s.json"});

        assertThat(options.port()).isEqualTo(8123);
        assertThat(options.validate()).isFalse();
        assertThat(options.script()).isEqualTo(Path.of("s.json"));
        assertThat(options.record()).isNull();
    }

    @Test
    void rejectsBadCommandLines() {
        assertThatThrownBy(() -> StandaloneMain.parse(new String[] {})).hasMessageContaining("SCRIPT.json");
        assertThatThrownBy(() -> StandaloneMain.parse(new String[] {"--port"})).hasMessageContaining("needs a value");
        assertThatThrownBy(() -> StandaloneMain.parse(new String[] {"--port", "x", "s"})).hasMessageContaining("number");
        assertThatThrownBy(() -> StandaloneMain.parse(new String[] {"--verbose", "s"})).hasMessageContaining("--verbose");
        assertThatThrownBy(() -> StandaloneMain.parse(new String[] {"a", "b"})).hasMessageContaining("unexpected");
    }

    /** The standalone server run as a process, as a shell script starts it: exit code and standard error. */
    private static String[] runProcess(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), FakeMessagesServer.class.getName()));
        command.addAll(List.of(args));
        Path errFile = Files.createTempFile("fake-server", ".err");
        Process process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(errFile.toFile()).start();
        boolean ended = process.waitFor(60, TimeUnit.SECONDS);
        if (!ended) {
            process.destroyForcibly().waitFor();
        }
        String err = Files.readString(errFile, StandardCharsets.UTF_8);
        Files.delete(errFile);
        if (!ended) {
            throw new AssertionError("the server did not end: " + err);
        }
        return new String[] {String.valueOf(process.exitValue()), err};
    }

    @Test
    void aScriptThatCannotBeReadOrABusyPortIsOneLineAndExitCode2NotAStackTrace(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("missing.json");
        String[] noScript = runProcess(missing.toString());
        assertThat(noScript[0]).isEqualTo("2");
        assertThat(noScript[1]).startsWith("cannot read the script " + missing + ": no such file")
                .doesNotContain("Exception", "\tat ");

        Path script = dir.resolve("script.json");
        Files.writeString(script, "[]");
        try (ServerSocket busy = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            String[] taken = runProcess("--port", String.valueOf(busy.getLocalPort()), script.toString());
            assertThat(taken[0]).isEqualTo("2");
            assertThat(taken[1]).startsWith("cannot start the fake Messages API server on port " + busy.getLocalPort() + ": ")
                    .doesNotContain("Exception", "\tat ");
        }
    }

    @Test
    void aRecordOrUrlFileThatCannotBeWrittenIsOneLineAndExitCode2NotAServerLeftRunning(@TempDir Path dir) throws Exception {
        Path script = dir.resolve("script.json");
        Files.writeString(script, "[]");
        Path nowhere = dir.resolve("missing-folder");

        String[] record = runProcess("--record", nowhere.resolve("requests.jsonl").toString(), script.toString());
        assertThat(record[0]).isEqualTo("2");
        assertThat(record[1]).startsWith("cannot write the record file " + nowhere.resolve("requests.jsonl")
                + ": its folder does not exist").doesNotContain("Exception", "\tat ");

        String[] url = runProcess("--url-file", nowhere.resolve("url").toString(), script.toString());
        assertThat(url[0]).isEqualTo("2");
        assertThat(url[1]).startsWith("cannot write the URL file " + nowhere.resolve("url") + ": its folder does not exist")
                .doesNotContain("Exception", "\tat ");
    }
}
