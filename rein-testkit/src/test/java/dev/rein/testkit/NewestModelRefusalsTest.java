package dev.rein.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * The requests Anthropic's newest models refuse, in the words their "What's new" pages give: Claude Opus 5.5, Claude
 * Fable 5.1 and Claude Mythos 5.1 think always (thinking off, or a manual budget, is a 400), and they and Claude
 * Sonnet 5.5 refuse a forced tool choice (also at the token counting endpoint); every model from Claude 4.7 on refuses
 * a manual budget (the thinking troubleshooting page); Claude Opus 5 refuses thinking off at effort xhigh or max;
 * Claude Sonnet 5.5 refuses thinking off, and between_tools at xhigh or max, which no other model takes.
 * Earlier models take all of it.
 */
class NewestModelRefusalsTest extends FakeServerTestBase {

    private static String request(String model, String extra) {
        return """
                {"model":"%s","max_tokens":2000,%s"tools":[{"name":"lookup","input_schema":{"type":"object"}}],
                 "messages":[{"role":"user","content":"hi"}]}""".formatted(model, extra);
    }

    /** Posts {@code body} to count_tokens without its max_tokens, a field that endpoint refuses. */
    private HttpResponse<String> countTokens(String body) throws Exception {
        return api.post("/v1/messages/count_tokens", body.replaceFirst("\"max_tokens\":\\d+,", ""));
    }

    private static void assertRefused(HttpResponse<String> response, String message) throws Exception {
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(Api.json(response).at("/error/type").asText()).isEqualTo("invalid_request_error");
        assertThat(Api.json(response).at("/error/message").asText()).isEqualTo(message);
    }

