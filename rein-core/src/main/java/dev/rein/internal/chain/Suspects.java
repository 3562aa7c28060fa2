package dev.rein.internal.chain;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * How a chain names which of a run of Rein's own stages (bound one to the next) threw: only the exception's stack trace
 * tells, by a frame of one of them, and it may not. An exception with no stack trace (the JIT's fast-throw
 * NullPointerException once {@code -XX:-OmitStackTraceInFastThrow} is off) shows none, and two stages of one class show
 * the same frames; then the message names every stage it may have been, not one of them as if that were known.
 */
public final class Suspects {
    private Suspects() {}

    /**
     * {@code "KIND stage A"} for one stage; for several {@code "one of the KIND stages A, B"}, or
     * {@code "one of the N KIND stages A"} when all of them go by one name.
     *
     * @param kind  the chain's word for its stages, {@code "tool-chain"} or {@code "model-call"}
     * @param names the names of the stages that may have thrown, in the chain's order; at least one
     */
    public static String named(String kind, List<String> names) {
        if (names.size() == 1) {
            return kind + " stage " + names.get(0);
        }
        Set<String> distinct = new LinkedHashSet<>(names);
        return distinct.size() == 1 ? "one of the " + names.size() + " " + kind + " stages " + names.get(0)
                : "one of the " + kind + " stages " + String.join(", ", distinct);
    }
}
