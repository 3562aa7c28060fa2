package dev.rein.mcp.internal;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * A body subscriber that hands every call on to the reader it wraps unchanged, for the ones of
 * {@link ResumingHttpClient} that watch a body as it passes: each overrides only the calls it does
 * something in, so what it adds is all its class says.
 */
abstract class ForwardingBodySubscriber<T> implements HttpResponse.BodySubscriber<T> {
    /** The reader the body is handed on to: the SDK's, or another watcher's. */
    protected final HttpResponse.BodySubscriber<T> downstream;

    ForwardingBodySubscriber(HttpResponse.BodySubscriber<T> downstream) {
        this.downstream = downstream;
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        downstream.onSubscribe(subscription);
    }

    @Override
    public void onNext(List<ByteBuffer> item) {
        downstream.onNext(item);
    }

    @Override
    public void onError(Throwable throwable) {
        downstream.onError(throwable);
    }

    @Override
    public void onComplete() {
        downstream.onComplete();
    }

    @Override
    public CompletionStage<T> getBody() {
        return downstream.getBody();
    }
}
