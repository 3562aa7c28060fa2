package dev.rein.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import dev.rein.json.Json;
import java.io.IOException;
import java.util.Locale;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * The OkHttp client handed to the OpenAI SDK: OkHttp's defaults (the JVM's proxy selector, its
 * connection pool) but with {@link NoDelaySockets}, and with error bodies that are not JSON made
 * readable to the SDK ({@link #plainErrorAsJson}). The SDK borrows a client it is given and
 * applies its own timeouts per request, so releasing it is the model's job ({@link #release}).
 */
final class OkHttpTransport {
    /** The member a plain-text error body is carried in, for {@link ErrorMapper}. */
    static final String PLAIN_TEXT = "rein_plain_text";
    /** How much of an error body is read; error bodies are small, a proxy's page is cut. */
    private static final long ERROR_BODY_LIMIT = 64 * 1024;
    private static final int MESSAGE_LIMIT = 500;
    private static final MediaType JSON = MediaType.get("application/json");

    private OkHttpTransport() {}

    static OkHttpClient create() {
        return create(null);
    }

    /** The same, with {@code extra} before the error-body interceptor (tests look at the requests); null for none. */
    static OkHttpClient create(okhttp3.Interceptor extra) {
        // Redirects are not followed: OkHttp sends a POST redirected with 301 or 302 again as a GET
        // without its body, which the server refuses with a 404 that never names the redirect;
        // ErrorMapper says where the server sends requests instead.
        OkHttpClient.Builder builder = new OkHttpClient.Builder().socketFactory(NoDelaySockets.INSTANCE)
                .followRedirects(false).followSslRedirects(false)
                .addInterceptor(chain -> plainErrorAsJson(chain.proceed(chain.request())));
        if (extra != null) {
            builder.addInterceptor(extra);
        }
        return builder.build();
    }

    /** Closes the pooled connections and stops the dispatcher's threads, as the SDK does for a client of its own. */
    static void release(OkHttpClient client) {
        client.dispatcher().executorService().shutdown();
        client.connectionPool().evictAll();
    }

    /**
     * An error response whose body is not JSON (a proxy's text or HTML page, Ollama's {@code 404
     * page not found} for a path it does not serve) with that text in a JSON object {@code
     * {"rein_plain_text": TEXT}}. The SDK reads an error body only as JSON and drops anything else,
     * so the message would be just the status; the official Python SDK makes the text itself the
     * message. A JSON body, or a blank one, is left as it is; one longer than what is read here
     * counts as JSON when its content type says so.
     */
    static Response plainErrorAsJson(Response response) throws IOException {
        ResponseBody body = response.body();
        if (response.code() < 400 || body == null) {
            return response;
        }
        ResponseBody peeked = response.peekBody(ERROR_BODY_LIMIT);
        // A JSON body longer than what is looked at (FastAPI's validation errors echo the whole input)
        // cannot be parsed from its start: its declared type decides.
        boolean cutJson = peeked.contentLength() >= ERROR_BODY_LIMIT && body.contentType() != null
                && body.contentType().subtype().toLowerCase(Locale.ROOT).endsWith("json");
        String text = peeked.string();
        if (text.isBlank() || cutJson || isJson(text)) {
            return response;
        }
        body.close();
        String wrapped = Json.object().put(PLAIN_TEXT, readable(text)).toString();
        return response.newBuilder().body(ResponseBody.create(wrapped, JSON)).removeHeader("content-length")
                .header("content-type", JSON.toString()).build();
    }

    private static boolean isJson(String text) {
        try {
            // Strict: Jackson would otherwise read "404 page not found" as the number 404.
            Json.mapper().reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).readTree(text);
            return true;
        } catch (JsonProcessingException e) {
            return false;
        }
    }

    /** The text without markup, its whitespace collapsed, cut to a line's length. */
    static String readable(String text) {
        String plain = text.replaceAll("(?is)<(script|style)\\b.*?</\\1>", " ").replaceAll("<[^>]*>", " ")
                .replaceAll("\\s+", " ").strip();
        if (plain.isEmpty()) {
            plain = text.replaceAll("\\s+", " ").strip();
        }
        return plain.length() <= MESSAGE_LIMIT ? plain : plain.substring(0, MESSAGE_LIMIT) + "...";
    }
}
