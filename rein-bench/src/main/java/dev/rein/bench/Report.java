package dev.rein.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code Report RESULTS_FILE}: the markdown tables of docs/performance.md from bench/run's raw lines, and each goal
 * judged on the forks (repeats) paired by number ({@link PairedGoal}). It reads only the raw lines, so a summary can
 * be written again from an old run ({@code bench/run summarize DIR}).
 *
 * <p>Numbers are written with {@link Locale#ROOT} (a decimal point), here and in the benchmarks' {@code RESULT} lines:
 * under a decimal-comma default locale results.txt got "200,0", which {@link Double#parseDouble} refuses, and the
 * summary "1,33" where docs/performance.md has "1.33".
 */
public final class Report {
    /** The two Rein clients the goals are checked for: defaults, and its tool declared to abort on interrupt. */
    private static final Map<String, String> DESCRIPTION = Map.of(
            "rein", "rein (defaults: each tool call on a thread of its own)",
            "rein-inline", "rein-inline (the tool declared abortsOnInterrupt: calls on the run's thread)");

    private Report() {}

    public static void main(String[] args) throws IOException {
        int status = write(summarize(Files.readAllLines(Path.of(args[0]))), System.out, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * Writes {@code text} to {@code out} and answers the exit status: 1, said on {@code err}, when it could not all
     * be written. A {@link PrintStream} swallows write errors, so without this a full disk left a half-written
     * summary and exit status 0, and bench/run summarize moved it over the old one.
     */
    static int write(String text, PrintStream out, PrintStream err) {
        out.print(text);
        out.flush();
        if (out.checkError()) {
            err.println("Report: the summary could not be written (all of it) to standard output, e.g. the disk is full;"
                    + " nothing written there is complete: free space and run it again");
            return 1;
        }
        return 0;
    }

    static String summarize(List<String> lines) {
        StringBuilder out = new StringBuilder();
        loads(lines, out);
        loop(lines, out);
        parallel(lines, out);
        concurrency(lines, out);
        footprint(lines, out);
        return out.toString();
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
        Map<String, Map<Integer, double[]>> forks = new LinkedHashMap<>(); // client -> fork -> cpu, alloc, wall
        for (String line : lines) {
            if (line.startsWith("LOOP ")) {
                Map<String, String> f = fields(line);
                Map<String, List<Double>> m = byClient.computeIfAbsent(f.get("client"), c -> new TreeMap<>());
                for (String k : List.of("cpu_us", "alloc_kb", "wall_us", "wakeups")) {
                    if (f.containsKey(k)) { // wakeups: results written before it was measured have none
                        m.computeIfAbsent(k, x -> new ArrayList<>()).add(Double.parseDouble(f.get(k)));
                    }
                }
                Map<Integer, double[]> byFork = forks.computeIfAbsent(f.get("client"), c -> new TreeMap<>());
                byFork.put(Integer.parseInt(f.getOrDefault("fork", String.valueOf(byFork.size() + 1))), new double[] {
                    Double.parseDouble(f.get("cpu_us")), Double.parseDouble(f.get("alloc_kb")), Double.parseDouble(f.get("wall_us"))});
            }
        }
        if (byClient.isEmpty()) {
            return;
        }
        Set<Integer> forkCounts = new TreeSet<>();
        forks.values().forEach(m -> forkCounts.add(m.size()));
        out.append("Per step (one model call and its tool call), median of ")
                .append(forkCounts.size() == 1 ? forkCounts.iterator().next() + " forks" : "each client's forks (" + forks.entrySet()
                        .stream().map(e -> e.getKey() + " " + e.getValue().size()).collect(Collectors.joining(", ")) + ")")
                .append(":\n\n");
        out.append("| client | client CPU µs/step | client alloc KB/step | wall µs/step | thread wake-ups/step |\n|---|---|---|---|---|\n");
        Map<String, double[]> med = new LinkedHashMap<>();
        byClient.forEach((client, m) -> {
            double[] v = {LoopBench.median(m.get("cpu_us")), LoopBench.median(m.get("alloc_kb")), LoopBench.median(m.get("wall_us"))};
            med.put(client, v);
            String wakeups = m.containsKey("wakeups") ? String.format(Locale.ROOT, "%.1f", LoopBench.median(m.get("wakeups"))) : "—";
            out.append(String.format(Locale.ROOT, "| %s | %.0f | %.1f | %.0f | %s |%n", client, v[0], v[1], v[2], wakeups));
        });
        double[] json = med.get("floor-json");
        double[] sse = med.get("floor-sse");
        double[] lc = med.get("langchain4j");
        if (json != null && sse != null && lc != null) {
            for (String client : new String[] {"rein", "rein-inline"}) {
                if (med.containsKey(client)) {
                    loopGoals(client, med, forks, out);
                }
            }
            double[] model = med.get("rein-model");
            if (model != null) {
                out.append(String.format(Locale.ROOT, "Rein's provider alone (rein-model: AnthropicModel in a hand-written loop, no agent): "
                        + "%+.0f µs / %+.1f KB / %+.0f µs wall per step against the streaming floor.%n",
                        model[0] - sse[0], model[1] - sse[1], model[2] - sse[2]));
            }
            double[] inProcess = med.get("rein-inprocess");
            if (inProcess != null) {
                out.append(String.format(Locale.ROOT, "Rein's agent loop without a provider (rein-inprocess: in-process model, no HTTP): "
                        + "%.0f µs / %.1f KB per step.%n", inProcess[0], inProcess[1]));
            }
        }
        out.append('\n');
    }

    /**
     * The three per-step goals of one Rein client, each judged fork by fork ({@link PairedGoal}): fork i of every
     * client ran in turn, so the clients of one fork met the same machine load.
     */
    private static void loopGoals(String client, Map<String, double[]> med, Map<String, Map<Integer, double[]>> forks,
            StringBuilder out) {
        double[] rein = med.get(client);
        double[] json = med.get("floor-json");
        double[] sse = med.get("floor-sse");
        double[] lc = med.get("langchain4j");
        out.append(String.format(Locale.ROOT, "%nGoals for %s, fork i of each client paired (they ran in turn); verdict: one-sided sign test "
                + "at %s %% over the forks (docs/performance.md, Method):%n%n"
                + "| goal | ratio of medians | per-fork ratios: median (range) | met in | verdict |%n|---|---|---|---|---|%n",
                DESCRIPTION.get(client), PairedGoal.percent(PairedGoal.ALPHA)));
        String lcOverhead = "LangChain4j's overhead";
        List<String> wallLeftOut = new ArrayList<>();
        List<PairedGoal.Pair> wall = forkPairs(forks, List.of("floor-sse", client), wallLeftOut,
                v -> PairedGoal.Pair.of("", v.get(1)[2], v.get(0)[2]));
        out.append(PairedGoal.row("Rein wall per step ≤ 1.2 × streaming floor", ratio(rein[2], sse[2], "the floor's wall"),
                PairedGoal.judge(1.2, wall), "forks", "the floor's wall", wallLeftOut, false)).append('\n');
        List<String> clients = List.of("floor-json", "floor-sse", "langchain4j", client);
        String[] names = {"CPU", "alloc"};
        double[] limits = {1.0, 0.5};
        for (int i : new int[] {1, 0}) { // alloc, then CPU, as before
            List<String> leftOut = new ArrayList<>();
            List<PairedGoal.Pair> pairs = forkPairs(forks, clients, leftOut,
                    v -> PairedGoal.Pair.of("", v.get(3)[i] - v.get(1)[i], v.get(2)[i] - v.get(0)[i]));
            out.append(PairedGoal.row(String.format(Locale.ROOT,
                    "Rein %s over streaming floor ≤ %.1f × LangChain4j's over its (JSON) floor", names[i], limits[i]), ratio(rein[i] - sse[i], lc[i] - json[i], lcOverhead),
                    PairedGoal.judge(limits[i], pairs), "forks", lcOverhead, leftOut, false)).append('\n');
        }
        out.append(String.format(Locale.ROOT, "%nOverheads: %s %s µs / %s KB per step over the streaming floor; "
                + "LangChain4j %s µs / %s KB over the JSON floor.%n", client, PairedGoal.fixed(rein[0] - sse[0], 0),
                PairedGoal.fixed(rein[1] - sse[1], 1), PairedGoal.fixed(lc[0] - json[0], 0),
                PairedGoal.fixed(lc[1] - json[1], 1)));
    }

    /**
     * One pair per fork that has a result of every one of {@code clients} (their values in that order); a fork
     * missing one is named in {@code leftOut}.
     */
    private static List<PairedGoal.Pair> forkPairs(Map<String, Map<Integer, double[]>> forks, List<String> clients,
            List<String> leftOut, Function<List<double[]>, PairedGoal.Pair> pair) {
        Set<Integer> all = new TreeSet<>();
        clients.forEach(c -> all.addAll(forks.getOrDefault(c, Map.of()).keySet()));
        List<PairedGoal.Pair> pairs = new ArrayList<>();
        for (int fork : all) {
            List<double[]> values = new ArrayList<>();
            List<String> missing = new ArrayList<>();
            for (String c : clients) {
                double[] v = forks.getOrDefault(c, Map.of()).get(fork);
                if (v == null) {
                    missing.add(c);
                }
                values.add(v);
            }
            if (missing.isEmpty()) {
                PairedGoal.Pair p = pair.apply(values);
                pairs.add(PairedGoal.Pair.of("fork " + fork, p.over(), p.under()));
            } else {
                leftOut.add("fork " + fork + " (no " + String.join(", ", missing) + ")");
            }
        }
        return pairs;
    }

    /** A ratio of medians, or a dash when its denominator is ≤ 0 and the ratio means nothing. */
    private static String ratio(double over, double under, String underName) {
        return under > 0 ? PairedGoal.fixed(over / under, 2) : "— (" + underName + " ≤ 0)";
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
     * Medians over the repeats of each client (bench/run interleaves them), with their range, and the goal judged
     * on the repeats paired by number ({@link #concurrencyGoal}); the ratio of medians and each repeat's ratios are
     * shown too, so a reader sees how far one run can move them. Results written before repeats existed count as
     * one repeat.
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
            out.append(String.format(Locale.ROOT, "| %s | %s | %d | %s | %s | %s |%n", n, client, results.size(),
                    medianWithRange(wall, 2), medianWithRange(rss, 0),
                    failedRuns + (failedRepeats > 0 ? "; repeats that did not finish: " + failedRepeats : "")));
        }));
        out.append('\n');
        byN.forEach((n, clients) -> {
            List<Map<String, String>> lc = clients.get("langchain4j");
            for (String client : new String[] {"rein", "rein-inline"}) {
                if (clients.containsKey(client) && lc != null) {
                    concurrencyGoal(n, client, clients.get(client), lc, out);
                }
            }
        });
    }

    /**
     * The goal (wall time and peak RSS no worse than LangChain4j's) for one Rein client at one N, repeat r of the
     * client paired with LangChain4j's repeat r ({@link PairedGoal}). A Rein repeat that lost runs or did not finish
     * misses the goal whatever its numbers, even when LangChain4j has no result for that repeat, and makes the goal
     * not met; a LangChain4j repeat that did is no comparison and is left out.
     */
    private static void concurrencyGoal(String n, String client, List<Map<String, String>> rein,
            List<Map<String, String>> lc, StringBuilder out) {
        Map<Integer, Map<String, String>> reinByRepeat = byRepeat(rein);
        Map<Integer, Map<String, String>> lcByRepeat = byRepeat(lc);
        Set<Integer> repeats = new TreeSet<>(reinByRepeat.keySet());
        repeats.addAll(lcByRepeat.keySet());
        List<PairedGoal.Pair> wall = new ArrayList<>();
        List<PairedGoal.Pair> rss = new ArrayList<>();
        List<String> leftOut = new ArrayList<>();
        List<String> perRepeat = new ArrayList<>();
        boolean runsFailed = false;
        for (int r : repeats) {
            Map<String, String> a = reinByRepeat.get(r);
            Map<String, String> b = lcByRepeat.get(r);
            String label = "repeat " + r;
            if (a != null && !finishedWhole(a)) { // before pairing: Rein's lost runs count whatever LangChain4j did
                runsFailed = true;
                wall.add(PairedGoal.Pair.failed(label));
                rss.add(PairedGoal.Pair.failed(label));
                perRepeat.add(client + (a.containsKey("wall_s") ? " lost runs" : " did not finish"));
            } else if (a == null || b == null) {
                leftOut.add(label + " (no " + (a == null ? client : "langchain4j") + ")");
            } else if (!finishedWhole(b)) {
                leftOut.add(label + " (langchain4j " + (b.containsKey("wall_s") ? "lost runs" : "did not finish") + ")");
            } else {
                wall.add(PairedGoal.Pair.of(label, number(a, "wall_s"), number(b, "wall_s")));
                rss.add(PairedGoal.Pair.of(label, number(a, "rss_mb"), number(b, "rss_mb")));
                perRepeat.add(PairedGoal.fixed(wall.getLast().ratio(), 2) + "/" + PairedGoal.fixed(rss.getLast().ratio(), 2));
            }
        }
        PairedGoal.Result wallResult = PairedGoal.judge(1.0, wall);
        PairedGoal.Result rssResult = PairedGoal.judge(1.0, rss);
        out.append(String.format(Locale.ROOT, "Goals at N=%s for %s, repeat r paired with LangChain4j's repeat r; verdict: one-sided sign "
                + "test at %s %% over the repeats (docs/performance.md, Method):%n%n"
                + "| goal | ratio of medians | per-repeat ratios: median (range) | met in | verdict |%n|---|---|---|---|---|%n",
                n, DESCRIPTION.get(client), PairedGoal.percent(PairedGoal.ALPHA)));
        out.append(PairedGoal.row("wall ≤ LangChain4j's", medianRatio(rein, lc, "wall_s"), wallResult, "repeats",
                "LangChain4j's", leftOut, runsFailed)).append('\n');
        out.append(PairedGoal.row("peak RSS ≤ LangChain4j's", medianRatio(rein, lc, "rss_mb"), rssResult, "repeats",
                "LangChain4j's", leftOut, runsFailed)).append('\n');
        out.append(PairedGoal.bothRow("both (the goal)", wallResult, rssResult, "repeats", leftOut, runsFailed)).append('\n');
        out.append(perRepeat.isEmpty() ? "\n" : "\nPer repeat (wall/RSS): " + String.join(", ", perRepeat) + "\n\n");
    }

    private static Map<Integer, Map<String, String>> byRepeat(List<Map<String, String>> results) {
        Map<Integer, Map<String, String>> m = new TreeMap<>();
        results.forEach(f -> m.put(Integer.parseInt(f.getOrDefault("repeat", "1")), f)); // before repeats: one run
        return m;
    }

    private static boolean finishedWhole(Map<String, String> f) {
        return f.containsKey("wall_s") && "0".equals(f.get("failures"));
    }

    private static double number(Map<String, String> f, String key) {
        return Double.parseDouble(f.get(key));
    }

    /** The ratio of the medians over the repeats that finished (as the table above shows them), 3 decimals. */
    private static String medianRatio(List<Map<String, String>> rein, List<Map<String, String>> lc, String key) {
        List<Double> a = values(rein, key);
        List<Double> b = values(lc, key);
        return a.isEmpty() || b.isEmpty() ? "—" : PairedGoal.fixed(LoopBench.median(a) / LoopBench.median(b), 3);
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
        byClient.forEach((client, f) -> out.append(String.format(Locale.ROOT, "| %s | %s | %s | %s |%n", client,
                f.getOrDefault("n", "—"), f.getOrDefault("live_kb_per_run", "did not finish"), f.getOrDefault("failures", "—"))));
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

    /** The median and range as {@link PairedGoal#medianWithRange} writes them, or a dash when there is none. */
    private static String medianWithRange(List<Double> v, int decimals) {
        return v.isEmpty() ? "—" : PairedGoal.medianWithRange(v, decimals);
    }
}