    /** Claude Fable 5 and Mythos 5 think always too: the thinking troubleshooting page's table refuses both there. */
    @Test
    void thinkingOffOrWithABudgetIsRefusedByTheModelsThatAlwaysThink() throws Exception {
        for (String model : new String[] {"claude-opus-5-5", "claude-fable-5-1", "claude-mythos-5-1", "claude-fable-5",
                "claude-mythos-5"}) {
            assertRefused(api.messages(request(model, "\"thinking\":{\"type\":\"disabled\"},")),
                    "\"thinking.type.disabled\" is not supported for this model. Use \"thinking.type.adaptive\" and"
                            + " \"output_config.effort\" to control thinking behavior.");
            assertRefused(api.messages(request(model, "\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":1024},")),
                    "\"thinking.type.enabled\" is not supported for this model. Use \"thinking.type.adaptive\" and"
                            + " \"output_config.effort\" to control thinking behavior.");
            server.enqueue(FakeReply.text("ok"));
            assertThat(api.messages(request(model, "\"thinking\":{\"type\":\"adaptive\"},")).statusCode()).isEqualTo(200);
        }
        assertThat(server.pendingReplies()).as("a refused request consumes no reply").isZero();
    }

    @Test
    void aForcedToolChoiceIsRefusedByTheNewestModelsAtBothEndpoints() throws Exception {
        String refusal = "tool_choice: type \"tool\" and \"any\" are not supported for this model.";
        for (String model : new String[] {"claude-opus-5-5", "claude-sonnet-5-5", "claude-fable-5-1", "claude-mythos-5-1"}) {
            assertRefused(api.messages(request(model, "\"tool_choice\":{\"type\":\"any\"},")), refusal);
            assertRefused(api.messages(request(model, "\"tool_choice\":{\"type\":\"tool\",\"name\":\"lookup\"},")), refusal);
            assertRefused(countTokens(request(model, "\"tool_choice\":{\"type\":\"any\"},")), refusal);
            server.enqueue(FakeReply.text("ok"), FakeReply.text("ok"));
            assertThat(api.messages(request(model, "\"tool_choice\":{\"type\":\"auto\"},")).statusCode()).isEqualTo(200);
            assertThat(api.messages(request(model, "\"tool_choice\":{\"type\":\"none\"},")).statusCode()).isEqualTo(200);
        }
    }

    /**
     * The tool use docs: {@code any} makes the model use one of the request's tools, {@code tool} the one it names;
     * without tools the API refuses a tool choice, at both endpoints. Server tools are tools too.
     */
    @Test
    void aForcedToolChoiceWithoutTheToolIsRefusedOnEveryModel() throws Exception {
        String none = "tool_choice may only be specified while providing tools.";
        String noTools = "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":100,\"tool_choice\":%s,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"こんにちは\"}]}";
        assertRefused(api.messages(noTools.formatted("{\"type\":\"any\"}")), none);
        assertRefused(api.messages(noTools.formatted("{\"type\":\"tool\",\"name\":\"lookup\"}")), none);
        assertRefused(countTokens(noTools.formatted("{\"type\":\"any\"}")), none);
        assertRefused(api.messages(request("claude-sonnet-4-5", "\"tool_choice\":{\"type\":\"tool\",\"name\":\"fetch\"},")),
                "tool_choice.name: no tool named 'fetch' is in tools.");
        assertThat(server.pendingReplies()).isZero();
        server.enqueue(FakeReply.text("ok"), FakeReply.text("ok"), FakeReply.text("ok"));
        assertThat(api.messages(request("claude-sonnet-4-5", "\"tool_choice\":{\"type\":\"tool\",\"name\":\"lookup\"},"))
                .statusCode()).isEqualTo(200);
        String serverTool = "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":100,\"tool_choice\":%s,"
                + "\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}],"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
        assertThat(api.messages(serverTool.formatted("{\"type\":\"tool\",\"name\":\"web_search\"}")).statusCode()).isEqualTo(200);
        assertThat(api.messages(noTools.formatted("{\"type\":\"none\"}")).statusCode()).as("none forces nothing").isEqualTo(200);
    }

    /**
     * The thinking troubleshooting docs: every model from Claude 4.7 on refuses a budget, also those that still take
     * thinking off (Claude Sonnet 5, Opus 5, Opus 4.7 and 4.8), in the same words.
     */
    @Test
    void aBudgetIsRefusedByEveryModelFromClaude47On() throws Exception {
        for (String model : new String[] {"claude-opus-4-7", "claude-opus-4-8", "claude-sonnet-5", "claude-opus-5",
                "claude-fable-5", "claude-mythos-5", "claude-sonnet-5-5", "claude-haiku-5-5"}) {
            assertRefused(api.messages(request(model, "\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":1024},")),
                    "\"thinking.type.enabled\" is not supported for this model. Use \"thinking.type.adaptive\" and"
                            + " \"output_config.effort\" to control thinking behavior.");
            server.enqueue(FakeReply.text("ok"));
            assertThat(api.messages(request(model, "\"thinking\":{\"type\":\"adaptive\"},")).statusCode()).isEqualTo(200);
        }
        assertThat(server.pendingReplies()).as("a refused request consumes no reply").isZero();
    }

    /**
     * Claude Opus 5's "What's new" and migration guide: thinking off is taken at effort high or below, and is a 400 at
     * xhigh or max (the API's words as its error reference gives them).
     */
    @Test
    void thinkingOffIsRefusedOnClaudeOpus5AtEffortXhighOrMax() throws Exception {
        for (String effort : new String[] {"xhigh", "max"}) {
            for (String model : new String[] {"claude-opus-5"}) {
                assertRefused(api.messages(request(model,
                                "\"thinking\":{\"type\":\"disabled\"},\"output_config\":{\"effort\":\"" + effort + "\"},")),
                        "output_config.effort '" + effort + "' is not supported when thinking is disabled on this model."
                                + " Use effort 'high' or below, or enable thinking.");
            }
        }
        for (String effort : new String[] {"low", "medium", "high"}) {
            server.enqueue(FakeReply.text("ok"));
            assertThat(api.messages(request("claude-opus-5",
                    "\"thinking\":{\"type\":\"disabled\"},\"output_config\":{\"effort\":\"" + effort + "\"},")).statusCode())
                    .isEqualTo(200);
        }
        server.enqueue(FakeReply.text("ok"), FakeReply.text("ok"));
        assertThat(api.messages(request("claude-opus-5", "\"thinking\":{\"type\":\"disabled\"},")).statusCode())
                .as("no effort: the default, high").isEqualTo(200);
        assertThat(api.messages(request("claude-opus-5",
                "\"thinking\":{\"type\":\"adaptive\"},\"output_config\":{\"effort\":\"max\"},")).statusCode()).isEqualTo(200);
        assertThat(server.pendingReplies()).as("a refused request consumes no reply").isZero();
    }

    /**
     * Claude Sonnet 5.5's "What's new": {@code between_tools} replaces {@code disabled}, which is a 400 pointing to it,
     * and {@code between_tools} is taken at effort low, medium and high only; the thinking troubleshooting page: only
     * Claude Sonnet 5.5 accepts {@code between_tools}. (The pages give no exact words: the fake's follow the API's
     * other thinking refusals.)
     */
    @Test
    void sonnet55RefusesThinkingOffAndBetweenToolsAtXhighOrMaxAndOtherModelsRefuseBetweenTools() throws Exception {
        assertRefused(api.messages(request("claude-sonnet-5-5", "\"thinking\":{\"type\":\"disabled\"},")),
                "\"thinking.type.disabled\" is not supported for this model. Use \"thinking.type.between_tools\" to turn off"
                        + " thinking before the first tool call, or \"thinking.type.adaptive\" and \"output_config.effort\" to"
                        + " control thinking behavior.");
        for (String effort : new String[] {"xhigh", "max"}) {
            assertRefused(api.messages(request("claude-sonnet-5-5",
                            "\"thinking\":{\"type\":\"between_tools\"},\"output_config\":{\"effort\":\"" + effort + "\"},")),
                    "output_config.effort '" + effort + "' is not supported with \"thinking.type.between_tools\". Use effort"
                            + " 'high' or below, or \"thinking.type.adaptive\".");
        }
        for (String model : new String[] {"claude-sonnet-5", "claude-opus-5-5", "claude-sonnet-4-5"}) {
            assertRefused(api.messages(request(model, "\"thinking\":{\"type\":\"between_tools\"},")),
                    "\"thinking.type.between_tools\" is not supported for this model. Use \"thinking.type.adaptive\" and"
                            + " \"output_config.effort\" to control thinking behavior.");
        }
        for (String effort : new String[] {"low", "medium", "high"}) {
            server.enqueue(FakeReply.text("ok"));
            assertThat(api.messages(request("claude-sonnet-5-5",
                    "\"thinking\":{\"type\":\"between_tools\"},\"output_config\":{\"effort\":\"" + effort + "\"},"))
                    .statusCode()).isEqualTo(200);
        }
        server.enqueue(FakeReply.text("ok"), FakeReply.text("ok"));
        assertThat(api.messages(request("claude-sonnet-5-5-20261015", "\"thinking\":{\"type\":\"between_tools\"},"))
                .statusCode()).as("no effort: the default, high; a dated name is the model").isEqualTo(200);
        assertThat(api.messages(request("claude-sonnet-5-5",
                "\"thinking\":{\"type\":\"adaptive\"},\"output_config\":{\"effort\":\"max\"},")).statusCode()).isEqualTo(200);
        assertThat(server.pendingReplies()).as("a refused request consumes no reply").isZero();
    }

    @Test
    void earlierModelsTakeThinkingOffABudgetAndAForcedChoice() throws Exception {
        for (String model : new String[] {"claude-sonnet-4-5", "claude-opus-4-6", "claude-test-1"}) {
            server.enqueue(FakeReply.text("ok"), FakeReply.text("ok"), FakeReply.text("ok"));
            assertThat(api.messages(request(model, "\"thinking\":{\"type\":\"disabled\"},")).statusCode()).isEqualTo(200);
            assertThat(api.messages(request(model, "\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":1024},")).statusCode())
                    .isEqualTo(200);
            assertThat(api.messages(request(model, "\"tool_choice\":{\"type\":\"any\"},")).statusCode()).isEqualTo(200);
        }
        // Claude Sonnet 5 and Opus 5 refuse a budget, but still take thinking off and a forced choice.
        for (String model : new String[] {"claude-opus-5", "claude-sonnet-5"}) {
            server.enqueue(FakeReply.text("ok"), FakeReply.text("ok"));
            assertThat(api.messages(request(model, "\"thinking\":{\"type\":\"disabled\"},")).statusCode()).isEqualTo(200);
            assertThat(api.messages(request(model, "\"tool_choice\":{\"type\":\"any\"},")).statusCode()).isEqualTo(200);
        }
    }

    /**
     * A dated id ({@code -20261015}) is the model it dates, as Rein's own tables read one (ModelIds, which prices and
     * rein-anthropic's thinking rules use): each refusal applies to it as to the undated name; a version number is
     * another model ({@code claude-sonnet-5-5} is not {@code claude-sonnet-5} dated).
     */
    @Test
    void aDatedIdIsRefusedAsTheModelItDates() throws Exception {
        String off = "\"thinking.type.disabled\" is not supported for this model. Use \"thinking.type.adaptive\" and"
                + " \"output_config.effort\" to control thinking behavior.";
        assertRefused(api.messages(request("claude-opus-5-5-20261015", "\"thinking\":{\"type\":\"disabled\"},")), off);
        assertRefused(api.messages(request("claude-fable-5-2026-08-01", "\"thinking\":{\"type\":\"disabled\"},")), off);
        assertRefused(api.messages(request("claude-sonnet-5-20260630", "\"thinking\":{\"type\":\"enabled\",\"budget_tokens\":1024},")),
                "\"thinking.type.enabled\" is not supported for this model. Use \"thinking.type.adaptive\" and"
                        + " \"output_config.effort\" to control thinking behavior.");
        assertRefused(api.messages(request("claude-opus-5-20260515",
                        "\"thinking\":{\"type\":\"disabled\"},\"output_config\":{\"effort\":\"max\"},")),
                "output_config.effort 'max' is not supported when thinking is disabled on this model."
                        + " Use effort 'high' or below, or enable thinking.");
        assertRefused(api.messages(request("claude-sonnet-5-5-20260929", "\"tool_choice\":{\"type\":\"any\"},")),
                "tool_choice: type \"tool\" and \"any\" are not supported for this model.");
        assertRefused(countTokens(request("claude-mythos-5-1-20261001", "\"tool_choice\":{\"type\":\"any\"},")),
                "tool_choice: type \"tool\" and \"any\" are not supported for this model.");
        assertRefused(api.messages(request("claude-sonnet-5-5-2026-09-29", "\"thinking\":{\"type\":\"disabled\"},")),
                "\"thinking.type.disabled\" is not supported for this model. Use \"thinking.type.between_tools\" to turn off"
                        + " thinking before the first tool call, or \"thinking.type.adaptive\" and \"output_config.effort\" to"
                        + " control thinking behavior.");
        server.enqueue(FakeReply.text("ok"), FakeReply.text("ok"));
        assertThat(api.messages(request("claude-sonnet-5-5-2026-09-29", "\"thinking\":{\"type\":\"between_tools\"},"))
                .statusCode()).isEqualTo(200);
        assertThat(api.messages(request("claude-sonnet-5-5", "\"tool_choice\":{\"type\":\"none\"},")).statusCode())
                .as("claude-sonnet-5-5 is a version of its own, not claude-sonnet-5 dated").isEqualTo(200);
        assertThat(server.pendingReplies()).as("a refused request consumes no reply").isZero();
    }

    /**
     * The extended thinking docs: tool use with thinking takes only tool choice auto or none; a forced choice is a 400 on
     * every model, in the API's words.
     */
    @Test
    void thinkingWithAForcedToolChoiceIsRefusedOnEveryModel() throws Exception {
        for (String thinking : new String[] {"{\"type\":\"enabled\",\"budget_tokens\":1024}", "{\"type\":\"adaptive\"}"}) {
            for (String choice : new String[] {"{\"type\":\"any\"}", "{\"type\":\"tool\",\"name\":\"lookup\"}"}) {
                assertRefused(api.messages(request("claude-sonnet-4-5", "\"thinking\":" + thinking + ",\"tool_choice\":" + choice + ",")),
                        "Thinking may not be enabled when tool_choice forces tool use.");
            }
        }
        server.enqueue(FakeReply.text("ok"), FakeReply.text("ok"), FakeReply.text("ok"));
        assertThat(api.messages(request("claude-sonnet-4-5", "\"thinking\":{\"type\":\"adaptive\"},\"tool_choice\":{\"type\":\"auto\"},"))
                .statusCode()).isEqualTo(200);
        assertThat(api.messages(request("claude-sonnet-4-5", "\"thinking\":{\"type\":\"adaptive\"},\"tool_choice\":{\"type\":\"none\"},"))
                .statusCode()).isEqualTo(200);
        assertThat(api.messages(request("claude-sonnet-4-5", "\"thinking\":{\"type\":\"disabled\"},\"tool_choice\":{\"type\":\"any\"},"))
                .statusCode()).isEqualTo(200);
    }

    @Test
    void theRefusalsAreOffWithValidation() throws Exception {
        server.validateRequests(false);
        server.enqueue(FakeReply.text("ok"));
        assertThat(api.messages(request("claude-opus-5-5", "\"tool_choice\":{\"type\":\"any\"},")).statusCode()).isEqualTo(200);
    }
}
