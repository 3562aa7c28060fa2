package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.testkit.FakeReply;
import dev.rein.tool.Tool;
import org.junit.jupiter.api.Test;

/** A tool call nested as deep as any JSON Rein reads still maps onto the wire, and the run ends normally. */
class DeepJsonTest extends FakeApi {

    @Test
    void aDeeplyNestedToolCallIsRefusedAndTheConversationContinues() {
        int depth = 998;
        String input = "{\"x\":" + "[".repeat(depth) + "1" + "]".repeat(depth) + "}";
        server.enqueue(FakeReply.message().toolUse("toolu_deep", "probe", input).build(), FakeReply.text("gave up"));
        Tool probe = Tool.builder("probe").description("Takes anything.").inputSchema("{\"type\":\"object\"}")
                .handler((args, ctx) -> "ok").build();

        RunResult result = Agent.builder().model(model).tools(probe).build().run("go");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("gave up");
        assertThat(server.requests()).hasSize(2);
        assertThat(server.requests().get(1).body().at("/messages/2/content/0/content").toString()).contains("levels deep");
    }

    @Test
    void aToolCallWhoseInputIsNotAnObjectIsRefusedAndTheConversationContinues() {
        // The API's tool inputs are objects; a server that streams another JSON value must not make
        // every later request fail to build ("the input of tool_use ... is not a JSON object").
        String stream = new Sse().messageStart("{\"input_tokens\":10,\"output_tokens\":1}")
                .block(0, "{\"type\":\"tool_use\",\"id\":\"toolu_arr\",\"name\":\"probe\",\"input\":{}}",
                        "{\"type\":\"input_json_delta\",\"partial_json\":\"[\\\"東京\\\"]\"}")
                .end("tool_use", "{\"output_tokens\":3}").build();
        server.enqueue(FakeReply.malformed(stream), FakeReply.text("gave up"));
        Tool probe = Tool.builder("probe").description("Takes an object.").inputSchema("{\"type\":\"object\"}")
                .handler((args, ctx) -> "ok").build();

        RunResult result = Agent.builder().model(model).tools(probe).build().run("go");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo("gave up");
        assertThat(server.requests()).hasSize(2);
        assertThat(server.requests().get(1).body().at("/messages/1/content/0/input").isObject()).isTrue();
        assertThat(server.requests().get(1).body().at("/messages/2/content/0/is_error").asBoolean()).isTrue();
    }
}
