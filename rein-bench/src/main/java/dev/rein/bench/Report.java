package dev.rein.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** {@code Report RESULTS_FILE}: the markdown tables of docs/performance.md from bench/run's raw lines. */
public final class Report {
    /** The two Rein clients the goals are checked for: defaults, and its tool declared to abort on interrupt. */
    private static final Map<String, String> DESCRIPTION = Map.of(
            "rein", "rein (defaults: each tool call on a thread of its own)",
            "rein-inline", "rein-inline (the tool declared abortsOnInterrupt: calls on the run's thread)");

    private Report() {}

    public static void main(String[] args) throws Exception {
        List<String> lines = Files.readAllLines(Path.of(args[0]));
        StringBuilder out = new StringBuilder();
        loads(lines, out);
        loop(lines, out);
        parallel(lines, out);
        concurrency(lines, out);
        System.out.print(out);
    }

    private static Map<String, String> fields(String line) {
        Map<String, String> f = new LinkedHashMap<>();
        for (String token : line.split(" ")) {
            int eq = token.indexOf('=');
            if (eq > 0) {
                f.put(token.substring(0, eq), token.substring(eq + 1));
            }
        }
        return f;
    }

    private static void loads(List<String> lines, StringBuilder out) {
        out.append("Load average (1, 5, 15 min) while measuring:\n\n");
        for (String line : lines) {
            if (line.startsWith("LOAD ")) {
                out.append("- ").append(line.substring(5)).append('\n');
            }
        }
        out.append('\n');
    }

    private static void loop(List<String> lines, StringBuilder out) {
        Map<String, Map<String, List<Double>>> byClient = new LinkedHashMap<>();
        for (String line : lines) {
            if (line.startsWith("LOOP ")) {
                Map<String, String> f = fields(line);
                Map<String, List<Double>> m = byClient.computeIfAbsent(f.get("client"), c -> new TreeMap<>());
                for (String k : List.of("cpu_us", "alloc_kb", "wall_us", "wakeups")) {
                    if (f.containsKey(k)) { // wakeups: results written before it was measured have none
                        m.computeIfAbsent(k, x -> new ArrayList<>()).add(Double.parseDouble(f.get(k)));
                    }
                }
            }
        }
        if (byClient.isEmpty()) {
            return;
        }
        int forks = byClient.values().iterator().next().get("wall_us").size();
        out.append("Per step (one model call and its tool call), median of ").append(forks).append(" forks:\n\n");
        out.append("| client | client CPU µs/step | client alloc KB/step | wall µs/step | thread wake-ups/step |\n|---|---|---|---|---|\n");
        Map<String, double[]> med = new LinkedHashMap<>();
        byClient.forEach((client, m) -> {
            double[] v = {LoopBench.median(m.get("cpu_us")), LoopBench.median(m.get("alloc_kb")), LoopBench.median(m.get("wall_us"))};
            med.put(client, v);
            String wakeups = m.containsKey("wakeups") ? String.format("%.1f", LoopBench.median(m.get("wakeups"))) : "—";
            out.append(String.format("| %s | %.0f | %.1f | %.0f | %s |%n", client, v[0], v[1], v[2], wakeups));
        });
        double[] json = med.get("floor-json");
        double[] sse = med.get("floor-sse");
        double[] lc = med.get("langchain4j");
        if (json != null && sse != null && lc != null) {
            for (String client : new String[] {"rein", "rein-inline"}) {
                double[] rein = med.get(client);
                if (rein == null) {
                    continue;
                }
                out.append(String.format("%nGoals for %s (ratios of medians measured in this run):%n%n| goal | measured | met |%n|---|---|---|%n",
                        DESCRIPTION.get(client)));
                goal(out, "Rein wall per step ≤ 1.2 × streaming floor", rein[2] / sse[2], 1.2);
                goal(out, "Rein alloc over streaming floor ≤ 0.5 × LangChain4j's over its (JSON) floor",
                        (rein[1] - sse[1]) / (lc[1] - json[1]), 0.5);
                goal(out, "Rein CPU over streaming floor ≤ 1.0 × LangChain4j's over its (JSON) floor",
                        (rein[0] - sse[0]) / (lc[0] - json[0]), 1.0);
                out.append(String.format("%nOverheads: %s %.0f µs / %.1f KB per step over the streaming floor; "
                        + "LangChain4j %.0f µs / %.1f KB over the JSON floor.%n", client, rein[0] - sse[0], rein[1] - sse[1],
                        lc[0] - json[0], lc[1] - json[1]));
            }
            double[] model = med.get("rein-model");
            if (model != null) {
                out.append(String.format("Rein's provider alone (rein-model: AnthropicModel in a hand-written loop, no agent): "
                        + "%+.0f µs / %+.1f KB / %+.0f µs wall per step against the streaming floor.%n",
                        model[0] - sse[0], model[1] - sse[1], model[2] - sse[2]));
            }
            double[] inProcess = med.get("rein-inprocess");
            if (inProcess != null) {
                out.append(String.format("Rein's agent loop without a provider (rein-inprocess: in-process model, no HTTP): "
                        + "%.0f µs / %.1f KB per step.%n", inProcess[0], inProcess[1]));
            }
        }
        out.append('\n');
    }

