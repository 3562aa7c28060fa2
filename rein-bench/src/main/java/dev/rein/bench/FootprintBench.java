package dev.rein.bench;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code FootprintBench CLIENT N BASE_URL}: the heap a run in flight keeps, against a {@link BenchServer} in another
 * JVM that holds every run's request of one turn. One run is started and held first (class loading, connection pool,
 * caches), the heap measured after full collections; then N more, held at the same point, and the heap measured
 * again: the difference over N is what each run keeps while it waits for the model. Unlike peak RSS it does not
 * depend on the machine's load or on when the collector runs.
 */
public final class FootprintBench {
    private FootprintBench() {}

    public static void main(String[] args) throws Exception {
        String name = args[0];
        int n = Integer.parseInt(args[1]);
        String baseUrl = args[2];
        HttpClient control = HttpClient.newHttpClient();
        List<Thread> threads = new ArrayList<>(n + 1);
        List<String> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (Client client = Client.create(name, baseUrl, false)) {
            Runnable run = () -> {
                try {
                    client.run();
                } catch (Exception | Error e) {
                    failures.add(e.toString());
                }
            };
            threads.add(Thread.ofVirtual().start(run));
            awaitHeld(control, baseUrl, 1, failures);
            long before = liveHeap();
            for (int i = 0; i < n; i++) {
                threads.add(Thread.ofVirtual().start(run));
            }
            awaitHeld(control, baseUrl, n + 1, failures);
            long after = liveHeap();
            control.send(HttpRequest.newBuilder(URI.create(baseUrl + "/release")).POST(HttpRequest.BodyPublishers.noBody()).build(),
                    HttpResponse.BodyHandlers.discarding());
            for (Thread t : threads) {
                t.join();
            }
            System.out.println(result(name, n, (after - before) / 1024.0 / n, before / 1048576.0, after / 1048576.0,
                    failures.size()));
        }
    }

    /**
     * The {@code RESULT} line bench/run turns into a {@code FOOTPRINT} line of results.txt, numbers with a decimal
     * point whatever the default locale (German would write "250,3"), as {@link Report} reads them back with
     * Double.parseDouble.
     */
    static String result(String client, int n, double liveKbPerRun, double heapBeforeMb, double heapAfterMb, int failures) {
        return String.format(Locale.ROOT, "RESULT client=%s n=%d live_kb_per_run=%.1f heap_before_mb=%.1f heap_after_mb=%.1f failures=%d",
                client, n, liveKbPerRun, heapBeforeMb, heapAfterMb, failures);
    }

    private static void awaitHeld(HttpClient control, String baseUrl, int runs, List<String> failures) throws Exception {
        while (Integer.parseInt(control.send(HttpRequest.newBuilder(URI.create(baseUrl + "/held")).build(),
                HttpResponse.BodyHandlers.ofString()).body()) < runs) {
            if (!failures.isEmpty()) {
                throw new IllegalStateException("a run failed before it reached the held turn: " + failures.get(0));
            }
            Thread.sleep(100);
        }
        Thread.sleep(500); // the last run parks after its request is in
    }

    /** The heap in use after full collections (System.gc is a full collection with G1 unless disabled). */
    private static long liveHeap() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
