package dev.rein.agent;

import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.approval.ApprovalPolicy;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolOutput;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Progress is new resources touched and new facts, not only new result text. */
class ProgressLoopTest {

    private static Tool writeFile(boolean declaresResource) {
        Tool.Builder b = Tool.builder("write_file").description("Writes a file.").risk(Risk.WRITE)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},\"content\":{\"type\":\"string\"}},"
                        + "\"required\":[\"path\",\"content\"]}")
                .handler((args, ctx) -> "File written.");
        return (declaresResource ? b.resourceArgument("path") : b).build();
    }

    private static Tool readRecord() {
        return Tool.builder("read_record").description("Reads a record.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .handler((args, ctx) -> ToolOutput.text("OK").withSource("records/" + args.get("id").asText()))
                .build();
    }

    private static ScriptedModel tenCalls(String tool, String json) {
        List<ScriptedModel.Turn> turns = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            turns.add(toolCalls(call(tool, json.formatted(i))));
        }
        turns.add(text("all done"));
        return ScriptedModel.of(turns);
    }

    @Test
    void tenWritesToDifferentFilesWithTheSameResultTextAreProgress() {
        for (boolean declared : List.of(false, true)) {
            RunResult result = Agent.builder().model(tenCalls("write_file", "{\"path\":\"src/f%d.txt\",\"content\":\"x\"}"))
                    .tools(writeFile(declared)).approvalPolicy(ApprovalPolicy.NEVER).build().run("write ten files");
            assertThat(result.status()).as("resource argument declared: " + declared + "; " + result.message()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(result.steps()).isEqualTo(11);
        }
    }

    @Test
    void tenReadsOfDifferentSourcesWithTheSameTextAreNewFacts() {
        RunResult result = Agent.builder().model(tenCalls("read_record", "{\"id\":\"r%d\"}")).tools(readRecord()).build().run("check ten records");
        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void rewritingTheSameFileWithTheSameContentIsStillNoProgress() {
        List<ScriptedModel.Turn> turns = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            turns.add(toolCalls(call("write_file", "{\"path\":\"a.txt\",\"content\":\"x\"}"), call("write_file", "{\"path\":\"b.txt\",\"content\":\"x\"}")));
        }
        RunResult result = Agent.builder().model(ScriptedModel.of(turns)).tools(writeFile(false)).approvalPolicy(ApprovalPolicy.NEVER)
                .build().run("write");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo(Reasons.STALLED);
    }
}
