package dev.rein.cli;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.testkit.ScriptedModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rein run --json-stream} and {@code --output-schema FILE}, in-process with a scripted model. */
class StreamAndSchemaOptionsTest {
    private final InProcessCli cli = new InProcessCli();

    @Test
    void jsonStreamPrintsOneEventPerLineWithTheTraceNamesAndTheResultLast() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("calculate", "{\"expression\":\"2 + 3\"}")), text("2 + 3 = 5"));

        InProcessCli.Outcome outcome = cli.models((name, env) -> model).run("run", "--json-stream", "--tools", "calculate", "add 2 and 3");

        assertThat(outcome.exitCode()).isZero();
        List<JsonNode> lines = outcome.stdout().lines().map(Json::parse).toList();
        List<String> types = lines.stream().map(l -> l.get("type").asText()).toList();
        assertThat(types.get(0)).isEqualTo("run_started");
        assertThat(types).containsSubsequence("model_request", "model_response", "tool_call", "tool_result", "text_delta",
                "run_finished", "result");
        JsonNode last = lines.get(lines.size() - 1);
        assertThat(last.get("type").asText()).isEqualTo("result");
        assertThat(last.get("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(last.get("answer").asText()).isEqualTo("2 + 3 = 5");
    }

    @Test
    void jsonStreamTraceEventsAreTheTraceFilesLines(@TempDir Path dir) throws IOException {
        Path trace = dir.resolve("run.jsonl");
        ScriptedModel model = ScriptedModel.of(toolCalls(call("calculate", "{\"expression\":\"2 + 3\"}")), text("答えは5"));

        InProcessCli.Outcome outcome = cli.models((name, env) -> model).run("run", "--json-stream", "--trace", trace.toString(),
                "--tools", "calculate", "2と3を足して");

        assertThat(outcome.exitCode()).isZero();
        List<String> traceEvents = outcome.stdout().lines()
                .filter(l -> !l.startsWith("{\"type\":\"text_delta\"") && !l.startsWith("{\"type\":\"result\"")).toList();
        assertThat(traceEvents).as("e.g. max_cost_usd 1.00 stays 1.00").isEqualTo(Files.readAllLines(trace));
    }

    @Test
    void jsonAndJsonStreamTogetherAreRefused() {
        InProcessCli.Outcome outcome = cli.run("run", "--json", "--json-stream", "hi");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderr()).contains("--json and --json-stream cannot be used together");
    }

    @Test
    void outputSchemaRepairsAnInvalidAnswerAndABadFileIsNamed(@TempDir Path dir) throws IOException {
        Path schema = dir.resolve("verdict.json");
        Files.writeString(schema, "{\"type\":\"object\",\"properties\":{\"ok\":{\"type\":\"boolean\"}},\"required\":[\"ok\"]}");
        ScriptedModel model = ScriptedModel.of(text("yes it is"), text("{\"ok\":true}"));

        InProcessCli.Outcome outcome = cli.models((name, env) -> model)
                .run("run", "--json", "--output-schema", schema.toString(), "is it ok?");

        assertThat(outcome.exitCode()).isZero();
        assertThat(Json.parse(outcome.stdout()).get("answer").asText()).isEqualTo("{\"ok\":true}");
        assertThat(model.requests().get(0).systemText()).contains("JSON Schema (output)");
        assertThat(model.requests().get(1).messages().get(2).text()).contains("not valid output");

        Files.writeString(schema, "{\"type\":");
        InProcessCli.Outcome bad = cli.run("run", "--output-schema", schema.toString(), "is it ok?");
        assertThat(bad.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.stderr()).contains("--output-schema").contains("is not JSON");
        InProcessCli.Outcome missing = cli.run("run", "--output-schema", dir.resolve("nope.json").toString(), "is it ok?");
        assertThat(missing.stderr()).contains("no such file");
    }

    @Test
    void aTypedAnswerInAFencedCodeBlockIsPrintedAsTheJsonItHolds(@TempDir Path dir) throws IOException {
        Path schema = dir.resolve("verdict.json");
        Files.writeString(schema, "{\"type\":\"object\",\"properties\":{\"決定\":{\"type\":\"string\"}},\"required\":[\"決定\"]}");
        String fenced = "```json\n{\"決定\": \"返金\"}\n```";

        InProcessCli.Outcome plain = cli.models((name, env) -> ScriptedModel.of(text(fenced)))
                .run("run", "--output-schema", schema.toString(), "返金すべき?");
        assertThat(plain.exitCode()).isZero();
        assertThat(plain.stdout().strip()).isEqualTo("{\"決定\": \"返金\"}");

        InProcessCli.Outcome json = cli.models((name, env) -> ScriptedModel.of(text(fenced)))
                .run("run", "--json", "--output-schema", schema.toString(), "返金すべき?");
        assertThat(Json.parse(Json.parse(json.stdout()).get("answer").asText()).get("決定").asText()).isEqualTo("返金");

        InProcessCli.Outcome stream = cli.models((name, env) -> ScriptedModel.of(text(fenced)))
                .run("run", "--json-stream", "--output-schema", schema.toString(), "返金すべき?");
        List<String> lines = stream.stdout().lines().toList();
        JsonNode result = Json.parse(lines.get(lines.size() - 1));
        assertThat(result.get("answer").asText()).isEqualTo("{\"決定\": \"返金\"}");
    }

    /**
     * A missing --output-schema file, or one that is not UTF-8, says what to do too, as a folder given there does. Before:
     * "--output-schema: no such file: F" and "--output-schema: F is not UTF-8 text", what was wrong only.
     */
    @Test
    void aMissingOrNonUtf8OutputSchemaSaysWhatToGive(@TempDir Path dir) throws IOException {
        Path missing = dir.resolve("スキーマ.json");
        InProcessCli.Outcome outcome = cli.models((name, env) -> {
            throw new AssertionError("no model is built for a usage error");
        }).run("run", "--output-schema", missing.toString(), "判定して");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stdout()).isEmpty();
        assertThat(outcome.stderrLines()).containsExactly("rein run: --output-schema: no such file: " + missing
                + "; give the path of a JSON Schema (draft 2020-12) file, e.g. verdict.schema.json");

        Path latin1 = Files.write(dir.resolve("latin1.json"), new byte[] {'{', '"', 'd', (byte) 0xe9, '"', ':', '1', '}'});
        assertThat(cli.run("run", "--output-schema", latin1.toString(), "判定して").stderrLines()).containsExactly(
                "rein run: --output-schema: " + latin1 + " is not UTF-8 text; save it as UTF-8");
    }

    /**
     * A folder given as --output-schema is one line saying so and what to give. Before: "--output-schema: cannot read
     * スキーマ: Is a directory", the JDK's words.
     */
    @Test
    void aFolderAsTheOutputSchemaSaysItIsAFolder(@TempDir Path dir) throws IOException {
        Path folder = Files.createDirectory(dir.resolve("スキーマ"));
        InProcessCli.Outcome outcome = cli.models((name, env) -> {
            throw new AssertionError("no model is built for a usage error");
        }).run("run", "--output-schema", folder.toString(), "判定して");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stdout()).isEmpty();
        assertThat(outcome.stderrLines()).singleElement().asString().isEqualTo("rein run: --output-schema: " + folder
                + " is a folder, not a file; give a JSON Schema (draft 2020-12) file, e.g. verdict.schema.json");
    }
}
