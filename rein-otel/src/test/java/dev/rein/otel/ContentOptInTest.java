package dev.rein.otel;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.reply;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.Usage;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import io.opentelemetry.sdk.testing.junit5.OpenTelemetryExtension;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 14: "Content (messages, system prompt, tool arguments and results) only when opted in" —
 * also where Rein's own texts quote the conversation: a run's end message, a stall notice.
 */
class ContentOptInTest {
    @RegisterExtension
    static final OpenTelemetryExtension OTEL = OpenTelemetryExtension.create();

    private static final String REFUSAL = "I will not explain how to pick the lock of apartment 4B.";

    private static Agent.Builder agent(ScriptedModel model, boolean capture) {
        ReinTelemetry telemetry = ReinTelemetry.builder(OTEL.getOpenTelemetry()).providerName("anthropic")
                .captureContent(capture).build();
        Tool search = Tool.builder("search").description("Searches the web.").risk(Risk.READ)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}")
                .handler((args, ctx) -> "sunny").build();
        return telemetry.install(Agent.builder().model(model).modelName(ScriptedModel.DEFAULT_NAME).prices(ScriptedModel.PRICES)
                .tools(search));
    }

    /** Everything a span exports as text: attributes, event attributes and the status description. */
    private static String exported(SpanData span) {
        return span.getAttributes() + " " + span.getEvents().stream().map(EventData::getAttributes).map(Object::toString)
                .collect(Collectors.joining(" ")) + " " + span.getStatus().getDescription();
    }

    private static String allExported() {
        return OTEL.getSpans().stream().map(ContentOptInTest::exported).collect(Collectors.joining("\n"));
    }

    private static SpanData runSpan() {
        return OTEL.getSpans().stream().filter(s -> s.getName().startsWith("invoke_agent ")).findFirst().orElseThrow();
    }

    private static ScriptedModel refusing() {
        return ScriptedModel.of(reply(StopReason.REFUSAL, Usage.of(10, 5, 0, 0), new TextBlock(REFUSAL)));
    }

    @Test
    void withoutOptInTheRefusalTextOfAFailedRunIsNotExported() {
        RunResult result = agent(refusing(), false).build().run("how do I get into 4B?");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo("refusal");

        assertThat(allExported()).doesNotContain("pick the lock");
        assertThat(runSpan().getAttributes().get(GenAiConventions.ERROR_TYPE)).isEqualTo("refusal");
    }

    @Test
    void optedInTheFailedRunsMessageWithTheRefusalTextIsItsStatusDescription() {
        agent(refusing(), true).build().run("how do I get into 4B?");
        assertThat(runSpan().getStatus().getDescription()).contains("the model refused to continue").contains(REFUSAL);
    }

    @Test
    void withoutOptInTheQueriesAStallNoticeQuotesAreNotExported() {
        // The near-duplicate notice quotes the earlier queries: tool arguments.
        ScriptedModel model = ScriptedModel.of(toolCalls(call("search", "{\"q\":\"Tokyo weather\"}")),
                toolCalls(call("search", "{\"q\":\"weather, tokyo!\"}")), toolCalls(call("search", "{\"q\":\"  TOKYO   wether \"}")),
                text("Sunny."));
        agent(model, false).build().run("what is the weather?");

        SpanData blocked = OTEL.getSpans().stream()
                .filter(s -> "blocked".equals(s.getAttributes().get(ReinConventions.TOOL_OUTCOME))).findFirst().orElseThrow();
        assertThat(blocked.getEvents()).extracting(EventData::getName).contains(ReinConventions.EVENT_STALL);
        assertThat(allExported()).doesNotContainIgnoringCase("Tokyo weather").doesNotContainIgnoringCase("weather, tokyo");
    }

    @Test
    void optedInAStallNoticeKeepsItsMessage() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("search", "{\"q\":\"Tokyo weather\"}")),
                toolCalls(call("search", "{\"q\":\"weather, tokyo!\"}")), toolCalls(call("search", "{\"q\":\"  TOKYO   wether \"}")),
                text("Sunny."));
        agent(model, true).build().run("what is the weather?");

        SpanData blocked = OTEL.getSpans().stream()
                .filter(s -> "blocked".equals(s.getAttributes().get(ReinConventions.TOOL_OUTCOME))).findFirst().orElseThrow();
        assertThat(blocked.getEvents()).filteredOn(e -> e.getName().equals(ReinConventions.EVENT_STALL)).singleElement()
                .satisfies(e -> assertThat(e.getAttributes().get(ReinConventions.MESSAGE)).contains("\"Tokyo weather\""));
    }
}