    private static void goal(StringBuilder out, String what, double ratio, double limit) {
        out.append(String.format("| %s | %.2f | %s |%n", what, ratio, ratio <= limit ? "yes" : "**no**"));
    }

    private static void parallel(List<String> lines, StringBuilder out) {
        boolean header = false;
        for (String line : lines) {
            if (line.startsWith("PARALLEL ")) {
                if (!header) {
                    out.append("Parallel step (four 100 ms tools), end of response to next request; medians of its parts: "
                            + "to the first tool's start, the tools, from the last tool's end:\n\n"
                            + "| client | steps measured | median ms | p90 ms | before ms | tools ms | after ms | ≤ 103 ms |\n"
                            + "|---|---|---|---|---|---|---|---|\n");
                    header = true;
                }
                Map<String, String> f = fields(line);
                double median = Double.parseDouble(f.get("median_ms"));
                out.append("| ").append(f.get("client")).append(" | ").append(f.get("steps")).append(" | ")
                        .append(f.get("median_ms")).append(" | ").append(f.get("p90_ms")).append(" | ")
                        .append(f.getOrDefault("before_ms", "—")).append(" | ").append(f.getOrDefault("tools_ms", "—"))
                        .append(" | ").append(f.getOrDefault("after_ms", "—")).append(" | ")
                        .append(median <= 103 ? "yes" : "**no**").append(" |\n");
            }
        }
        if (header) {
            out.append('\n');
        }
    }

    private static void concurrency(List<String> lines, StringBuilder out) {
        boolean header = false;
        Map<String, Map<String, double[]>> byN = new TreeMap<>();
        for (String line : lines) {
            if (line.startsWith("CONCURRENCY ")) {
                if (!header) {
                    out.append("Concurrent runs (5 steps, 200 ms model latency, server in its own JVM):\n\n"
                            + "| N | client | wall s | peak RSS MB | failed runs |\n|---|---|---|---|---|\n");
                    header = true;
                }
                Map<String, String> f = fields(line);
                out.append("| ").append(f.get("n")).append(" | ").append(f.get("client")).append(" | ")
                        .append(f.getOrDefault("wall_s", "—")).append(" | ").append(f.getOrDefault("rss_mb", "—"))
                        .append(" | ").append(f.getOrDefault("failures", "all")).append(" |\n");
                if (f.containsKey("wall_s") && f.containsKey("rss_mb")) {
                    byN.computeIfAbsent(f.get("n"), n -> new LinkedHashMap<>()).put(f.get("client"),
                            new double[] {Double.parseDouble(f.get("wall_s")), Double.parseDouble(f.get("rss_mb"))});
                }
            }
        }
        if (!header) {
            return;
        }
        out.append('\n');
        byN.forEach((n, clients) -> {
            double[] lc = clients.get("langchain4j");
            for (String client : new String[] {"rein", "rein-inline"}) {
                double[] rein = clients.get(client);
                if (rein != null && lc != null) {
                    out.append(String.format("N=%s, %s: ÷ LangChain4j wall %.3f, peak RSS %.3f (goal: both ≤ 1.000: %s)%n", n,
                            DESCRIPTION.get(client), rein[0] / lc[0], rein[1] / lc[1],
                            rein[0] <= lc[0] && rein[1] <= lc[1] ? "met" : "**not met**"));
                }
            }
        });
        out.append('\n');
    }
}
