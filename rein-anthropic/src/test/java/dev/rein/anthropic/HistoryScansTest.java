package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.ModelRequest;
import dev.rein.model.OpaqueBlock;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.internal.collect.GrowingList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A request with server tools finds the newest container in the history and the answers to calls from code; it reads
 * each message for that once, when a request first holds it, not the whole history at every step.
 */
class HistoryScansTest {

    @Test
    void aRequestWithServerToolsReadsOnlyTheMessagesItHasNotSeen() {
        RequestMapper mapper = new RequestMapper();
        AnthropicServerTools search = AnthropicServerTools.webSearch(null);
        GrowingList<Message> history = GrowingList.<Message>empty().with(Message.user("東京の天気を調べて"));
        for (int step = 1; step <= 200; step++) {
            history = history.with(Message.assistant(List.of(new TextBlock("調べます"),
                            new ToolUseBlock("toolu_" + step, "lookup", Json.object()))))
                    .with(Message.user(List.of(new ToolResultBlock("toolu_" + step, "晴れ " + step, false))));
            long before = mapper.messagesRead();

            JsonNode body = body(mapper, ModelRequest.builder("claude-sonnet-5").maxTokens(4096).messages(history)
                    .option(search).build());

            assertThat(body.has("container")).isFalse();
            assertThat(mapper.messagesRead() - before).as("messages read by request %s of %s messages", step, history.size())
                    .isLessThanOrEqualTo(2);
        }
        // a container named by a later turn is still found, and the newest one wins
        ObjectContainer first = new ObjectContainer("container_1");
        history = history.with(Message.assistant(List.of(new TextBlock("実行"), first.block())))
                .with(Message.user("次"));
        assertThat(body(mapper, ModelRequest.builder("claude-sonnet-5").maxTokens(4096).messages(history).option(search).build())
                .path("container").asText()).isEqualTo("container_1");
        history = history.with(Message.assistant(List.of(new TextBlock("再実行"), new ObjectContainer("container_2").block())))
                .with(Message.user("次"));
        assertThat(body(mapper, ModelRequest.builder("claude-sonnet-5").maxTokens(4096).messages(history).option(search).build())
                .path("container").asText()).isEqualTo("container_2");
    }

    /** A response's container as the history carries it. */
    private record ObjectContainer(String id) {
        OpaqueBlock block() {
            return Containers.of(Json.parse("{\"container\":{\"id\":\"" + id + "\",\"expires_at\":\"2026-12-05T15:00:00Z\"}}"));
        }
    }

    private static JsonNode body(RequestMapper mapper, ModelRequest request) {
        WireBuffer buffer = mapper.create(request);
        try {
            return Json.parse(buffer.text());
        } finally {
            buffer.release();
        }
    }
}
