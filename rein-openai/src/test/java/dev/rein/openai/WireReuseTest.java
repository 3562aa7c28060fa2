package dev.rein.openai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.ModelRequest;
import dev.rein.model.OpaqueBlock;
import dev.rein.model.OutputSchema;
import dev.rein.model.TextBlock;
import dev.rein.model.ThinkingBlock;
import dev.rein.model.ToolChoice;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.testkit.openai.ChatReply;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each history message and tool definition is converted to its wire form once: the bytes sent are
 * exactly those of the mapper that rebuilt everything on every call (kept as test resources), and
 * an earlier message's wire form is the same object in every later request.
 */
class WireReuseTest extends FakeChat {

    /** A history with every kind of turn: text, calls with kept argument text, results out of order, errors. */
    static List<Message> history() {
        Message assistant1 = Message.assistant(List.of(new ThinkingBlock("hmm", "sig"), new TextBlock("Reading both — «ok»."),
                new ToolUseBlock("call_1", "search", Json.parse("{\"q\":\"a\",\"n\":2}")),
                new ToolUseBlock("call_2", "fetch", Json.parse("{\"url\":\"https://e.example/ü\"}")),
                new OpaqueBlock(RawArguments.TYPE, Json.object().put("type", RawArguments.TYPE)
                        .put("tool_call_id", "call_2").put("arguments", "{\"url\": \"https://e.example/ü\"}"))));
        Message results1 = Message.user(List.of(new ToolResultBlock("call_2", "page\ntext \"quoted\"", false),
                new ToolResultBlock("call_1", "no such file", true), new TextBlock("Also: be brief."), new TextBlock("日本語")));
        Message assistant2 = Message.assistant(List.of(new ToolUseBlock("call_3", "search", Json.parse("{\"q\":\"c\"}"))));
        Message results2 = Message.user(List.of(new ToolResultBlock("call_3", "C 😀", false)));
        Message assistant3 = Message.assistant(List.of(new TextBlock("Done: a, c.")));
        return List.of(Message.user("read a and b"), assistant1, results1, assistant2, results2, assistant3, Message.user("thanks"));
    }

    static ModelRequest.Builder full(List<Message> history) {
        OutputSchema schema = OutputSchema.fromJson("the answer!",
                "{\"type\":\"object\",\"properties\":{\"answer\":{\"type\":\"string\"}}}");
        return ModelRequest.builder("gpt-test").maxTokens(512).system("You are terse.\nAnswer in English.")
                .messages(history).tools(List.of(tool("search"), tool("fetch"))).toolChoice(ToolChoice.tool("search"))
                .temperature(0.25).topP(0.5).stopSequences(List.of("END", "STOP"))
                .option(schema).option(OpenAiStructuredOutput.ENABLED);
    }

    static ModelRequest.Builder minimal(List<Message> history) {
        return ModelRequest.builder("gpt-test").maxTokens(64).messages(history).tools(List.of(tool("search"), tool("fetch")));
    }

    @Test
    void requestBodiesAreByteForByteThoseOfTheRebuildingMapper() throws Exception {
        List<Message> history = history();
        for (int n = 1; n <= history.size(); n += 2) { // the fake refuses a history ending in unanswered calls
            List<Message> prefix = history.subList(0, n);
            assertThat(sent(full(prefix))).as("full request, %d messages", n).isEqualTo(golden("full-" + n));
            assertThat(sent(minimal(prefix))).as("minimal request, %d messages", n).isEqualTo(golden("minimal-" + n));
        }
    }

    @Test
    void anEarlierMessageIsConvertedOnceAndReusedByEveryLaterRequest() throws Exception {
        List<Message> history = history();
        sent(full(history.subList(0, 3)));
        assertThat(model.requests().converted()).isEqualTo(3);
        String body5 = sent(full(history.subList(0, 5)));
        assertThat(model.requests().converted()).as("only the two new messages").isEqualTo(5);
        sent(full(history));
        sent(minimal(history));
        assertThat(model.requests().converted()).as("the settings differ, the history's wire form does not").isEqualTo(7);
        assertThat(sent(full(history.subList(0, 5)))).isEqualTo(body5);
        assertThat(model.requests().converted()).isEqualTo(7);
    }

    @Test
    void aUserTurnAfterAnotherAssistantTurnIsOrderedByThatTurnsCalls() throws Exception {
        List<Message> history = history();
        Message results = history.get(2);
        sent(full(history.subList(0, 3)));
        // The same results after a turn that made the calls in the other order: tool messages follow it.
        Message swapped = Message.assistant(List.of(new ToolUseBlock("call_2", "fetch", Json.parse("{\"url\":\"x\"}")),
                new ToolUseBlock("call_1", "search", Json.parse("{\"q\":\"a\"}"))));
        String body = sent(full(List.of(history.get(0), swapped, results)));
        assertThat(Json.parse(body).at("/messages/3/tool_call_id").asText()).isEqualTo("call_2");
        assertThat(Json.parse(body).at("/messages/4/tool_call_id").asText()).isEqualTo("call_1");
    }

    private String sent(ModelRequest.Builder request) throws Exception {
        server.enqueue(ChatReply.text("ok"));
        call(request);
        return server.lastRequest().rawBody();
    }

    private static String golden(String name) throws IOException {
        String resource = "wire-" + name + ".json";
        try (InputStream in = WireReuseTest.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Writes the golden bodies from the current mapper (run once, by hand, when the wire format changes on purpose). */
    @Test
    void writeGolden() throws Exception {
        String dir = System.getProperty("rein.golden.dir");
        if (dir == null) {
            return;
        }
        List<Message> history = history();
        for (int n = 1; n <= history.size(); n += 2) { // the fake refuses a history ending in unanswered calls
            List<Message> prefix = history.subList(0, n);
            Files.writeString(Path.of(dir, "wire-full-" + n + ".json"), sent(full(prefix)), StandardCharsets.UTF_8);
            Files.writeString(Path.of(dir, "wire-minimal-" + n + ".json"), sent(minimal(prefix)), StandardCharsets.UTF_8);
        }
    }
}
