package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.ModelRequest;
import dev.rein.model.TextBlock;
import dev.rein.model.ThinkingBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.testkit.FakeReply;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where cache_control breakpoints land, read from the request bodies the fake server recorded. */
class PromptCachingTest extends FakeApi {

    /** Paths of every cache_control in a request body, e.g. "system/0" or "messages/2/content/1". */
    private static List<String> breakpoints(JsonNode body) {
        List<String> paths = new ArrayList<>();
        JsonNode system = body.path("system");
        for (int i = 0; i < system.size(); i++) {
            if (system.get(i).has("cache_control")) {
                paths.add("system/" + i);
            }
        }
        JsonNode tools = body.path("tools");
        for (int i = 0; i < tools.size(); i++) {
            if (tools.get(i).has("cache_control")) {
                paths.add("tools/" + i);
            }
        }
        JsonNode messages = body.path("messages");
        for (int m = 0; m < messages.size(); m++) {
            JsonNode content = messages.get(m).path("content");
            for (int b = 0; b < content.size(); b++) {
                if (content.get(b).has("cache_control")) {
                    paths.add("messages/" + m + "/content/" + b);
                }
            }
        }
        return paths;
    }

    private static Message toolTurn(String id) {
        return Message.assistant(List.of(new ToolUseBlock(id, "search", Json.parse("{\"q\":\"x\"}"))));
    }

    private static Message toolResult(String id) {
        return Message.user(List.of(new ToolResultBlock(id, "result " + id, false)));
    }

