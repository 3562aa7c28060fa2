package dev.rein.eval.trace;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.eval.cli.EvalCommandSupport;
import dev.rein.eval.file.EvalRegistry;
import dev.rein.eval.run.EvalRunner;
import dev.rein.json.Json;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import dev.rein.trace.JsonlTraceListener;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A conversation recorded into one trace (the run and its reply turns) is one regression task of rein eval DIR. */
class ConversationTraceTest {
    @Test
    void aConversationsTraceReplaysEveryTurnAsOneTask(@TempDir Path dir) throws Exception {
        Path folder = Files.createDirectories(dir.resolve("traces"));
        Tool search = Tool.builder("search").description("Searches.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}")
                .handler((args, ctx) -> "結果: " + args.get("q").asText() + " 🦊").build();
        Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("search", "{\"q\":\"東京\"}")), text("東京は晴れです"),
                        text("大阪は雨です ☔")))
                .tools(search).listener(JsonlTraceListener.to(folder.resolve("会話.jsonl"))).build();
        RunResult first = agent.run("東京の天気は?");
        agent.reply(first.runId(), "大阪は?");

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = EvalCommandSupport.run(new EvalCommandSupport.Options(folder, 0, null, null, null, true,
                        EvalRunner.DEFAULT_PARALLELISM, null, null), EvalRegistry.load(),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        String shown = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertThat(code).as(shown).isEqualTo(EvalCommandSupport.OK);
        JsonNode trial = Json.parse(out.toString(StandardCharsets.UTF_8)).at("/trials/0");
        assertThat(trial.get("verdict").asText()).as(shown).isEqualTo("passed");
        assertThat(trial.at("/findings/0/message").asText()).endsWith("no divergence in 3 of 3 recorded model calls");
    }
}
