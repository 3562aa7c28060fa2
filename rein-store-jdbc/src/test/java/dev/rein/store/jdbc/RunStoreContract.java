package dev.rein.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.run.RunStatus;
import dev.rein.approval.ActionHash;
import dev.rein.approval.ApprovalRequest;
import dev.rein.approval.ApprovalState;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.state.AgentState;
import dev.rein.state.Conversation;
import dev.rein.state.IdempotencyRecord;
import dev.rein.state.RunSnapshot;
import dev.rein.state.RunStore;
import dev.rein.state.StoreConflictException;
import dev.rein.tool.Principal;
import dev.rein.tool.Risk;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolResult;
import dev.rein.trace.TraceEvent;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** What every run store must do; each store's test class supplies the store. */
abstract class RunStoreContract {
    protected abstract RunStore store();

    protected final String runId = "run_" + UUID.randomUUID().toString().substring(0, 8);
    private final Instant t0 = Instant.now().truncatedTo(ChronoUnit.MILLIS);

    protected RunSnapshot snapshot(long version, RunStatus status) {
        var args = Json.parse("{\"to\":\"佐藤さん\",\"body\":\"配送が遅れています 🚚\"}");
        var request = new ApprovalRequest(runId, 1, "toolu_1", 0, "send_message", Risk.WRITE, args,
                ActionHash.of("send_message", args), "u", t0);
        var done = ToolResult.success(new ToolCall("toolu_0", "lookup", Json.object(), 0), "注文 A-104 は倉庫で保留中", "orders-db");
        return new RunSnapshot(RunSnapshot.FORMAT, runId, version, "A-104 はなぜ遅れている?", "claude-sonnet-5", status, "", "", "",
                t0, t0.plusSeconds(version), 1234, new Principal("u", "t", Set.of("orders:read")),
                List.of(Message.user("A-104 はなぜ遅れている?"),
                        Message.assistant(List.of(new TextBlock("確認します"), new ToolUseBlock("toolu_1", "send_message", args)))),
                1, Usage.of(10, 20, 30, 90).withCacheWriteDetail("1h", 50), new BigDecimal("0.012345"), 1, Map.of("lookup", 2),
                AgentState.of("A-104 はなぜ遅れている?"), new ApprovalState(List.of(request), Map.of(), Map.of("toolu_0", done)), null);
    }

    @Test
    void aSnapshotRoundTripsExactlyIncludingJapaneseText() {
        RunSnapshot saved = snapshot(1, RunStatus.WAITING_APPROVAL);
        store().save(saved);
        assertThat(store().load(runId)).contains(saved);
        assertThat(store().load("run_missing")).isEmpty();
    }

    /** A typed run's output schema is kept, so a resume checks its answer against it; its name and JSON come back as saved. */
    @Test
    void aTypedRunsOutputSchemaRoundTrips() {
        RunSnapshot first = snapshot(1, RunStatus.WAITING_APPROVAL);
        var schema = dev.rein.model.OutputSchema.fromJson("返金", "{\"type\":\"object\",\"properties\":{\"金額\":"
                + "{\"type\":\"number\",\"maximum\":1.5}},\"required\":[\"金額\"]}");
        RunSnapshot saved = new RunSnapshot(first.format(), first.runId(), first.version(), first.goal(), first.model(),
                first.status(), first.reason(), first.message(), first.answer(), first.createdAt(), first.updatedAt(),
                first.activeMillis(), first.principal(), first.history(), first.steps(), first.usage(), first.costUsd(),
                first.verificationFailures(), first.toolCallCounts(), first.state(), first.approvals(), first.finish(),
                first.conversation(), first.secretsHandedOut(), first.criticRounds(), dev.rein.state.StoredOutputSchema.of(schema));
        store().save(saved);
        RunSnapshot loaded = store().load(runId).orElseThrow();
        assertThat(loaded).isEqualTo(saved);
        assertThat(loaded.outputSchema()).isEqualTo(dev.rein.state.StoredOutputSchema.of(schema));
        assertThat(loaded.outputSchema().outputSchema().problems("{\"金額\":2}")).isNotEmpty();
    }

