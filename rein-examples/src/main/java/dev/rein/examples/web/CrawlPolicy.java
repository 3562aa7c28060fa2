package dev.rein.examples.web;

import dev.rein.ReinException;
import java.time.Duration;
import java.util.List;

/**
 * The limits of a crawl, enforced by the fetch tool.
 *
 * @param seeds        the pages a crawl may start from (depth 0)
 * @param maxDepth     links followed from a seed, at most (a seed's links are depth 1)
 * @param minInterval  the least time between two requests to one host (robots.txt's Crawl-delay raises it)
 * @param maxPages     pages fetched in one run, at most
 * @param fetchTimeout the time limit of one fetch, rate-limit wait included
 * @param maxBytes     the most bytes of a response read
 */
public record CrawlPolicy(List<String> seeds, int maxDepth, Duration minInterval, int maxPages, Duration fetchTimeout,
                          int maxBytes) {
    /** The crawler's product token, matched against robots.txt user-agent lines. */
    public static final String USER_AGENT = "ReinExample";

    public CrawlPolicy {
        seeds = List.copyOf(seeds);
        if (seeds.isEmpty()) {
            throw new ReinException("a crawl needs at least one seed URL");
        }
        if (maxDepth < 0 || maxPages < 1 || maxBytes < 1) {
            throw new ReinException("maxDepth must be 0 or more, maxPages and maxBytes 1 or more");
        }
        if (minInterval.isNegative() || fetchTimeout.isNegative() || fetchTimeout.isZero()) {
            throw new ReinException("the interval cannot be negative and the fetch timeout must be positive");
        }
    }

    /** The example's policy: from the site's start page, depth 2, 200 ms between requests, 20 pages, 3 s a fetch. */
    public static CrawlPolicy defaults() {
        return new CrawlPolicy(List.of(LocalWeb.START), 2, Duration.ofMillis(200), 20, Duration.ofSeconds(3), 200_000);
    }

    public CrawlPolicy withFetchTimeout(Duration timeout) {
        return new CrawlPolicy(seeds, maxDepth, minInterval, maxPages, timeout, maxBytes);
    }
}
