package dev.rein.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.ReinException;
import dev.rein.json.Json;
import dev.rein.replay.RecordedRun;
import dev.rein.replay.Replay;
import dev.rein.replay.ReplayReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code rein eval DIR}: every run of every {@code *.jsonl} trace in DIR is a regression task,
 * replayed with this Rein; it passes when it ends as recorded (status and reason), or as an
 * optional {@code expected.json} in DIR says: {@code {"a.jsonl": {"status": "FAILED", "reason":
 * "stalled"}}} (a key may also be {@code "a.jsonl#RUN_ID"}; a missing reason accepts any).
 * Divergences on the way are reported but do not fail a task that ends as expected.
 */
final class TraceRegression {
    private TraceRegression() {}

    static int run(Path dir, CliEnvironment env) {
        List<Path> traces;
        try (Stream<Path> files = Files.list(dir)) {
            traces = files.filter(f -> f.getFileName().toString().endsWith(".jsonl")).sorted().toList();
        } catch (IOException e) {
            throw new UsageException("cannot list the trace folder " + dir + ": " + e.getMessage());
        }
        if (traces.isEmpty()) {
            throw new UsageException("the folder " + dir + " holds no .jsonl traces; give a suite file or a folder of traces");
        }
        JsonNode expectations = expectations(dir);
        int tasks = 0;
        int passed = 0;
        for (Path trace : traces) {
            List<String> runs;
            try {
                runs = Replay.runIds(trace);
            } catch (ReinException e) {
                throw new UsageException(e.getMessage());
            }
            for (String runId : runs) {
                Replay replay = Replay.from(trace).run(runId);
                RecordedRun recorded = replay.recorded();
                ReplayReport report = replay.replay(ReplayCommand.agent(recorded, env));
                tasks++;
                JsonNode override = expectations.path(trace.getFileName() + "#" + runId);
                override = override.isMissingNode() ? expectations.path(trace.getFileName().toString()) : override;
                String status = override.path("status").asText(report.recordedStatus());
                String reason = override.isMissingNode() ? report.recordedReason() : override.path("reason").asText(null);
                boolean ok = report.result().status().name().equals(status)
                        && (reason == null || report.result().reason().equals(reason));
                passed += ok ? 1 : 0;
                env.out().println(Text.visibleLines((ok ? "PASS " : "FAIL ") + trace.getFileName() + " " + runId + ": expected "
                        + status + "/" + (reason == null ? "any reason" : reason) + ", replayed " + report.result().status() + "/"
                        + report.result().reason() + report.firstDivergence().map(d -> "; first divergence: " + d.description())
                        .orElse("")));
            }
        }
        env.out().println(passed + " of " + tasks + " recorded runs ended as recorded");
        return passed == tasks ? ExitCodes.SUCCEEDED : ExitCodes.FAILED;
    }

    /** The expected endings that differ from the recorded ones, from DIR/expected.json; empty when there is none. */
    private static JsonNode expectations(Path dir) {
        Path file = dir.resolve("expected.json");
        if (!Files.exists(file)) {
            return Json.object();
        }
        try {
            JsonNode node = Json.parse(Files.readString(file, java.nio.charset.StandardCharsets.UTF_8));
            if (!node.isObject()) {
                throw new UsageException(file + " must be a JSON object: {\"TRACE.jsonl\": {\"status\": \"FAILED\", \"reason\": \"stalled\"}}");
            }
            return node;
        } catch (IOException e) {
            throw new UsageException("cannot read " + file + ": " + e.getMessage());
        } catch (ReinException e) {
            throw new UsageException(file + ": " + e.getMessage());
        }
    }
}
