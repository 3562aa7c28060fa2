package dev.rein.memory;

import dev.rein.ReinException;

/**
 * A policy that puts recalled memory into each request without a {@code recall} call: at the start
 * of each run and each reply turn, the entries of the run's principal that best match the goal and
 * the latest reply are recalled once, and every request of that turn carries them in a
 * {@code <rein_memory>} block, each entry wrapped as untrusted data with its provenance.
 *
 * @param store where to recall from (scoped by the run's principal, as always)
 * @param limit the most entries per turn, 1 to {@value MemoryTools#MAX_RECALL}
 * @throws ReinException when the store is null or the limit out of range
 */
public record MemoryInjection(MemoryStore store, int limit) {
    public MemoryInjection {
        if (store == null) {
            throw new ReinException("MemoryInjection was given no store (null): pass the MemoryStore to recall from");
        }
        if (limit < 1 || limit > MemoryTools.MAX_RECALL) {
            throw new ReinException("the memory injection limit must be 1 to " + MemoryTools.MAX_RECALL + ", was " + limit
                    + ": give the most entries to put in each turn's requests");
        }
    }
}
