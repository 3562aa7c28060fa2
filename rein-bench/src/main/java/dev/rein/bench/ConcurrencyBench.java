package dev.rein.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code ConcurrencyBench CLIENT N BASE_URL}: N runs at once, each on its own virtual thread,
 * against a {@link BenchServer} in another JVM. Prints the wall time until the last run ended and
 * this JVM's peak resident set size ({@code VmHWM}).
 */
public final class ConcurrencyBench {
    private ConcurrencyBench() {}

    public static void main(String[] args) throws Exception {
        String name = args[0];
        int n = Integer.parseInt(args[1]);
        String baseUrl = args[2];
        AtomicInteger failures = new AtomicInteger();
        List<String> firstFailure = new ArrayList<>();
        try (Client client = Client.create(name, baseUrl, false)) {
            client.run(); // class loading and connection setup are not what this measures
            long start = System.nanoTime();
            List<Thread> threads = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                threads.add(Thread.ofVirtual().start(() -> {
                    try {
                        client.run();
                    } catch (Exception | Error e) {
                        if (failures.incrementAndGet() == 1) {
                            synchronized (firstFailure) {
                                firstFailure.add(e.toString());
                            }
                        }
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            double wall = (System.nanoTime() - start) / 1e9;
            System.out.println(result(name, n, wall, peakRssMb(), failures.get(),
                    firstFailure.isEmpty() ? null : firstFailure.get(0)));
        }
    }

    /**
     * The {@code RESULT} line bench/run turns into a {@code CONCURRENCY} line of results.txt, numbers with a decimal
     * point whatever the default locale (German would write "250,3"), as {@link Report} reads them back with
     * Double.parseDouble; {@code firstFailure} is null when no run failed.
     */
    static String result(String client, int n, double wallS, long rssMb, int failures, String firstFailure) {
        return String.format(Locale.ROOT, "RESULT client=%s n=%d wall_s=%.2f rss_mb=%d failures=%d%s", client, n, wallS, rssMb,
                failures, firstFailure == null ? "" : " first_failure=\"" + firstFailure + "\"");
    }

    static long peakRssMb() throws Exception {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
            }
        }
        return -1;
    }
}
