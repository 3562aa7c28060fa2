package dev.rein.agent;

import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bounded queue between a run and its stream consumer. The run's side never waits: a text
 * delta joins a waiting one (or is queued, full or not: text is never left out), and when the buffer
 * is full any other event is counted instead of queued and an {@link RunEvent.EventsDropped} marks
 * the gap before the next event queued. The result is always queued, and so is a {@code model_retry} or
 * {@code model_fallback}: it tells the consumer to drop the failed attempt's text, which was never left out either.
 */
final class StreamBuffer {
    private final int capacity;
    private final ArrayDeque<RunEvent> queue = new ArrayDeque<>();
    private final Map<String, Long> dropped = new LinkedHashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition available = lock.newCondition();
    private boolean finished;

    StreamBuffer(int capacity) {
        this.capacity = capacity;
    }

    /** Queues {@code event} without waiting; see the class comment for a full buffer. */
    void offer(RunEvent event) {
        lock.lock();
        try {
            if (finished) {
                return;
            }
            if (event instanceof RunEvent.TextDelta delta) {
                offerText(delta);
            } else if (event instanceof RunEvent.Trace trace && (trace.event() instanceof dev.rein.trace.TraceEvent.ModelRetry
                    || trace.event() instanceof dev.rein.trace.TraceEvent.ModelFallback)) {
                markGap();
                queue.addLast(event);
            } else if (event instanceof RunEvent.Finished) {
                markGap();
                queue.addLast(event);
                finished = true;
            } else if (queue.size() + (dropped.isEmpty() ? 0 : 1) < capacity) {
                markGap();
                queue.addLast(event);
            } else {
                dropped.merge(event.type(), 1L, Long::sum);
                return;
            }
            available.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Text is never left out, and never put in front of a gap it followed: it joins the waiting delta, and when
     * events were left out since, the gap's marker goes in front of the joined delta (merged into a marker already
     * there). So a full buffer grows by at most one marker and one delta.
     */
    private void offerText(RunEvent.TextDelta delta) {
        RunEvent.TextDelta joined = delta;
        if (queue.peekLast() instanceof RunEvent.TextDelta waiting) {
            queue.pollLast();
            joined = new RunEvent.TextDelta(waiting.text() + delta.text());
        }
        if (!dropped.isEmpty() && queue.peekLast() instanceof RunEvent.EventsDropped gap) {
            queue.pollLast();
            Map<String, Long> byType = new LinkedHashMap<>(gap.byType());
            dropped.forEach((type, count) -> byType.merge(type, count, Long::sum));
            queue.addLast(new RunEvent.EventsDropped(gap.count() + pending(), byType));
            dropped.clear();
        } else {
            markGap();
        }
        queue.addLast(joined);
    }

    private long pending() {
        return dropped.values().stream().mapToLong(Long::longValue).sum();
    }

    private void markGap() {
        if (!dropped.isEmpty()) {
            queue.addLast(new RunEvent.EventsDropped(pending(), dropped));
            dropped.clear();
        }
    }

    /** The next event, waiting for one; null after the result was taken. */
    RunEvent take() throws InterruptedException {
        lock.lock();
        try {
            while (queue.isEmpty()) {
                if (finished) {
                    return null;
                }
                available.await(1, TimeUnit.SECONDS);
            }
            return queue.pollFirst();
        } finally {
            lock.unlock();
        }
    }
}
