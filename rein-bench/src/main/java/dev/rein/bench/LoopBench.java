package dev.rein.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * One fork of the per-step benchmark: {@code LoopBench CLIENT STEPS WARMUP_RUNS MEASURED_RUNS}.
 * Runs the tool loop against an in-process {@link BenchServer}, warms up, then measures batches of
 * ten runs and prints the medians per model call (a "step") as one {@code RESULT} line.
 */
public final class LoopBench {
    private static final int BATCH = 10;

    private LoopBench() {}

    public static void main(String[] args) throws Exception {
        String name = args[0];
        int steps = Integer.parseInt(args[1]);
        int warmup = Integer.parseInt(args[2]);
        int measured = Integer.parseInt(args[3]);
        try (BenchServer server = new BenchServer(0, steps, 1, 0, false);
             Client client = Client.create(name, server.baseUrl(), false, steps)) {
            for (int i = 0; i < warmup; i++) {
                check(client.run(), steps, name);
            }
            List<Double> cpu = new ArrayList<>();
            List<Double> alloc = new ArrayList<>();
            List<Double> wall = new ArrayList<>();
            List<Double> wakeups = new ArrayList<>();
            for (int b = 0; b < Math.max(1, measured / BATCH); b++) {
                System.gc();
                // A full collection arms the JIT's entry barrier of every compiled method, and the
                // first call of each after it pays for that: unmeasured, or each batch would carry
                // a cost that grows with the client's code size and that a JVM pays only once per
                // marking cycle in production.
                check(client.run(), steps, name);
                Meter.Sample before = Meter.sample();
                int calls = 0;
                for (int i = 0; i < BATCH; i++) {
                    calls += check(client.run(), steps, name);
                }
                Meter.Sample d = Meter.sample().minus(before);
                cpu.add(d.cpuNanos() / 1e3 / calls);
                alloc.add(d.allocatedBytes() / 1024.0 / calls);
                wall.add(d.wallNanos() / 1e3 / calls);
                wakeups.add((double) d.switches() / calls);
            }
            System.out.println(result(name, steps, median(cpu), median(alloc), median(wall), median(wakeups)));
        }
    }

    /**
     * The {@code RESULT} line bench/run turns into a {@code LOOP} line of results.txt, numbers with a decimal point
     * whatever the default locale (German would write "250,3"), as {@link Report} reads them back with
     * Double.parseDouble.
     */
    static String result(String client, int steps, double cpuUs, double allocKb, double wallUs, double wakeups) {
        return String.format(Locale.ROOT, "RESULT client=%s steps=%d cpu_us=%.1f alloc_kb=%.1f wall_us=%.1f wakeups=%.1f",
                client, steps, cpuUs, allocKb, wallUs, wakeups);
    }

    private static int check(int calls, int steps, String name) {
        if (calls != steps) {
            throw new IllegalStateException(name + " made " + calls + " model calls, expected " + steps);
        }
        return calls;
    }

    static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
