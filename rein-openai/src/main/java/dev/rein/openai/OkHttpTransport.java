package dev.rein.openai;

import okhttp3.OkHttpClient;

/**
 * The OkHttp client handed to the OpenAI SDK: OkHttp's defaults (the JVM's proxy selector, its
 * connection pool) but with {@link NoDelaySockets}. The SDK borrows a client it is given and
 * applies its own timeouts per request, so releasing it is the model's job ({@link #release}).
 */
final class OkHttpTransport {
    private OkHttpTransport() {}

    static OkHttpClient create() {
        return new OkHttpClient.Builder().socketFactory(NoDelaySockets.INSTANCE).build();
    }

    /** Closes the pooled connections and stops the dispatcher's threads, as the SDK does for a client of its own. */
    static void release(OkHttpClient client) {
        client.dispatcher().executorService().shutdown();
        client.connectionPool().evictAll();
    }
}
