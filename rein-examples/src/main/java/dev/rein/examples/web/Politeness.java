package dev.rein.examples.web;

import java.time.Duration;
import java.util.List;

/** Checks, from the server's own log, that requests were spaced as the rate limit promises. */
final class Politeness {
    /** Scheduling jitter the check tolerates between the crawler's clock and the server's. */
    static final Duration TOLERANCE = Duration.ofMillis(25);

    private Politeness() {}

    /** Null when every two consecutive requests were at least {@code interval} apart; else what was not. */
    static String problem(LocalWeb web, Duration interval) {
        List<LocalWeb.Hit> hits = web.hits();
        for (int i = 1; i < hits.size(); i++) {
            long gap = hits.get(i).nanos() - hits.get(i - 1).nanos();
            if (gap < interval.minus(TOLERANCE).toNanos()) {
                return hits.get(i).path() + " came " + Duration.ofNanos(gap).toMillis() + " ms after " + hits.get(i - 1).path()
                        + "; the rate limit promises at least " + interval.toMillis() + " ms";
            }
        }
        return null;
    }
}
