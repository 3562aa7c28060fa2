package dev.rein.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class BatchSplitterTest {
    private static String through(String stream, int chunk) {
        return through(new BatchSplitter(), stream, chunk);
    }

    private static String through(BatchSplitter splitter, String stream, int chunk) {
        byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder();
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < bytes.length; i += chunk) {
            for (ByteBuffer b : splitter.split(List.of(ByteBuffer.wrap(bytes, i, Math.min(chunk, bytes.length - i)).slice()))) {
                byte[] copy = new byte[b.remaining()];
                b.get(copy);
                all.writeBytes(copy);
            }
        }
        out.append(all.toString(StandardCharsets.UTF_8));
        return out.toString();
    }

    @Test
    void aBatchLineBecomesOneEventPerMessageInAnyChunksAndEverythingElsePassesUnchanged() {
        String other = "id: 7\nevent: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n: comment\ndata: [not json\n\ndata:\n\n";
        String batch = "id: 8\r\ndata: [{\"jsonrpc\":\"2.0\",\"method\":\"n\"},{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"t\":\"日本\"}}]\r\n\r\n";
        String expected = other + "id: 8\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"n\"}\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{\"t\":\"日本\"}}\r\n\r\n";
        for (int chunk : new int[] {1, 3, 7, 1000}) {
            assertThat(through(other + batch, chunk)).as("chunks of %d bytes", chunk).isEqualTo(expected);
        }
        // An array that is not a batch of messages (numbers, empty) is passed on as it came.
        assertThat(through("data:[1,2]\n\ndata: []\n\n", 2)).isEqualTo("data:[1,2]\n\ndata: []\n\n");
    }

    @Test
    void messagesLeftOutAreDroppedWithTheirLineBreakSoTheEventKeepsItsIdAndNoData() {
        String idless = "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}";
        String note = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}";
        String stream = "id: 1\r\ndata: " + idless + "\r\n\r\ndata:" + idless + "\n\ndata: [" + idless + "," + note + "]\n\n"
                + "data: " + note + "\n\ndata: {not json\n\n";
        String expected = "id: 1\r\n\r\n\ndata: " + note + "\n\ndata: " + note + "\n\ndata: {not json\n\n";
        for (int chunk : new int[] {1, 2, 5, 1000}) {
            assertThat(through(new BatchSplitter(message -> message.path("id").isNull()), stream, chunk)).as("chunks of %d", chunk)
                    .isEqualTo(expected);
        }
    }
}
