package dev.rein.agent;

import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The bounded queue between a run and its stream consumer. The run's side never waits: a text
 * delta joins a waiting one, and when the buffer is full an event is counted instead of queued and
 * an {@link RunEvent.EventsDropped} marks the gap before the next event that fits. The result is
 * always queued.
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
            if (event instanceof RunEvent.TextDelta delta && queue.peekLast() instanceof RunEvent.TextDelta waiting) {
                queue.pollLast();
                queue.addLast(new RunEvent.TextDelta(waiting.text() + delta.text()));
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

    private void markGap() {
        if (!dropped.isEmpty()) {
            long count = dropped.values().stream().mapToLong(Long::longValue).sum();
            queue.addLast(new RunEvent.EventsDropped(count, dropped));
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