    @Test
    void aConversationsTurnsAndRepliesRoundTrip() {
        RunSnapshot first = snapshot(1, RunStatus.SUCCEEDED);
        var conversation = new Conversation(3, 2, Usage.of(1, 2, 0, 0), new BigDecimal("0.01"), 900,
                List.of(new Conversation.Reply(2, "会議室Bでお願いします"), new Conversation.Reply(3, "and the projector? 🙂")));
        RunSnapshot saved = new RunSnapshot(first.format(), first.runId(), first.version(), first.goal(), first.model(),
                first.status(), first.reason(), first.message(), first.answer(), first.createdAt(), first.updatedAt(),
                first.activeMillis(), first.principal(), first.history(), first.steps(), first.usage(), first.costUsd(),
                first.verificationFailures(), first.toolCallCounts(), first.state(), first.approvals(), first.finish(), conversation);
        store().save(saved);
        assertThat(store().load(runId)).contains(saved);
        assertThat(store().load(runId).orElseThrow().conversation().replies()).extracting(Conversation.Reply::text)
                .containsExactly("会議室Bでお願いします", "and the projector? 🙂");
    }

    @Test
    void aSnapshotHoldingAToolResultOfMoreThanTwentyMillionCharactersIsLoadedBack() {
        // toolOutputLimit(0) keeps a tool's whole output in the history: the store must give back what it took
        // (Jackson reads at most 20,000,000 characters in one string unless told otherwise)
        String huge = "ログ行 A-104 保留\n".repeat(1_600_000);
        assertThat(huge.length()).isGreaterThan(20_000_000);
        RunSnapshot first = snapshot(1, RunStatus.WAITING_APPROVAL);
        List<Message> history = new java.util.ArrayList<>(first.history());
        history.add(Message.user(List.of(new dev.rein.model.ToolResultBlock("toolu_1", huge, false))));
        RunSnapshot saved = new RunSnapshot(first.format(), first.runId(), first.version(), first.goal(), first.model(),
                first.status(), first.reason(), first.message(), first.answer(), first.createdAt(), first.updatedAt(),
                first.activeMillis(), first.principal(), history, first.steps(), first.usage(), first.costUsd(),
                first.verificationFailures(), first.toolCallCounts(), first.state(), first.approvals(), first.finish(),
                first.conversation());
        store().save(saved);
        assertThat(store().load(runId)).contains(saved);
    }

    @Test
    void aRunWhoseGoalHoldsANulCharacterIsSavedLoadedAndListed() {
        // U+0000 is legal in a Java string and in JSON (\u0000), e.g. text pasted from a binary file
        RunSnapshot first = snapshot(1, RunStatus.SUCCEEDED);
        String goal = "before\u0000after 東京";
        RunSnapshot saved = new RunSnapshot(first.format(), first.runId(), first.version(), goal, first.model(),
                first.status(), first.reason(), first.message(), first.answer(), first.createdAt(), first.updatedAt(),
                first.activeMillis(), first.principal(), List.of(Message.user(goal)), first.steps(), first.usage(), first.costUsd(),
                first.verificationFailures(), first.toolCallCounts(), AgentState.of(goal), first.approvals(), first.finish(),
                first.conversation());
        store().save(saved);
        assertThat(store().load(runId)).contains(saved);
        var summary = store().list().stream().filter(r -> r.runId().equals(runId)).findFirst().orElseThrow();
        assertThat(summary.goal()).startsWith("before").endsWith("after 東京");
    }

