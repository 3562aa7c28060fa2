package dev.rein.mcp.internal;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The calls in flight on one session, each with the instant its caller gives up on it. A call
 * still here past that instant was ended by the executor's timeout while its own thread had not
 * yet caught up; the session it hangs on must not get the next call.
 */
final class InFlightCalls {
    private final Map<Object, Instant> deadlines = new ConcurrentHashMap<>();

    /** Records a call in flight until {@code deadline}; hand the token to {@link #ended}. */
    Object began(Instant deadline) {
        Object token = new Object();
        deadlines.put(token, deadline);
        return token;
    }

    void ended(Object token) {
        deadlines.remove(token);
    }

    /**
     * Whether some call is still in flight after its deadline, forgetting each such call: a server
     * is checked once for a call given up on, not again at every call after it.
     */
    boolean takeOverdue(Instant now) {
        boolean any = false;
        for (var entry : deadlines.entrySet()) {
            if (now.isAfter(entry.getValue()) && deadlines.remove(entry.getKey(), entry.getValue())) {
                any = true;
            }
        }
        return any;
    }
}
