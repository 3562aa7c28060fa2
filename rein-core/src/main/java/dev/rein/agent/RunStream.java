package dev.rein.agent;

import dev.rein.trace.RunListener;
import dev.rein.trace.TraceEvent;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A run whose events reach the caller as they happen ({@link Agent#stream(String)}): as a
 * {@link Flow.Publisher} (one subscriber) or as a blocking {@link #stream()} / {@link #iterator()}
 * (use one of them, once). The run starts at once and never waits for the consumer: events wait in
 * a bounded buffer ({@link #DEFAULT_BUFFER} events); when it is full, text deltas are joined and
 * other events are left out and counted in an {@link RunEvent.EventsDropped} event where the gap
 * is. The {@link RunEvent.Finished} result is always the last event. A consumer that stops
 * (cancels its subscription, closes the stream) cancels the run; one that only stops reading
 * (leaves its loop without {@link #close()}) does not, so open it in try-with-resources.
 */
public final class RunStream implements Flow.Publisher<RunEvent>, Iterable<RunEvent>, AutoCloseable {
    /** How many events wait for a slow consumer before events are dropped (and the gap marked). */
    public static final int DEFAULT_BUFFER = 1024;

    private final StreamBuffer buffer;
    private final AtomicBoolean consumed = new AtomicBoolean();
    private volatile RunHandle handle;

    private RunStream(int capacity) {
        this.buffer = new StreamBuffer(capacity);
    }

    /** Starts {@code goal} on {@code config}'s agent with this stream's listener attached. */
    static RunStream start(AgentConfig config, String goal, int capacity) {
        return start(config, capacity, agent -> agent.start(goal));
    }

    /**
     * Starts a run, a resumption or a reply turn ({@code starter}, given {@code config}'s agent with
     * this stream's listener attached); what the starter refuses (an empty goal or reply, a run that
     * cannot take a reply) is thrown here, before any event.
     */
    static RunStream start(AgentConfig config, int capacity, java.util.function.Function<Agent, RunHandle> starter) {
        if (capacity < 2) {
            throw new dev.rein.ReinException("the stream buffer must hold at least 2 events, was " + capacity);
        }
        RunStream stream = new RunStream(capacity);
        Agent agent = config.toBuilder().listener(id -> stream.listener()).build();
        stream.handle = starter.apply(agent);
        // A consumer always gets an end: a run whose loop failed beyond its own last resort still ends the stream
        stream.handle.future().whenComplete((result, failure) -> stream.buffer.offer(new RunEvent.Finished(result != null ? result
                : RunResult.internalError(stream.handle.runId(), "internal error: the run loop failed unexpectedly ("
                + failure.getClass().getName() + ")"))));
        return stream;
    }

    private RunListener listener() {
        return new RunListener() {
            @Override
            public void onEvent(TraceEvent event) {
                buffer.offer(new RunEvent.Trace(event));
            }

            @Override
            public void onTextDelta(String text) {
                buffer.offer(new RunEvent.TextDelta(text));
            }
        };
    }

    /** The run's handle: await or cancel it like any started run. */
    public RunHandle handle() {
        return handle;
    }

    public String runId() {
        return handle.runId();
    }

    /** The run's result, when it ends (whether or not anyone reads the events). */
    public CompletableFuture<RunResult> result() {
        return handle.future();
    }

    /** Cancels the run (it ends CANCELLED; the stream still ends with its result). */
    public void cancel() {
        handle.cancel();
    }

    /** Stops consuming: cancels the run if it is still going. */
    @Override
    public void close() {
        if (!handle.isDone()) {
            handle.cancel();
        }
    }

    /** The events as a blocking stream ending with the result; closing it cancels an unfinished run. */
    public Stream<RunEvent> stream() {
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(iterator(), Spliterator.ORDERED | Spliterator.NONNULL), false)
                .onClose(this::close);
    }

    /** The events as a blocking iterator ending with the result. An interrupted consumer cancels the run. */
    @Override
    public Iterator<RunEvent> iterator() {
        claim();
        return new Iterator<>() {
            private RunEvent next;
            private boolean done;

            @Override
            public boolean hasNext() {
                if (next == null && !done) {
                    next = takeOrCancel();
                    done = next == null;
                }
                return next != null;
            }

            @Override
            public RunEvent next() {
                if (!hasNext()) {
                    throw new NoSuchElementException("the run's stream has ended");
                }
                RunEvent event = next;
                next = null;
                return event;
            }
        };
    }

    private RunEvent takeOrCancel() {
        try {
            return buffer.take();
        } catch (InterruptedException e) {
            handle.cancel();
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private void claim() {
        if (!consumed.compareAndSet(false, true)) {
            throw new IllegalStateException("a run's events can be consumed once: use one subscriber, stream or iterator");
        }
    }

    /** Delivers the events to one subscriber on a virtual thread, as it requests them. */
    @Override
    public void subscribe(Flow.Subscriber<? super RunEvent> subscriber) {
        Objects.requireNonNull(subscriber, "subscriber");
        if (consumed.get()) {
            subscriber.onSubscribe(new Flow.Subscription() {
                public void request(long n) {}

                public void cancel() {}
            });
            subscriber.onError(new IllegalStateException("a run's events can be consumed once; this stream already has a consumer"));
            return;
        }
        claim();
        Delivery delivery = new Delivery(subscriber);
        try {
            subscriber.onSubscribe(delivery);
        } catch (RuntimeException | Error e) {
            // Rule 2.13: the subscription is cancelled, so is the run nobody will consume; the caller sees why
            delivery.cancel();
            throw e;
        }
        Thread.ofVirtual().name("rein-stream-" + runId()).start(delivery::deliver);
    }

    /** One subscriber's demand and cancellation (Reactive Streams rules 3.6, 3.9, 3.17). */
    private final class Delivery implements Flow.Subscription {
        private final Flow.Subscriber<? super RunEvent> subscriber;
        private final AtomicLong demand = new AtomicLong();
        private volatile boolean cancelled;
        /** A non-positive request, signalled as onError by the delivery thread. */
        private volatile IllegalArgumentException badRequest;
        private volatile Thread thread;

        Delivery(Flow.Subscriber<? super RunEvent> subscriber) {
            this.subscriber = subscriber;
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                // Rule 3.9 asks for onError; the delivery thread sends it, so that signals stay serial
                // (rule 1.3) even when this is called from onSubscribe or from another thread, and
                // none follows a cancel or the end of the stream (rule 3.6).
                if (!cancelled) {
                    badRequest = new IllegalArgumentException("request(" + n + "): demand must be positive");
                    cancelled = true;
                    close();
                    java.util.concurrent.locks.LockSupport.unpark(thread);
                }
                return;
            }
            demand.getAndAccumulate(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b);
            java.util.concurrent.locks.LockSupport.unpark(thread);
        }

        @Override
        public void cancel() {
            cancelled = true;
            close();
            java.util.concurrent.locks.LockSupport.unpark(thread);
        }

        void deliver() {
            thread = Thread.currentThread();
            try {
                RunEvent event;
                while (!cancelled && (event = awaitDemandThenTake()) != null && !cancelled) {
                    demand.decrementAndGet();
                    subscriber.onNext(event); // nothing after cancel (rule 1.8)
                }
                IllegalArgumentException error = badRequest;
                if (error != null) {
                    subscriber.onError(error);
                } else if (!cancelled) {
                    subscriber.onComplete();
                }
            } catch (InterruptedException e) {
                handle.cancel();
            } catch (RuntimeException e) {
                handle.cancel();
                subscriber.onError(e);
            } catch (Error e) { // an assertion in onNext, say: the consumer is gone, so the run must not go on
                handle.cancel();
                throw e;
            }
        }

        private RunEvent awaitDemandThenTake() throws InterruptedException {
            // Parked until request or cancel unparks it (each sets its flag first, and the thread was
            // known before the flags are read here, so no wake-up is lost); the end needs no wake-up:
            // its result is an event that waits for demand like any other
            while (demand.get() == 0 && !cancelled) {
                java.util.concurrent.locks.LockSupport.park(this);
                if (Thread.interrupted()) {
                    throw new InterruptedException("the delivery of the run's events was interrupted");
                }
            }
            return cancelled ? null : buffer.take();
        }
    }
}
