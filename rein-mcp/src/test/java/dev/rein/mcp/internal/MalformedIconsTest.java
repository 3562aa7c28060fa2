package dev.rein.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/**
 * Icons that are not what the protocol (2025-11-25) defines are left out of a tool or a resource link, each
 * with a warning naming the field, and the tool or the answer is used: an icon is only for a client to display.
 */
class MalformedIconsTest {
    private static final Map<String, Object> GOOD = Map.of("src", "https://example.com/a.png", "theme", "dark");

    @Test
    void aToolsBadIconsAreLeftOutEachToldOnceAndItsGoodOnesKept() {
        // Before, a tool with a bad icon became a malformed placeholder, which failed the whole server's start.
        List<String> told = new ArrayList<>();
        CancellingTransport transport = new CancellingTransport(new Passing(), () -> {}, new NegotiatedVersion(), told::add);
        Map<String, Object> listing = Map.of("tools", List.of(Map.of("name", "検索", "inputSchema", Map.of("type", "object"),
                "icons", List.of(Map.of("src", "https://example.com/x.png", "theme", "purple"), GOOD, Map.of("sizes", List.of("48x48"))))));

        Object checked = transport.unmarshalFrom(listing, new TypeRef<McpSchema.ListToolsResult>() {});
        transport.unmarshalFrom(listing, new TypeRef<McpSchema.ListToolsResult>() {});

        Map<?, ?> tool = (Map<?, ?>) ((List<?>) ((Map<?, ?>) checked).get("tools")).getFirst();
        assertThat(Malformed.of(castMeta(tool.get("_meta")))).isNull();
        assertThat(tool.get("icons")).isEqualTo(List.of(GOOD));
        assertThat(told).as("a listing made again does not warn again").containsExactly(
                "listed tool '検索' with \"icons[0].theme\" \"purple\", where the protocol allows only \"light\" and \"dark\"",
                "listed tool '検索' with \"icons[2]\" {\"sizes\":[\"48x48\"]} without \"src\", which the protocol requires (a string)");
    }

    @Test
    void iconsThatAreNotAnArrayAreLeftOutWhole() {
        List<String> told = new ArrayList<>();
        Object checked = Malformed.listing(Map.of("tools", List.of(Map.of("name", "t", "icons", "https://example.com/a.png"))),
                told::add);
        Map<?, ?> tool = (Map<?, ?>) ((List<?>) ((Map<?, ?>) checked).get("tools")).getFirst();
        assertThat(tool.containsKey("icons")).isFalse();
        assertThat(told).containsExactly("listed tool 't' with \"icons\" \"https://example.com/a.png\", where the protocol requires an array");
    }

    @Test
    void aResourceLinksBadIconIsLeftOutAndTheAnswerUsed() {
        // Before, a resource link with a bad icon made the whole answer a malformed result: the call's error.
        List<String> told = new ArrayList<>();
        Map<String, Object> link = Map.of("type", "resource_link", "uri", "file:///a.md", "name", "a.md",
                "icons", List.of(GOOD, Map.of("src", 5)));
        Object checked = Malformed.callResult(Map.of("content", List.of(Map.of("type", "text", "text", "first"), link)), told::add);

        Map<?, ?> result = (Map<?, ?>) checked;
        assertThat(result.get("isError")).isNull();
        Map<?, ?> kept = (Map<?, ?>) ((List<?>) result.get("content")).get(1);
        assertThat(kept.get("icons")).isEqualTo(List.of(GOOD));
        assertThat(kept.get("uri")).isEqualTo("file:///a.md");
        assertThat(told).containsExactly("answered a tool call with \"content[1].icons[1].src\" 5, where the protocol requires a string");
    }

    @Test
    void aServerInfosBadIconsAndWebsiteAreLeftOutAndTheAnswerUsed() {
        List<String> told = new ArrayList<>();
        Map<String, Object> answer = Map.of("protocolVersion", "2025-11-25", "capabilities", Map.of(),
                "serverInfo", Map.of("name", "s", "version", "1", "websiteUrl", Map.of("x", 1), "icons", List.of(5, GOOD)));
        Map<?, ?> info = (Map<?, ?>) ((Map<?, ?>) Malformed.initializeResult(answer, told::add)).get("serverInfo");
        assertThat(info.get("icons")).isEqualTo(List.of(GOOD));
        assertThat(info.containsKey("websiteUrl")).isFalse();
        assertThat(info.get("name")).isEqualTo("s");
        assertThat(told).containsExactly("answered initialize with \"serverInfo.icons[0]\" 5, where the protocol requires an object",
                "answered initialize with \"serverInfo.websiteUrl\" {\"x\":1}, where the protocol requires a string");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMeta(Object meta) {
        return (Map<String, Object>) meta;
    }

    /** A transport whose reading gives back what it is handed, so the test sees what the SDK would be given. */
    private static final class Passing implements McpClientTransport {
        @Override
        public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
            return Mono.empty();
        }

        @Override
        public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
            return Mono.empty();
        }

        @Override
        public Mono<Void> closeGracefully() {
            return Mono.empty();
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
            return (T) data;
        }

        @Override
        public List<String> protocolVersions() {
            return List.of();
        }
    }
}
