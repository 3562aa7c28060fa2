package dev.rein.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code ParallelBench CLIENT RUNS [WARMUP_RUNS [JIT_WARMUP_RUNS]]}: each model response asks for four
 * {@code lookup} calls that take 100 ms each; the fake server measures the time from the end of each
 * response to the arrival of the next request, i.e. the parallel tool step plus the client's own
 * work around it. First {@code JIT_WARMUP_RUNS} runs (default 2,000) whose calls take no time let
 * the JIT compile the client's code, as the per-step loop's warm-up does; then {@code WARMUP_RUNS}
 * (default 20) with the 100 ms calls, unmeasured.
 *
 * <p>Each gap is also split in three, from the tools' own start and end times: {@code before} (end of
 * the response to the first tool's start), {@code tools} (first start to last end: four 100 ms
 * sleeps side by side) and {@code after} (last end to the next request's arrival).
 */
public final class ParallelBench {
    private ParallelBench() {}

    public static void main(String[] args) throws Exception {
        String name = args[0];
        int runs = Integer.parseInt(args[1]);
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        int jitWarmup = args.length > 3 ? Integer.parseInt(args[3]) : 2000;
        int steps = 3;
        try (BenchServer server = new BenchServer(0, steps, 4, 0, false);
             Client client = Client.create(name, server.baseUrl(), true)) {
            Scenario.slowLookupMillis = 0;
            for (int i = 0; i < jitWarmup; i++) {
                client.run();
            }
            Scenario.slowLookupMillis = 100;
            for (int i = 0; i < warmup; i++) {
                client.run();
            }
            int warm = server.gaps().size();
            for (int i = 0; i < runs; i++) {
                client.run();
            }
            List<long[]> gaps = server.gaps();
            List<long[]> spans = gaps.subList(warm, gaps.size());
            List<long[]> tools = List.copyOf(Scenario.TOOL_SPANS);
            List<Double> total = new ArrayList<>();
            List<Double> before = new ArrayList<>();
            List<Double> during = new ArrayList<>();
            List<Double> after = new ArrayList<>();
            for (long[] gap : spans) {
                long firstStart = Long.MAX_VALUE;
                long lastEnd = Long.MIN_VALUE;
                for (long[] tool : tools) {
                    if (tool[0] >= gap[0] && tool[1] <= gap[1]) {
                        firstStart = Math.min(firstStart, tool[0]);
                        lastEnd = Math.max(lastEnd, tool[1]);
                    }
                }
                total.add((gap[1] - gap[0]) / 1e6);
                if (firstStart != Long.MAX_VALUE) {
                    before.add((firstStart - gap[0]) / 1e6);
                    during.add((lastEnd - firstStart) / 1e6);
                    after.add((gap[1] - lastEnd) / 1e6);
                }
            }
            double median = sortedMedian(total); // sorts total, for the p90 below
            System.out.println(result(name, total.size(), median, total.get((int) Math.floor(total.size() * 0.9)),
                    sortedMedian(before), sortedMedian(during), sortedMedian(after)));
        }
    }

    /**
     * The {@code RESULT} line bench/run turns into a {@code PARALLEL} line of results.txt, numbers with a decimal point
     * whatever the default locale (German would write "250,3"), as {@link Report} reads them back with
     * Double.parseDouble.
     */
    static String result(String client, int steps, double medianMs, double p90Ms, double beforeMs, double toolsMs,
            double afterMs) {
        return String.format(Locale.ROOT,
                "RESULT client=%s steps=%d median_ms=%.1f p90_ms=%.1f before_ms=%.2f tools_ms=%.2f after_ms=%.2f",
                client, steps, medianMs, p90Ms, beforeMs, toolsMs, afterMs);
    }

    private static double sortedMedian(List<Double> values) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        values.sort(null);
        return LoopBench.median(values);
    }
}
