package dev.rein.safety;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.json.Json;
import dev.rein.run.RunStatus;
import dev.rein.state.IdempotencyRecord;
import dev.rein.state.InMemoryRunStore;
import dev.rein.state.RunSnapshot;
import dev.rein.state.RunStore;
import dev.rein.state.RunSummary;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolOutput;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A person edits a waiting action, the run resumes, and its process dies after the edited call took
 * effect but before its completion was recorded. Another process resumes from what the store held
 * at that moment: the edited call is delivered again with the same key and the same (edited)
 * arguments, without asking the person again, and the external system applies it once.
 */
class EditedApprovalCrashTest {
    private static final String SEND = "{\"to\":\"alice@example.com\",\"body\":\"draft\"}";

    /** What the disk held when the process died: a copy of the store, taken inside the handler. */
    static final class DiskCopy implements RunStore {
        final Map<String, RunSnapshot> runs = new ConcurrentHashMap<>();
        final Map<String, IdempotencyRecord> keys = new ConcurrentHashMap<>();

        @Override
        public void save(RunSnapshot snapshot) {
            runs.put(snapshot.runId(), snapshot);
        }

        @Override
        public Optional<RunSnapshot> load(String runId) {
            return Optional.ofNullable(runs.get(runId));
        }

        @Override
        public List<RunSummary> list() {
            return runs.values().stream().map(RunSnapshot::summary).toList();
        }

        @Override
        public Optional<IdempotencyRecord> idempotency(String key) {
            return Optional.ofNullable(keys.get(key));
        }

        @Override
        public void putIdempotency(IdempotencyRecord record) {
            keys.put(record.key(), record);
        }
    }

    @Test
    void anEditedCallInFlightWhenTheProcessDiedIsRedeliveredWithTheEditedArgumentsAndTheSameKey() {
        List<String> requests = new CopyOnWriteArrayList<>();
        Map<String, String> applied = new ConcurrentHashMap<>();
        InMemoryRunStore first = new InMemoryRunStore();
        DiskCopy disk = new DiskCopy();
        AtomicReference<String> runId = new AtomicReference<>();
        Tool send = Tool.builder("send_message").description("Sends a message.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"to\":{\"type\":\"string\"},\"body\":{\"type\":\"string\"}},"
                        + "\"required\":[\"to\",\"body\"]}")
                .risk(Risk.IRREVERSIBLE)
                .handler((args, ctx) -> {
                    if (requests.isEmpty()) { // the first process: what is on disk now survives the crash
                        disk.save(first.load(runId.get()).orElseThrow());
                        disk.putIdempotency(first.idempotency(ctx.idempotencyKey()).orElseThrow());
                    }
                    requests.add(ctx.idempotencyKey() + " " + args.get("body").asText());
                    applied.putIfAbsent(ctx.idempotencyKey(), args.get("body").asText());
                    return ToolOutput.text("sent").withSource("outbox");
                }).build();

        Agent agent = Agent.builder().model(ScriptedModel.of(toolCalls(call("send_message", SEND)), text("done")))
                .tools(send).store(first).build();
        RunResult paused = agent.run("tell alice");
        runId.set(paused.runId());
        agent.runs().edit(paused.runId(), paused.pendingApprovals().get(0).actionHash(),
                Json.parse("{\"to\":\"alice@example.com\",\"body\":\"edited\"}"), "carol");
        agent.resume(paused.runId());
        assertThat(disk.keys.values()).singleElement()
                .satisfies(r -> assertThat(r.status()).isEqualTo(IdempotencyRecord.Status.INTENT));

        Agent second = Agent.builder().model(ScriptedModel.of(text("done"))).tools(send).store(disk).build();
        RunResult done = second.resume(paused.runId());

        assertThat(done.status()).as(done.message()).isEqualTo(RunStatus.SUCCEEDED);
        String key = paused.runId() + ":1:0";
        assertThat(requests).containsExactly(key + " edited", key + " edited");
        assertThat(applied).containsExactly(Map.entry(key, "edited"));
    }
}