    @Test
    void halfASurrogatePairInAGoalAndAToolResultIsLoadedBackAsItWas() {
        // a tool that cut a string inside an emoji: a Java string (and JSON, as \ud83d) holds half a pair, UTF-8 cannot
        RunSnapshot first = snapshot(1, RunStatus.SUCCEEDED);
        String goal = "荷物 \ud83d の件 \udc1a end\ud83d";
        List<Message> history = List.of(Message.user(goal),
                Message.user(List.of(new dev.rein.model.ToolResultBlock("toolu_1", "cut 🚚 here: \ud83d", false))));
        RunSnapshot saved = new RunSnapshot(first.format(), first.runId(), first.version(), goal, first.model(),
                first.status(), first.reason(), first.message(), first.answer(), first.createdAt(), first.updatedAt(),
                first.activeMillis(), first.principal(), history, first.steps(), first.usage(), first.costUsd(),
                first.verificationFailures(), first.toolCallCounts(), AgentState.of(goal), first.approvals(), first.finish(),
                first.conversation());
        store().save(saved);
        assertThat(store().load(runId)).contains(saved);
        store().appendEvent(runId, new TraceEvent.Audit(runId, 1, t0, "refused", "t", "c", "u", "t", "half \ud83d"));
        var events = store().events(runId);
        if (!events.isEmpty()) {
            assertThat(dev.rein.json.Json.parse(events.get(0).json()).get("detail").asText()).isEqualTo("half \ud83d");
        }
    }

    @Test
    void savesAreCompareAndSetOnTheVersion() {
        store().save(snapshot(1, RunStatus.RUNNING));
        assertThatThrownBy(() -> store().save(snapshot(1, RunStatus.RUNNING))).isInstanceOf(StoreConflictException.class);
        store().save(snapshot(2, RunStatus.RUNNING));
        assertThatThrownBy(() -> store().save(snapshot(2, RunStatus.FAILED)))
                .isInstanceOf(StoreConflictException.class).hasMessageContaining("version 2 in the store");
        assertThatThrownBy(() -> store().save(snapshot(4, RunStatus.FAILED))).isInstanceOf(StoreConflictException.class);
        store().save(snapshot(3, RunStatus.SUCCEEDED));
        assertThat(store().load(runId).orElseThrow().status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    @Test
    void theListingShowsStatusStepsCostAndPendingApprovals() {
        store().save(snapshot(1, RunStatus.WAITING_APPROVAL));
        var summary = store().list().stream().filter(r -> r.runId().equals(runId)).findFirst().orElseThrow();
        assertThat(summary.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(summary.steps()).isEqualTo(1);
        assertThat(summary.costUsd()).isEqualByComparingTo("0.012345");
        assertThat(summary.pendingApprovals()).isEqualTo(1);
        assertThat(summary.goal()).isEqualTo("A-104 はなぜ遅れている?");
    }

    @Test
    void idempotencyRecordsAreUpserted() {
        String key = runId + ":1:0";
        var intent = new IdempotencyRecord(key, runId, 1, "toolu_1", "send_message", "h", Json.parse("{\"a\":\"値\"}"),
                IdempotencyRecord.Status.INTENT, null, 1, t0, t0);
        store().putIdempotency(intent);
        assertThat(store().idempotency(key)).contains(intent);
        var result = ToolResult.success(new ToolCall("toolu_1", "send_message", Json.object(), 0), "送信済み", "outbox");
        var done = intent.completed(result, t0.plusSeconds(1));
        store().putIdempotency(done);
        assertThat(store().idempotency(key)).contains(done);
        assertThat(store().idempotency("nope")).isEmpty();
    }

    @Test
    void eventsAreKeptInOrderPerRun() {
        store().appendEvent(runId, new TraceEvent.RunStarted(runId, 0, t0, "目標", "m", List.of(), Map.of()));
        store().appendEvent("other_" + runId, new TraceEvent.RunStarted("other_" + runId, 0, t0, "x", "m", List.of(), Map.of()));
        store().appendEvent(runId, new TraceEvent.Audit(runId, 1, t0, "refused", "t", "c", "u", "t", "詳細"));
        var events = store().events(runId);
        if (events.isEmpty()) {
            return; // a store that keeps no trace
        }
        assertThat(events).extracting(e -> e.type()).containsExactly("run_started", "audit");
        assertThat(events.get(1).json()).contains("詳細");
        assertThat(events.get(0).seq()).isLessThan(events.get(1).seq());
    }
}