    @Test
    void cachingOffSendsNoBreakpoints() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        call(request("hi").system("sys").tools(List.of(tool("search"))).option(AnthropicOptions.caching(PromptCaching.DISABLED)));
        assertThat(lastBody().toString()).doesNotContain("cache_control");
    }

    @Test
    void firstStepMarksTheSystemPromptAndTheNewestBlock() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        call(cached(request("hi").system(List.of(new TextBlock("rules"), new TextBlock("more rules")))
                .tools(List.of(tool("search"), tool("fetch")))));
        assertThat(breakpoints(lastBody())).containsExactly("system/1", "messages/0/content/0");
        assertThat(lastBody().at("/system/1/cache_control")).isEqualTo(Json.parse("{\"type\":\"ephemeral\"}"));
    }

    @Test
    void withoutSystemPromptTheLastToolCarriesThePrefixBreakpoint() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        call(cached(request("hi").tools(List.of(tool("search"), tool("fetch")))));
        assertThat(breakpoints(lastBody())).containsExactly("tools/1", "messages/0/content/0");
    }

    @Test
    void theBreakpointMovesToTheNewestMessageEachStep() throws Exception {
        server.enqueue(FakeReply.text("a"), FakeReply.text("b"));
        ModelRequest.Builder step1 = cached(request("go").system("rules").tools(List.of(tool("search"))));
        call(step1);
        assertThat(breakpoints(lastBody())).containsExactly("system/0", "messages/0/content/0");

        call(step1.addMessage(toolTurn("toolu_1")).addMessage(toolResult("toolu_1")));
        assertThat(breakpoints(lastBody())).containsExactly("system/0", "messages/2/content/0");
    }

    @Test
    void thinkingAndOpaqueBlocksAreNeverMarked() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        Message assistant = Message.assistant(List.of(new TextBlock("earlier"), new ThinkingBlock("hmm", "sig")));
        call(cached(request("go").addMessage(assistant)));
        assertThat(breakpoints(lastBody())).containsExactly("messages/1/content/0");
        assertThat(lastBody().at("/messages/1/content/1/cache_control").isMissingNode()).isTrue();
    }

    @Test
    void oneHourTtlIsSpelledOut() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        call(request("hi").system("rules").option(AnthropicOptions.caching(new PromptCaching(true, CacheTtl.ONE_HOUR))));
        assertThat(lastBody().at("/system/0/cache_control")).isEqualTo(Json.parse("{\"type\":\"ephemeral\",\"ttl\":\"1h\"}"));
        assertThat(lastBody().at("/messages/0/content/0/cache_control")).isEqualTo(
                Json.parse("{\"type\":\"ephemeral\",\"ttl\":\"1h\"}"));
    }

    @Test
    void aStepThatAddsManyBlocksGetsIntermediateBreakpointsWithinTheLookbackWindow() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        // Step n-1 ended at the user message "go" (flat block 0); this step adds one assistant turn
        // with 20 parallel tool calls and their 20 results: 40 new blocks.
        List<ContentBlock> uses = new ArrayList<>();
        List<ContentBlock> results = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            uses.add(new ToolUseBlock("toolu_" + i, "search", Json.parse("{\"q\":\"" + i + "\"}")));
            results.add(new ToolResultBlock("toolu_" + i, "r" + i, false));
        }
        call(cached(request("go").system("rules").tools(List.of(tool("search")))
                .addMessage(Message.assistant(uses)).addMessage(Message.user(results))));

        List<String> marks = breakpoints(lastBody());
        assertThat(marks).hasSize(4).startsWith("system/0")
                .containsExactly("system/0", "messages/1/content/14", "messages/2/content/9", "messages/2/content/19");
        // Flat block positions: "go" = 0, tool uses 1..20, results 21..40: marks at 15, 30, 40.
        List<Integer> flat = List.of(0, 15, 30, 40);
        for (int i = 1; i < flat.size(); i++) {
            assertThat(flat.get(i) - flat.get(i - 1)).isLessThanOrEqualTo(CacheBreakpoints.INTERMEDIATE_AFTER);
        }
    }

    @Test
    void neverMoreThanFourBreakpoints() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        List<ContentBlock> uses = new ArrayList<>();
        List<ContentBlock> results = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            uses.add(new ToolUseBlock("toolu_" + i, "search", Json.parse("{}")));
            results.add(new ToolResultBlock("toolu_" + i, "r", false));
        }
        call(cached(request("go").system("rules").addMessage(Message.assistant(uses)).addMessage(Message.user(results))));
        List<String> marks = breakpoints(lastBody());
        assertThat(marks).hasSize(CacheBreakpoints.MAX_BREAKPOINTS);
        assertThat(marks).last().isEqualTo("messages/2/content/59");
    }

    @Test
    void aGatewayThatAddsItsOwnBreakpointsMakesReinPlaceFewerInsteadOfFailingTheRun() throws Exception {
        // Some relays add a cache_control of their own, so a request with Rein's four comes back with the
        // API's 400 "Found 5". That is no mistake in the request the next attempt would repeat: the call
        // is retryable, and this model's later requests leave room for the gateway's breakpoint.
        List<ContentBlock> uses = new ArrayList<>();
        List<ContentBlock> results = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            uses.add(new ToolUseBlock("toolu_" + i, "search", Json.parse("{}")));
            results.add(new ToolResultBlock("toolu_" + i, "r", false));
        }
        dev.rein.model.ModelRequest longStep = cached(request("go").system("rules").addMessage(Message.assistant(uses))
                .addMessage(Message.user(results))).build();
        server.enqueue(FakeReply.error(400, "invalid_request_error", "A maximum of 4 blocks with cache_control may be"
                + " provided. Found 5."), FakeReply.text("ok"));

        dev.rein.model.ModelException refused = org.assertj.core.api.Assertions.catchThrowableOfType(
                dev.rein.model.ModelException.class, () -> call(longStep));
        assertThat(breakpoints(lastBody())).hasSize(4);
        assertThat(refused.retryable()).isTrue();
        assertThat(refused.getMessage()).startsWith("A maximum of 4 blocks with cache_control may be provided. Found 5."
                + " (Rein placed 4, so a gateway or proxy at the base URL added 1 of its own: Rein now places at most 3 per request)");

        assertThat(call(longStep).text()).isEqualTo("ok");
        List<String> marks = breakpoints(lastBody());
        assertThat(marks).hasSize(3).startsWith("system/0");
        assertThat(marks).last().isEqualTo("messages/2/content/59");
    }

    /**
     * A server tool given with its own cache_control (the API's tool params take one) is one of the request's four: Rein
     * places one fewer, so the API does not refuse the request, and a gateway's extra one is still told apart.
     */
    @Test
    void aServerToolsOwnBreakpointCountsTowardTheFourAndIsNotBlamedOnAGateway() throws Exception {
        List<ContentBlock> uses = new ArrayList<>();
        List<ContentBlock> results = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            uses.add(new ToolUseBlock("toolu_" + i, "search", Json.parse("{}")));
            results.add(new ToolResultBlock("toolu_" + i, "r", false));
        }
        dev.rein.model.ModelRequest longStep = cached(request("go").system("rules").tools(List.of(tool("search")))
                .addMessage(Message.assistant(uses)).addMessage(Message.user(results))
                .option(AnthropicServerTools.of("{\"type\":\"web_search_20250305\",\"name\":\"web_search\","
                        + "\"cache_control\":{\"type\":\"ephemeral\"}}"))).build();
        server.enqueue(FakeReply.text("ok"), FakeReply.error(400, "invalid_request_error",
                "A maximum of 4 blocks with cache_control may be provided. Found 5."));

        call(longStep);
        String body = lastBody().toString();
        assertThat(body.split("\"cache_control\"", -1).length - 1).as("the API refuses more than 4").isEqualTo(4);
        JsonNode webSearch = null;
        for (JsonNode sent : lastBody().path("tools")) {
            webSearch = "web_search".equals(sent.path("name").asText()) ? sent : webSearch;
        }
        assertThat(webSearch.at("/cache_control/type").asText()).as("the user's own is kept").isEqualTo("ephemeral");
        assertThat(breakpoints(lastBody())).startsWith("system/0").last().isEqualTo("messages/2/content/59");

        dev.rein.model.ModelException refused = org.assertj.core.api.Assertions.catchThrowableOfType(
                dev.rein.model.ModelException.class, () -> call(longStep));
        assertThat(refused.getMessage()).contains("(Rein placed 3, your server tools 1, so a gateway or proxy at the base URL"
                + " added 1 of its own: Rein now places at most 3 per request, your server tools' included)");
    }

    /**
     * With caching off Rein places none, and the caller's four server-tool breakpoints are within the limit: a "Found 5"
     * means a gateway or proxy added the fifth. The message says so; fewer from Rein cannot help (it placed none), so it is
     * not retried, and it says what can: fewer of the server tools' own.
     */
    @Test
    void withCachingOffAGatewaysBreakpointBeyondTheServerToolsOwnIsNamedNotRetried() {
        String[] tools = new String[4];
        for (int i = 0; i < tools.length; i++) {
            tools[i] = "{\"type\":\"web_search_20250305\",\"name\":\"web_search_" + i + "\",\"cache_control\":{\"type\":\"ephemeral\"}}";
        }
        dev.rein.model.ModelRequest request = request("go").system("rules").option(AnthropicServerTools.of(tools))
                .option(AnthropicOptions.caching(PromptCaching.DISABLED)).build();
        server.enqueue(FakeReply.error(400, "invalid_request_error",
                "A maximum of 4 blocks with cache_control may be provided. Found 5."));

        dev.rein.model.ModelException refused = org.assertj.core.api.Assertions.catchThrowableOfType(
                dev.rein.model.ModelException.class, () -> call(request));
        assertThat(refused.getMessage()).isEqualTo("A maximum of 4 blocks with cache_control may be provided. Found 5."
                + " (Rein placed none, your server tools 4, so a gateway or proxy at the base URL added 1 of its own: take"
                + " cache_control off 1 of your server tools, or keep the gateway from adding its own; with caching on,"
                + " Rein's later requests place at most 3 per request, your server tools' included)");
        assertThat(refused.retryable()).as("the same request draws the same 400").isFalse();
    }

    /**
     * The gateway adds its own whatever Rein places, so room is left for it also after a "Found 5" with caching off: a
     * later request of the same model with caching on places one fewer than the API's four.
     */
    @Test
    void withCachingOffAGatewaysBreakpointStillLeavesRoomInLaterRequestsWithCachingOn() throws Exception {
        String[] tools = new String[4];
        for (int i = 0; i < tools.length; i++) {
            tools[i] = "{\"type\":\"web_search_20250305\",\"name\":\"web_search_" + i + "\",\"cache_control\":{\"type\":\"ephemeral\"}}";
        }
        server.enqueue(FakeReply.error(400, "invalid_request_error",
                "A maximum of 4 blocks with cache_control may be provided. Found 5."), FakeReply.text("ok"));
        org.assertj.core.api.Assertions.catchThrowableOfType(dev.rein.model.ModelException.class, () -> call(
                request("go").system("rules").option(AnthropicServerTools.of(tools))
                        .option(AnthropicOptions.caching(PromptCaching.DISABLED)).build()));

        List<ContentBlock> uses = new ArrayList<>();
        List<ContentBlock> results = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            uses.add(new ToolUseBlock("toolu_" + i, "search", Json.parse("{}")));
            results.add(new ToolResultBlock("toolu_" + i, "r", false));
        }
        assertThat(call(cached(request("go").system("rules").addMessage(Message.assistant(uses))
                .addMessage(Message.user(results))).build()).text()).isEqualTo("ok");
        assertThat(breakpoints(lastBody())).as("4 without the gateway's, as in the test above").hasSize(3)
                .startsWith("system/0");
    }

    /**
     * The API takes at most 4 cache_control per request: more on the server tools alone is refused when the option is
     * made, saying what to take off and what those left cost Rein's own breakpoints.
     */
    @Test
    void moreThanFourServerToolBreakpointsAreRefusedBeforeSending() {
        String[] tools = new String[5];
        for (int i = 0; i < tools.length; i++) {
            tools[i] = "{\"type\":\"web_search_20250305\",\"name\":\"web_search_" + i + "\",\"cache_control\":{\"type\":\"ephemeral\"}}";
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> AnthropicServerTools.of(tools))
                .isInstanceOf(dev.rein.ReinException.class)
                .hasMessage("5 server tools carry a cache_control (web_search_0, web_search_1, web_search_2, web_search_3,"
                        + " web_search_4), and the API takes at most 4 cache_control per request: take cache_control off"
                        + " at least 1 of these tools; each one left takes one of PromptCaching's breakpoints (with 4,"
                        + " it places none)");
        assertThat(server.requestCount()).isZero();
    }

    @Test
    void aShortStepNeedsNoIntermediateBreakpoint() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        List<ContentBlock> uses = new ArrayList<>();
        List<ContentBlock> results = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            uses.add(new ToolUseBlock("toolu_" + i, "search", Json.parse("{}")));
            results.add(new ToolResultBlock("toolu_" + i, "r", false));
        }
        call(cached(request("go").addMessage(Message.assistant(uses)).addMessage(Message.user(results))));
        assertThat(breakpoints(lastBody())).containsExactly("messages/2/content/6");
    }
}
