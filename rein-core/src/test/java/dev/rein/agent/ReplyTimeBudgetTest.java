package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.budget.Budget;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The time limit of the agent's budget counts each turn from its start, as docs/memory.md says. */
class ReplyTimeBudgetTest {
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-12-01T09:00:00Z"));
    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now.get();
        }
    };

    /** A slow lookup: each call takes 200 s of the run's clock. */
    private Tool slowLookup() {
        return Tool.builder("lookup").description("Looks up.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}},\"required\":[\"q\"]}")
                .handler((args, ctx) -> {
                    now.updateAndGet(t -> t.plusSeconds(200));
                    return "見つかりました: " + args.get("q").asText();
                }).build();
    }

    @Test
    void aReplyTurnHasTheWholeTimeLimitAgainAndAnHourBetweenTurnsDoesNotCount() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("lookup", "{\"q\":\"東京\"}")), text("東京: 見つかりました"),
                toolCalls(call("lookup", "{\"q\":\"大阪\"}")), text("大阪: 見つかりました"));
        Agent agent = Agent.builder().model(model).tools(slowLookup()).store(new InMemoryRunStore()).clock(clock)
                .budget(Budget.builder().maxDuration(Duration.ofSeconds(300)).build()).build();

        RunResult first = agent.run("東京を調べて");
        assertThat(first.status()).isEqualTo(RunStatus.SUCCEEDED);
        now.updateAndGet(t -> t.plus(Duration.ofHours(1))); // the person answers an hour later

        RunResult second = agent.reply(first.runId(), "大阪も");

        assertThat(second.status()).as(second.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(second.answer()).isEqualTo("大阪: 見つかりました");
    }

    @Test
    void theConversationsTimeLimitCountsTheTurnsTimeNotTheWaitBetweenThem() {
        ScriptedModel model = ScriptedModel.of(toolCalls(call("lookup", "{\"q\":\"東京\"}")), text("東京: 見つかりました"),
                toolCalls(call("lookup", "{\"q\":\"大阪\"}")), text("大阪: 見つかりました"),
                toolCalls(call("lookup", "{\"q\":\"福岡\"}")), text("福岡: 見つかりました"), text("要約"));
        Agent agent = Agent.builder().model(model).tools(slowLookup()).store(new InMemoryRunStore()).clock(clock)
                .budget(Budget.builder().maxDuration(Duration.ofSeconds(300)).build())
                .conversationBudget(Budget.builder().maxDuration(Duration.ofSeconds(500)).build()).build();

        RunResult first = agent.run("東京を調べて");
        now.updateAndGet(t -> t.plus(Duration.ofHours(1)));
        RunResult second = agent.reply(first.runId(), "大阪も");
        assertThat(second.status()).as(second.message()).isEqualTo(RunStatus.SUCCEEDED);

        RunResult third = agent.reply(first.runId(), "福岡も"); // 400 s used before; its lookup reaches 600 s
        assertThat(third.status()).as(third.message()).isEqualTo(RunStatus.STOPPED_BUDGET);
    }
}
