package dev.rein.cli;

import dev.rein.ReinException;
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
 * replayed with this Rein; it passes when it ends as recorded (status and reason). Divergences
 * on the way are reported but do not fail a task that still ends as recorded.
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
                boolean ok = report.result().status().name().equals(report.recordedStatus())
                        && report.result().reason().equals(report.recordedReason());
                passed += ok ? 1 : 0;
                env.out().println(Text.visibleLines((ok ? "PASS " : "FAIL ") + trace.getFileName() + " " + runId + ": expected "
                        + report.recordedStatus() + "/" + report.recordedReason() + ", replayed " + report.result().status() + "/"
                        + report.result().reason() + report.firstDivergence().map(d -> "; first divergence: " + d.description())
                        .orElse("")));
            }
        }
        env.out().println(passed + " of " + tasks + " recorded runs ended as recorded");
        return passed == tasks ? ExitCodes.SUCCEEDED : ExitCodes.FAILED;
    }
}
