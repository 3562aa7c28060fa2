package dev.rein.state;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.ModelPrice;
import dev.rein.json.Json;
import dev.rein.model.Model;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.Usage;
import dev.rein.run.RunStatus;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolOutput;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The stored snapshot holds the goal and the budget used once (format 2), and a run paused by the
 * previous release (format 1, stored as JSON: {@code snapshots/paused-format1.json}) still resumes.
 */
class SnapshotFormatTest {
    private static final String RUN_ID = "run_f9fdb01ecd364c8e94ea";

    private static String fixture() throws IOException {
        try (InputStream in = SnapshotFormatTest.class.getResourceAsStream("/snapshots/paused-format1.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void aFormat1SnapshotReadsWithItsGoalAndBudgetInTheState() throws IOException {
        RunSnapshot old = SnapshotCodec.readSnapshot(fixture());

        assertThat(old.format()).isEqualTo(1);
        assertThat(old.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(old.state().goal()).isEqualTo(old.goal()).isEqualTo("tell alice about order A-104");
        assertThat(old.state().budget()).isEqualTo(new BudgetUsage(old.steps(), old.usage(), old.costUsd(), old.activeMillis()));
        assertThat(old.state().budget().steps()).isEqualTo(2);
        assertThat(old.state().facts()).singleElement().satisfies(f -> assertThat(f.source()).isEqualTo("orders-db"));
        assertThat(old.pendingApprovals()).singleElement().satisfies(r -> assertThat(r.tool()).isEqualTo("send_message"));
    }

    @Test
    void theStoredFormHoldsTheGoalAndTheBudgetOnceAndReadsBackTheSame() throws IOException {
        RunSnapshot old = SnapshotCodec.readSnapshot(fixture());
        String stored = SnapshotCodec.write(old);
        JsonNode tree = Json.parse(stored);

        assertThat(tree.path("format").asInt()).isEqualTo(RunSnapshot.FORMAT).isEqualTo(2);
        assertThat(tree.path("goal").asText()).isEqualTo("tell alice about order A-104");
        assertThat(tree.path("state").has("goal")).isFalse();
        assertThat(tree.path("state").has("budget")).isFalse();

        RunSnapshot back = SnapshotCodec.readSnapshot(stored);
        assertThat(SnapshotCodec.write(back)).isEqualTo(stored);
        assertThat(back.state()).isEqualTo(old.state());
        assertThat(back.history()).isEqualTo(old.history());
        assertThat(back.approvals()).isEqualTo(old.approvals());
        assertThat(back.summary()).isEqualTo(old.summary());
    }

    @Test
    void theRepliesOfAConversationRoundTripAndARunStoredWithoutThemStillLoads() throws IOException {
        RunSnapshot old = SnapshotCodec.readSnapshot(fixture());
        Conversation conversation = new Conversation(3, 4, Usage.ZERO, BigDecimal.ONE, 50,
                List.of(new Conversation.Reply(2, "会議室Bで"), new Conversation.Reply(3, "and at 10:00?")));
        RunSnapshot withReplies = new RunSnapshot(old.format(), old.runId(), old.version(), old.goal(), old.model(), old.status(),
                old.reason(), old.message(), old.answer(), old.createdAt(), old.updatedAt(), old.activeMillis(), old.principal(),
                old.history(), old.steps(), old.usage(), old.costUsd(), old.verificationFailures(), old.toolCallCounts(),
                old.state(), old.approvals(), old.finish(), conversation);
        String stored = SnapshotCodec.write(withReplies);
        assertThat(SnapshotCodec.readSnapshot(stored).conversation()).isEqualTo(conversation);

        // a snapshot written before replies were kept: its turn and counts load, with no replies
        com.fasterxml.jackson.databind.node.ObjectNode tree = (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(stored);
        assertThat(((com.fasterxml.jackson.databind.node.ObjectNode) tree.get("conversation")).remove("replies")).isNotNull();
        Conversation before = SnapshotCodec.readSnapshot(Json.write(tree)).conversation();
        assertThat(before.turn()).isEqualTo(3);
        assertThat(before.stepsBefore()).isEqualTo(4);
        assertThat(before.replies()).isEmpty();
        assertThat(before.currentReply()).isNull();
    }

    /**
     * A typed run's output schema is kept as its name and JSON, in the same format (an added field), and
     * reads back as a schema that checks answers; a snapshot without it (format 1, or format 2 before the
     * schema was kept) reads as an untyped run's, and an untyped run is stored as before.
     */
    @Test
    void aTypedRunsOutputSchemaRoundTripsAndASnapshotWithoutOneReadsWithNone() throws IOException {
        RunSnapshot old = SnapshotCodec.readSnapshot(fixture());
        assertThat(old.outputSchema()).isNull();
        assertThat(Json.parse(SnapshotCodec.write(old)).has("output_schema")).isFalse();
        assertThat(SnapshotCodec.readSnapshot(SnapshotCodec.write(old)).outputSchema()).isNull();

        dev.rein.model.OutputSchema schema = dev.rein.model.OutputSchema.fromJson("返金", "{\"type\":\"object\",\"properties\":"
                + "{\"amount\":{\"type\":\"number\",\"maximum\":1.5}},\"required\":[\"amount\"]}");
        RunSnapshot typed = new RunSnapshot(old.format(), old.runId(), old.version(), old.goal(), old.model(), old.status(),
                old.reason(), old.message(), old.answer(), old.createdAt(), old.updatedAt(), old.activeMillis(), old.principal(),
                old.history(), old.steps(), old.usage(), old.costUsd(), old.verificationFailures(), old.toolCallCounts(),
                old.state(), old.approvals(), old.finish(), old.conversation(), old.secretsHandedOut(), old.criticRounds(),
                StoredOutputSchema.of(schema));
        String stored = SnapshotCodec.write(typed);
        JsonNode tree = Json.parse(stored);
        assertThat(tree.path("format").asInt()).isEqualTo(RunSnapshot.FORMAT).isEqualTo(2);
        assertThat(tree.path("output_schema").path("name").asText()).isEqualTo("返金");

        RunSnapshot back = SnapshotCodec.readSnapshot(stored);
        assertThat(back.outputSchema()).isEqualTo(StoredOutputSchema.of(schema));
        assertThat(back.outputSchema().outputSchema()).isEqualTo(schema);
        assertThat(back.outputSchema().outputSchema().problems("{\"amount\":2}")).singleElement().asString().contains("1.5");
        assertThat(back.outputSchema().outputSchema().problems("{\"amount\":1}")).isEmpty();
        assertThat(SnapshotCodec.write(back)).isEqualTo(stored);
        assertThat(back.withApprovals(back.approvals(), back.updatedAt()).outputSchema()).isEqualTo(StoredOutputSchema.of(schema));
        assertThat(back.withStatus(RunStatus.CANCELLED, "cancelled", "", back.updatedAt()).outputSchema())
                .isEqualTo(StoredOutputSchema.of(schema));

        com.fasterxml.jackson.databind.node.ObjectNode without = (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(stored);
        without.remove("output_schema");
        assertThat(SnapshotCodec.readSnapshot(Json.write(without)).outputSchema()).isNull();
    }

    /**
     * A stored output schema is read as it is stored, not compiled: one this Rein cannot use (an invalid schema, a
     * dialect it no longer takes, a hand-edited field) still reads, and is written back unchanged, so the run can be
     * shown and cancelled; only its resume is refused (TypedRunResumeTest). Before, each of these made the snapshot
     * unreadable.
     */
    @Test
    void aStoredOutputSchemaThatCannotBeUsedStillReadsAndIsWrittenBackAsItWas() throws IOException {
        String fixture = SnapshotCodec.write(SnapshotCodec.readSnapshot(fixture()));
        for (String stored : List.of("{\"name\":\"Refund\",\"schema\":{\"type\":5}}", "{\"name\":\"Refund\",\"schema\":\"x\"}",
                "{\"name\":\"Refund\"}", "{\"schema\":{\"type\":\"object\"}}", "\"Refund\"",
                "{\"name\":\"Refund\",\"schema\":{\"$schema\":\"http://json-schema.org/draft-04/schema#\"}}")) {
            com.fasterxml.jackson.databind.node.ObjectNode tree = (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(fixture);
            tree.set("output_schema", Json.parse(stored));

            RunSnapshot read = SnapshotCodec.readSnapshot(Json.write(tree));

            assertThat(read.outputSchema()).as(stored).isNotNull();
            assertThat(Json.parse(SnapshotCodec.write(read)).path("output_schema")).as(stored).isEqualTo(Json.parse(stored));
        }
    }

    @Test
    void aRunPausedByThePreviousReleaseResumesAfterApproval() throws IOException {
        JsonStore store = new JsonStore();
        store.json.put(RUN_ID, fixture());
        List<String> sent = new CopyOnWriteArrayList<>();
        List<ModelRequest> requests = new CopyOnWriteArrayList<>();
        Model model = (request, context) -> {
            requests.add(request);
            return new ModelResponse("r", request.model(), List.of(new TextBlock("Alice was told.")), StopReason.END_TURN,
                    null, Usage.of(100, 10, 0, 0));
        };
        Agent agent = Agent.builder().model(model).modelName("scripted-model")
                .price("scripted-model", ModelPrice.of("1", "0", "1")).tools(sendTool(sent), lookupTool()).store(store).build();
        String hash = store.load(RUN_ID).orElseThrow().pendingApprovals().get(0).actionHash();

        agent.runs().approve(RUN_ID, hash, "carol");
        RunResult done = agent.resume(RUN_ID);

        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(done.answer()).isEqualTo("Alice was told.");
        assertThat(done.steps()).as("the two steps before the pause count").isEqualTo(3);
        assertThat(sent).containsExactly("alice@example.com");
        ToolResultBlock result = (ToolResultBlock) requests.get(0).messages().get(4).content().get(0);
        assertThat(result.toolUseId()).isEqualTo("toolu_2_1");
        assertThat(result.content()).contains("sent to alice@example.com");
        assertThat(done.state().facts()).hasSize(2);

        JsonNode saved = Json.parse(store.json.get(RUN_ID));
        assertThat(saved.path("format").asInt()).isEqualTo(2);
        assertThat(saved.path("steps").asInt()).isEqualTo(3);
        RunSnapshot last = store.load(RUN_ID).orElseThrow();
        assertThat(last.state().budget().steps()).isEqualTo(3);
        assertThat(last.state().goal()).isEqualTo("tell alice about order A-104");
        assertThat(last.costUsd()).isGreaterThanOrEqualTo(BigDecimal.ZERO);
    }

    @Test
    void aRunWhoseDecisionWasStoredWithoutWhoMadeItOrWhenStillShowsAndResumes() throws IOException {
        // as Runs stored a decision given no name before it refused one, and application code one given no time
        com.fasterxml.jackson.databind.node.ObjectNode tree = (com.fasterxml.jackson.databind.node.ObjectNode) Json.parse(fixture());
        String hash = tree.path("approvals").path("requests").get(0).path("action_hash").asText();
        ((com.fasterxml.jackson.databind.node.ObjectNode) tree.path("approvals").path("decisions")).set("toolu_2_1",
                Json.parse("{\"decision\":\"approve\",\"action_hash\":\"" + hash + "\",\"decided_by\":null}"));
        JsonStore store = new JsonStore();
        store.json.put(RUN_ID, Json.write(tree));
        List<String> sent = new CopyOnWriteArrayList<>();
        List<dev.rein.trace.TraceEvent> events = new CopyOnWriteArrayList<>();
        Model model = (request, context) -> new ModelResponse("r", request.model(), List.of(new TextBlock("Alice was told.")),
                StopReason.END_TURN, null, Usage.of(100, 10, 0, 0));
        Agent agent = Agent.builder().model(model).modelName("scripted-model")
                .price("scripted-model", ModelPrice.of("1", "0", "1")).tools(sendTool(sent), lookupTool()).store(store)
                .listener(id -> new dev.rein.trace.RunListener() {
                    @Override
                    public void onEvent(dev.rein.trace.TraceEvent event) {
                        events.add(event);
                    }
                }).build();

        RunView view = agent.runs().show(RUN_ID);
        assertThat(view.decided()).singleElement().satisfies(d -> assertThat(d.describe())
                .endsWith("approved by " + dev.rein.approval.ApprovalDecision.NOT_RECORDED));
        RunResult done = agent.resume(RUN_ID);

        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(sent).containsExactly("alice@example.com");
        assertThat(events).filteredOn(e -> e instanceof dev.rein.trace.TraceEvent.ApprovalDecided).singleElement()
                .satisfies(e -> {
                    dev.rein.trace.TraceEvent.ApprovalDecided decided = (dev.rein.trace.TraceEvent.ApprovalDecided) e;
                    assertThat(decided.decidedBy()).isEqualTo("(not recorded)");
                    assertThat(decided.time()).as("the time of the save that stored it").isEqualTo(java.time.Instant.parse(tree.path("updated_at").asText()));
                });
    }

    private static Tool sendTool(List<String> sent) {
        return Tool.builder("send_message").description("Sends a message.")
                .inputSchema("""
                        {"type":"object","properties":{"to":{"type":"string"},"body":{"type":"string"}},
                         "required":["to","body"]}""")
                .risk(Risk.WRITE)
                .handler((args, ctx) -> {
                    sent.add(args.get("to").asText());
                    return ToolOutput.text("sent to " + args.get("to").asText()).withSource("outbox");
                })
                .build();
    }

    private static Tool lookupTool() {
        return Tool.builder("lookup_order").description("Looks up an order.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .handler((args, ctx) -> ToolOutput.text("A-104: delayed at the depot").withSource("orders-db"))
                .build();
    }

    /** A store that keeps snapshots as JSON text, as a database store does (and as the previous release wrote them). */
    private static final class JsonStore implements RunStore {
        final Map<String, String> json = new ConcurrentHashMap<>();
        private final InMemoryRunStore keys = new InMemoryRunStore();

        @Override
        public synchronized void save(RunSnapshot snapshot) {
            long stored = load(snapshot.runId()).map(RunSnapshot::version).orElse(0L);
            if (snapshot.version() != stored + 1) {
                throw new StoreConflictException("run " + snapshot.runId() + " is at version " + stored);
            }
            json.put(snapshot.runId(), SnapshotCodec.write(snapshot));
        }

        @Override
        public Optional<RunSnapshot> load(String runId) {
            return Optional.ofNullable(json.get(runId)).map(SnapshotCodec::readSnapshot);
        }

        @Override
        public List<RunSummary> list() {
            return json.keySet().stream().map(id -> load(id).orElseThrow().summary()).toList();
        }

        @Override
        public Optional<IdempotencyRecord> idempotency(String key) {
            return keys.idempotency(key);
        }

        @Override
        public void putIdempotency(IdempotencyRecord record) {
            keys.putIdempotency(record);
        }
    }
}
