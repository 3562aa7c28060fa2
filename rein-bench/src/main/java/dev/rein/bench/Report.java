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
        footprint(lines, out);
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

    /**
     * Medians over the repeats of each client (bench/run interleaves them), with their range, and the
     * goal checked on the medians; the ratio of each repeat's pair is shown too, so a reader sees how
     * far one run can move it. Results written before repeats existed count as one repeat.
     */
    private static void concurrency(List<String> lines, StringBuilder out) {
        Map<String, Map<String, List<Map<String, String>>>> byN = new TreeMap<>();
        for (String line : lines) {
            if (line.startsWith("CONCURRENCY ")) {
                Map<String, String> f = fields(line);
                byN.computeIfAbsent(f.get("n"), n -> new LinkedHashMap<>())
                        .computeIfAbsent(f.get("client"), c -> new ArrayList<>()).add(f);
            }
        }
        if (byN.isEmpty()) {
            return;
        }
        out.append("Concurrent runs (5 steps, 200 ms model latency, server in its own JVM), median of the repeats "
                + "(range in parentheses):\n\n| N | client | repeats | wall s | peak RSS MB | failed runs |\n|---|---|---|---|---|---|\n");
        byN.forEach((n, clients) -> clients.forEach((client, results) -> {
            List<Double> wall = values(results, "wall_s");
            List<Double> rss = values(results, "rss_mb");
            long failedRepeats = results.stream().filter(f -> !f.containsKey("wall_s")).count();
            int failedRuns = results.stream().mapToInt(f -> Integer.parseInt(f.getOrDefault("failures", "0"))).sum();
            out.append(String.format("| %s | %s | %d | %s | %s | %s |%n", n, client, results.size(),
                    medianWithRange(wall, "%.2f"), medianWithRange(rss, "%.0f"),
                    failedRuns + (failedRepeats > 0 ? "; repeats that did not finish: " + failedRepeats : "")));
        }));
        out.append('\n');
        byN.forEach((n, clients) -> {
            List<Map<String, String>> lc = clients.get("langchain4j");
            for (String client : new String[] {"rein", "rein-inline"}) {
                List<Map<String, String>> rein = clients.get(client);
                if (rein == null || lc == null || values(rein, "wall_s").isEmpty() || values(lc, "wall_s").isEmpty()) {
                    continue;
                }
                double wall = LoopBench.median(values(rein, "wall_s")) / LoopBench.median(values(lc, "wall_s"));
                double rss = LoopBench.median(values(rein, "rss_mb")) / LoopBench.median(values(lc, "rss_mb"));
                // A faster run that lost runs or repeats has not met anything.
                boolean complete = rein.stream().allMatch(f -> f.containsKey("wall_s") && "0".equals(f.get("failures")));
                out.append(String.format("N=%s, %s: ÷ LangChain4j wall %.3f, peak RSS %.3f (medians; goal: both ≤ 1.000: %s)%s%n",
                        n, DESCRIPTION.get(client), wall, rss,
                        !complete ? "**not met: runs failed**" : wall <= 1 && rss <= 1 ? "met" : "**not met**",
                        perRepeat(rein, lc)));
            }
        });
        out.append('\n');
    }

    /** The heap each run in flight keeps (FootprintBench), with LangChain4j's for comparison. */
    private static void footprint(List<String> lines, StringBuilder out) {
        Map<String, Map<String, String>> byClient = new LinkedHashMap<>();
        for (String line : lines) {
            if (line.startsWith("FOOTPRINT ")) {
                Map<String, String> f = fields(line);
                byClient.put(f.get("client"), f);
            }
        }
        if (byClient.isEmpty()) {
            return;
        }
        out.append("Heap kept by each run in flight (all runs held at their 4th model call, after full collections):\n\n"
                + "| client | runs held | KB per run | failed runs |\n|---|---|---|---|\n");
        byClient.forEach((client, f) -> out.append(String.format("| %s | %s | %s | %s |%n", client, f.getOrDefault("n", "—"),
                f.getOrDefault("live_kb_per_run", "did not finish"), f.getOrDefault("failures", "—"))));
        out.append('\n');
    }

    private static List<Double> values(List<Map<String, String>> results, String key) {
        List<Double> v = new ArrayList<>();
        for (Map<String, String> f : results) {
            if (f.containsKey(key)) {
                v.add(Double.parseDouble(f.get(key)));
            }
        }
        return v;
    }

    private static String medianWithRange(List<Double> v, String format) {
        if (v.isEmpty()) {
            return "—";
        }
        String median = String.format(format, LoopBench.median(v));
        return v.size() == 1 ? median
                : median + " (" + String.format(format, v.stream().mapToDouble(d -> d).min().orElseThrow()) + "–"
                        + String.format(format, v.stream().mapToDouble(d -> d).max().orElseThrow()) + ")";
    }

    /** Each repeat's ratios against LangChain4j's run of the same repeat, when there was more than one. */
    private static String perRepeat(List<Map<String, String>> rein, List<Map<String, String>> lc) {
        Map<String, Map<String, String>> lcByRepeat = new LinkedHashMap<>();
        lc.forEach(f -> lcByRepeat.put(f.getOrDefault("repeat", "1"), f));
        List<String> pairs = new ArrayList<>();
        for (Map<String, String> f : rein) {
            Map<String, String> other = lcByRepeat.get(f.getOrDefault("repeat", "1"));
            if (other != null && f.containsKey("wall_s") && other.containsKey("wall_s")) {
                pairs.add(String.format("%.2f/%.2f", Double.parseDouble(f.get("wall_s")) / Double.parseDouble(other.get("wall_s")),
                        Double.parseDouble(f.get("rss_mb")) / Double.parseDouble(other.get("rss_mb"))));
            }
        }
        return pairs.size() < 2 ? "" : "; per repeat (wall/RSS): " + String.join(", ", pairs);
    }
}
