package dev.rein.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.run.RunStatus;
import dev.rein.approval.ApprovalRequest;
import dev.rein.model.ContentBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.state.IdempotencyRecord;
import dev.rein.state.RunSnapshot;
import dev.rein.state.Runs;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills the agent's process ({@code destroyForcibly}, like a crash or kill -9) while it waits for
 * approval, before the side effect, after the side effect but before its completion was recorded,
 * and after the completion was recorded but before the step was checkpointed; each time a new
 * process resumes the run from the SQLite file. The payment API deduplicates by idempotency key.
 * Required: the charge is applied exactly once, the call that was in flight is re-sent with the
 * same key, and no recorded fact is lost.
 */
class CrashSafetyTest {
    @TempDir
    Path dir;
    private final List<Process> processes = new ArrayList<>();

    @AfterEach
    void killLeftovers() {
        processes.forEach(Process::destroyForcibly);
    }

    @Test
    void aSideEffectHappensExactlyOnceWhateverPointTheProcessDiesAt() throws Exception {
        Path db = dir.resolve("db");
        FilePaymentApi payments = new FilePaymentApi(dir.resolve("payments"));
        String key = CrashChild.RUN_ID + ":2:0";

        killAt("start", "PAUSED WAITING_APPROVAL");
        try (JdbcRunStore store = JdbcRunStore.sqlite(db)) {
            ApprovalRequest pending = Runs.in(store).pending(CrashChild.RUN_ID).get(0);
            assertThat(pending.tool()).isEqualTo("charge_card");
            Runs.in(store).approve(CrashChild.RUN_ID, pending.actionHash(), "ops@example.com");
        }
        assertThat(payments.requests()).isEmpty();

        killAt("hang-before-effect", "BEFORE_EFFECT");
        assertThat(payments.requests()).isEmpty();
        assertThat(record(db, key).status()).isEqualTo(IdempotencyRecord.Status.INTENT);

        killAt("hang-after-effect", "EFFECT_APPLIED");
        assertThat(payments.requests()).containsExactly(key);
        assertThat(payments.charges()).hasSize(1);
        assertThat(record(db, key).status()).isEqualTo(IdempotencyRecord.Status.INTENT);

        killAt("hang-after-record", "RESULT_RECORDED");
        assertThat(payments.requests()).as("the in-flight call is re-sent with the same key").containsExactly(key, key);
        assertThat(payments.charges()).hasSize(1);
        assertThat(record(db, key).status()).isEqualTo(IdempotencyRecord.Status.COMPLETED);

        List<String> output = runToEnd("finish");
        assertThat(output).contains("FINISHED SUCCEEDED completed");
        assertThat(payments.requests()).as("a completed call is never executed again").containsExactly(key, key);
        assertThat(payments.charges()).singleElement().satisfies(c -> assertThat(c).isEqualTo(key + " A-104 1200"));

        try (JdbcRunStore store = JdbcRunStore.sqlite(db)) {
            RunSnapshot done = store.load(CrashChild.RUN_ID).orElseThrow();
            assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
            assertThat(done.state().facts()).extracting(f -> f.source()).containsExactly("orders-db", "payments-api");
            assertThat(done.state().facts().get(0).text()).contains("配送センターで保留中");
            long chargeResults = done.history().stream().flatMap(m -> m.content().stream())
                    .filter(b -> b instanceof ToolResultBlock r && r.content().contains("receipt")).count();
            assertThat(chargeResults).isEqualTo(1);
            assertThat(store.events(CrashChild.RUN_ID)).extracting(e -> e.json())
                    .anySatisfy(j -> assertThat(j).contains("\"kind\":\"redelivery\""))
                    .anySatisfy(j -> assertThat(j).contains("\"kind\":\"idempotent_replay\""))
                    .anySatisfy(j -> assertThat(j).contains("\"type\":\"approval_decided\"").contains("ops@example.com"));
            assertThat(done.history()).allSatisfy(m -> assertThat(m.content()).isNotEmpty());
            assertThat(done.history().get(done.history().size() - 1).content().get(0)).isInstanceOf(ContentBlock.class);
        }
    }

    private IdempotencyRecord record(Path db, String key) {
        try (JdbcRunStore store = JdbcRunStore.sqlite(db)) {
            return store.idempotency(key).orElseThrow();
        }
    }

    /** Starts the child in {@code mode}, waits for {@code marker}, then kills it hard. */
    private void killAt(String mode, String marker) throws Exception {
        Process p = start(mode);
        BlockingQueue<String> lines = pump(p);
        List<String> seen = new ArrayList<>();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < until) {
            String line = lines.poll(200, TimeUnit.MILLISECONDS);
            if (line != null) {
                seen.add(line);
                if (line.equals(marker)) {
                    p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                    return;
                }
            } else if (!p.isAlive() && lines.isEmpty()) {
                break;
            }
        }
        p.destroyForcibly();
        throw new AssertionError("the child (" + mode + ") never printed '" + marker + "'; its output: " + seen);
    }

    private List<String> runToEnd(String mode) throws Exception {
        Process p = start(mode);
        BlockingQueue<String> lines = pump(p);
        assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("the child finishes").isTrue();
        Thread.sleep(100);
        List<String> out = new ArrayList<>();
        lines.drainTo(out);
        assertThat(p.exitValue()).as("exit code; output " + out).isZero();
        return out;
    }

    private Process start(String mode) throws IOException {
        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        ProcessBuilder pb = new ProcessBuilder(java, "-Dfile.encoding=UTF-8", "-Dstdout.encoding=UTF-8", "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"), CrashChild.class.getName(),
                dir.resolve("db").toString(), dir.resolve("payments").toString(), mode);
        pb.redirectErrorStream(true);
        Process p = pb.start();
        processes.add(p);
        return p;
    }

    private static BlockingQueue<String> pump(Process p) {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.add(line);
                }
            } catch (IOException ignored) {
                // The process was killed; what it printed before is in the queue.
            }
        });
        return lines;
    }
}
