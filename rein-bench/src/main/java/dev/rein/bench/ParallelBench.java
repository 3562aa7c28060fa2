package dev.rein.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code ParallelBench CLIENT RUNS [WARMUP_RUNS]}: each model response asks for four {@code lookup} calls that
 * take 100 ms each; the fake server measures the time from the end of each response to the
 * arrival of the next request, i.e. the parallel tool step plus the client's own work around it.
 * The warm-up (default 20 runs) lets the JIT compile the client's code, as the per-step loop's does.
 */
public final class ParallelBench {
    private ParallelBench() {}

    public static void main(String[] args) throws Exception {
        String name = args[0];
        int runs = Integer.parseInt(args[1]);
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        int steps = 3;
        try (BenchServer server = new BenchServer(0, steps, 4, 0, false);
             Client client = Client.create(name, server.baseUrl(), true)) {
            for (int i = 0; i < warmup; i++) {
                client.run();
            }
            int warm = server.gaps().size();
            for (int i = 0; i < runs; i++) {
                client.run();
            }
            List<Double> millis = new ArrayList<>();
            for (long gap : server.gaps().subList(warm, server.gaps().size())) {
                millis.add(gap / 1e6);
            }
            millis.sort(null);
            System.out.printf("RESULT client=%s steps=%d median_ms=%.1f p90_ms=%.1f%n", name, millis.size(),
                    LoopBench.median(millis), millis.get((int) Math.floor(millis.size() * 0.9)));
        }
    }
}
