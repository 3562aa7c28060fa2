package dev.rein.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ResumingHttpClientTest {
    /** More requests than a session keeps anything about when nobody reads it. */
    private static final int REQUESTS = ByRequest.KEPT + 10;

    @Test
    void whatIsKeptAboutRequestsNobodyAsksAboutIsBoundedAndTheLatestIsKept() throws Exception {
        // What the server said refusing a request is kept by its id until the request's caller reads it. A caller that
        // gave up first (its timeout), or a request the SDK sent itself (initialize after a 404), never reads it: before,
        // each such entry stayed for the whole session, so a long session refused often grew without bound.
        try (RawServer server = new RawServer(body -> "HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\n"
                + "Connection: close\r\nContent-Length: " + REFUSAL.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + REFUSAL)) {
            ResumingHttpClient client = client();
            for (int id = 1; id <= REQUESTS; id++) {
                HttpResponse<String> response = client.send(post(server, id), HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).isEqualTo(500);
            }
            assertThat(client.refusalOf(REQUESTS)).isEqualTo("JSON-RPC error -32603: 東京 is down");
            assertThat(client.refusalOf(1)).isNull();
            assertThat(client.refusalOf(REQUESTS)).as("forgotten once read").isNull();
        }
    }

    @Test
    void cutOffStreamsNobodyAsksAboutAreBoundedAndTheLatestIsKept() throws Exception {
        // A request's event stream cut off before its answer (a reset, a broken TLS connection) is noted by its id, for the
        // caller to say what cut it off; a caller that gave up first never asks. Before, every such note stayed.
        try (RawServer server = new RawServer(body -> "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n100\r\ndata: {\"jsonrpc\"")) {
            ResumingHttpClient client = client();
            for (int id = 1; id <= REQUESTS; id++) {
                try {
                    client.send(post(server, id), HttpResponse.BodyHandlers.ofString());
                } catch (IOException e) {
                    // the stream was cut off, as the server meant
                }
            }
            // The note is made just after the stream's failure reaches the caller.
            Throwable latest = null;
            for (int tries = 0; latest == null && tries < 100; tries++) {
                Thread.sleep(50);
                latest = client.cutOffBy(REQUESTS);
            }
            assertThat(latest).isInstanceOf(IOException.class);
            assertThat(client.cutOffBy(1)).isNull();
        }
    }

    @Test
    void aMessageLargerThanReinReadsOnTheResumedStreamForTheServersOwnMessagesIsSaidOnceAndTheNextOnesAreRead() throws Exception {
        // The stream for the server's own messages (notifications, requests), resumed with GET, dropped an event over 16 MB
        // without a word: it answers no call to end, so a lost notifications/tools/list_changed went unnoticed.
        AtomicInteger connections = new AtomicInteger();
        String notification = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}";
        try (RawServer server = new RawServer(body -> {
            int connection = connections.incrementAndGet();
            String events = connection == 1 ? "retry: 50\nid: e1\ndata: " + notification + "\n\n"
                    : connection <= 3 ? "id: e" + connection + "\ndata: \"" + "x".repeat(ResumingHttpClient.MAX_MESSAGE_BYTES + 1) + "\"\n\n"
                            + "id: n" + connection + "\ndata: " + notification + "\n\n"
                    : "";
            return "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\nContent-Length: "
                    + events.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + events;
        })) {
            ResumingHttpClient client = client();
            List<String> delivered = new CopyOnWriteArrayList<>();
            AtomicInteger said = new AtomicInteger();
            client.deliverTo(delivered::add);
            client.onOversized(said::incrementAndGet);
            HttpResponse<String> first = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/mcp"))
                    .header("Accept", "text/event-stream").GET().build(), HttpResponse.BodyHandlers.ofString());
            assertThat(first.body()).contains(notification);
            // up to 60 s: two 16 MB events take seconds on a loaded machine, and the loop ends as soon as both came
            for (int tries = 0; delivered.size() < 2 && tries < 1200; tries++) {
                Thread.sleep(50);
            }
            client.stopResuming();
            assertThat(delivered).as("the messages after each large one").containsExactly(notification, notification);
            assertThat(said.get()).as("said once, though two came").isEqualTo(1);
        }
    }

    @Test
    void aSessionClosedWhileTheStreamForTheServersOwnMessagesWaitsOutARetryAfterLeavesNoThreadWaiting() throws Exception {
        // The GET for the server's own messages answered 503 with Retry-After: 86400 (or a value too large to hold) waited in
        // a bare sleep the close did not end: a virtual thread and the session's client were kept for a day, or forever.
        AtomicInteger connections = new AtomicInteger();
        String notification = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}";
        for (String retryAfter : List.of("86400", "99999999999999999999")) {
            connections.set(0);
            try (RawServer server = new RawServer(body -> {
                if (connections.incrementAndGet() == 1) {
                    String events = "retry: 50\nid: e1\ndata: " + notification + "\n\n";
                    return "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\nContent-Length: "
                            + events.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + events;
                }
                return "HTTP/1.1 503 Service Unavailable\r\nRetry-After: " + retryAfter + "\r\nConnection: close\r\n"
                        + "Content-Length: 0\r\n\r\n";
            })) {
                ResumingHttpClient client = client();
                client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/mcp"))
                        .header("Accept", "text/event-stream").GET().build(), HttpResponse.BodyHandlers.ofString());
                for (int tries = 0; connections.get() < 2 && tries < 200; tries++) {
                    Thread.sleep(50);
                }
                assertThat(connections.get()).as("the stream resumed and answered 503").isEqualTo(2);
                Thread.sleep(300); // now waiting out the Retry-After
                assertThat(client.resumptions()).isEqualTo(1);
                client.close();
                for (int tries = 0; client.resumptions() > 0 && tries < 200; tries++) { // up to 10 s, not a day
                    Thread.sleep(50);
                }
                assertThat(client.resumptions()).as("no resumption left waiting after the close").isZero();
                assertThat(connections.get()).as("no GET after the close").isEqualTo(2);
            }
        }
    }

    @Test
    void aRequestsResumptionWaitingOutARetryAfterEndsAsSoonAsItsCallEnds() throws Exception {
        // A call's stream closed before its answer, and the GET resuming it answered 503 with Retry-After: 20. The call then
        // ended (given up, or its run cancelled): the resumption slept on the whole 20 s (only the session's end woke it),
        // holding a thread, and then asked the server again for an answer nobody waited for.
        AtomicInteger connections = new AtomicInteger();
        try (RawServer server = new RawServer(body -> {
            if (connections.incrementAndGet() == 1) {
                String events = "retry: 50\nid: e1\ndata: \n\n";
                return "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\nContent-Length: "
                        + events.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + events;
            }
            return "HTTP/1.1 503 Service Unavailable\r\nRetry-After: 20\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";
        })) {
            ResumingHttpClient client = client(Duration.ofSeconds(60));
            client.send(post(server, 1), HttpResponse.BodyHandlers.ofString());
            for (int tries = 0; connections.get() < 2 && tries < 200; tries++) {
                Thread.sleep(50);
            }
            assertThat(connections.get()).as("the stream resumed and answered 503").isEqualTo(2);
            Thread.sleep(300); // now waiting out the Retry-After
            assertThat(client.resumptions()).isEqualTo(1);
            client.requestEnded("1");
            for (int tries = 0; client.resumptions() > 0 && tries < 100; tries++) { // up to 5 s, not 20
                Thread.sleep(50);
            }
            assertThat(client.resumptions()).as("the resumption ended with its call").isZero();
            assertThat(connections.get()).as("no GET after the call ended").isEqualTo(2);
            client.close();
        }
    }

    @Test
    void aResumingGetStillWaitingForItsResponseHeadersIsClosedWhenItsCallEnds() throws Exception {
        // The GET resuming a call's stream was sent, and the server (or a proxy) held it without answering. The call then
        // ended: only a stream already answered was closed, so this GET and its thread stayed until the server answered,
        // which it might never do.
        AtomicInteger connections = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        try (RawServer server = new RawServer(body -> {
            if (connections.incrementAndGet() == 1) {
                String events = "retry: 50\nid: e1\ndata: \n\n";
                return "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\nContent-Length: "
                        + events.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + events;
            }
            try {
                release.await(30, TimeUnit.SECONDS); // holds the GET without an answer
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";
        })) {
            ResumingHttpClient client = client(Duration.ofSeconds(60));
            try {
                client.send(post(server, 1), HttpResponse.BodyHandlers.ofString());
                for (int tries = 0; connections.get() < 2 && tries < 200; tries++) {
                    Thread.sleep(50);
                }
                assertThat(connections.get()).as("the GET resuming the stream was sent").isEqualTo(2);
                assertThat(client.resumptions()).isEqualTo(1);
                client.requestEnded("1");
                for (int tries = 0; client.resumptions() > 0 && tries < 100; tries++) { // up to 5 s, not until the server answers
                    Thread.sleep(50);
                }
                assertThat(client.resumptions()).as("the GET ended with its call").isZero();
            } finally {
                release.countDown();
                client.close();
            }
        }
    }

    @Test
    void aPingsBodyEndIsHandedToItsReaderEvenWhenNotingItThrowsAndAFailureIsNotNoted() {
        // Ended notes a ping's 2xx body as answered before its reader hears of the end; the reader must hear the end
        // whatever the note did (c02c8ac8), or the SDK's ping waits for its whole timeout. A body that fails is no answer.
        HttpResponse.BodySubscriber<String> reader = HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8);
        ResumingHttpClient.Ended<String> ended = new ResumingHttpClient.Ended<>(reader, () -> {
            throw new IllegalStateException("the note failed");
        });
        ended.onSubscribe(NO_SUBSCRIPTION);
        ended.onNext(List.of(ByteBuffer.wrap("東京".getBytes(StandardCharsets.UTF_8))));
        assertThatThrownBy(ended::onComplete).hasMessage("the note failed");
        assertThat(ended.getBody().toCompletableFuture()).isCompletedWithValue("東京");

        AtomicBoolean noted = new AtomicBoolean();
        HttpResponse.BodySubscriber<String> failing = HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8);
        ResumingHttpClient.Ended<String> cut = new ResumingHttpClient.Ended<>(failing, () -> noted.set(true));
        cut.onSubscribe(NO_SUBSCRIPTION);
        cut.onError(new IOException("reset"));
        assertThat(cut.getBody().toCompletableFuture()).isCompletedExceptionally();
        assertThat(noted).as("a body that failed is no answer").isFalse();
    }

    /** A subscription that asks for nothing: the test hands the bytes on itself. */
    private static final Flow.Subscription NO_SUBSCRIPTION = new Flow.Subscription() {
        @Override
        public void request(long n) {
        }

        @Override
        public void cancel() {
        }
    };

    @Test
    void aRetryAfterGivenAsAnHttpDateInAnyOfItsThreeFormsIsTheWaitUntilThenAndOneInThePastIsNoWait() {
        // RFC 9110 section 10.2.3: Retry-After is delay-seconds or an HTTP-date, and section 5.6.7 has a recipient accept all
        // three HTTP-date forms (IMF-fixdate and the obsolete RFC 850 and asctime forms). Before, only IMF-fixdate was read:
        // the other two counted as no Retry-After, so a server asking to wait was asked again after the usual backoff.
        java.time.Instant now = java.time.Instant.parse("2026-12-06T15:00:00Z");
        assertThat(ResumingHttpClient.retryAfterMillis("Sun, 06 Dec 2026 15:00:30 GMT", now)).isEqualTo(30_000);
        assertThat(ResumingHttpClient.retryAfterMillis("Sunday, 06-Dec-26 15:00:30 GMT", now)).isEqualTo(30_000);
        assertThat(ResumingHttpClient.retryAfterMillis("Sun Dec  6 15:00:30 2026", now)).isEqualTo(30_000);
        assertThat(ResumingHttpClient.retryAfterMillis("Thu, 17 Dec 2026 15:00:00 GMT", now)).isEqualTo(11 * 86_400_000L);
        assertThat(ResumingHttpClient.retryAfterMillis("Sun, 06 Nov 1994 08:49:37 GMT", now)).as("in the past: now").isZero();
        assertThat(ResumingHttpClient.retryAfterMillis("Sunday, 06-Nov-94 08:49:37 GMT", now)).as("in the past: now").isZero();
        assertThat(ResumingHttpClient.retryAfterMillis("Sun Nov  6 08:49:37 1994", now)).as("in the past: now").isZero();
        assertThat(ResumingHttpClient.retryAfterMillis("120", now)).isEqualTo(120_000);
        assertThat(ResumingHttpClient.retryAfterMillis("", now)).isZero();
        assertThat(ResumingHttpClient.retryAfterMillis("soon", now)).as("not a form the RFC allows: the usual backoff").isZero();
    }

    @Test
    void anRfc850DatesTwoDigitYearMoreThanFiftyYearsAheadToTheSecondIsTheMostRecentPastYearSoWritten() {
        // RFC 9110 section 5.6.7: a timestamp that appears to be more than 50 years in the future is the most recent past year
        // with those digits. The whole timestamp counts, not its year: on 2026-12-06, 27 Dec '76 is 2076-12-27, more than 50
        // years ahead, so 1976-12-27 (a Monday). Before, any '76 was 2076, so the Monday was refused (2076-12-27 is a Sunday)
        // and a Sunday read as a wait of 50 years.
        java.time.Instant now = java.time.Instant.parse("2026-12-06T15:00:00Z");
        assertThat(ResumingHttpClient.httpDate("Monday, 27-Dec-76 00:00:07 GMT", now))
                .isEqualTo(java.time.Instant.parse("1976-12-27T00:00:07Z"));
        assertThat(ResumingHttpClient.retryAfterMillis("Monday, 27-Dec-76 00:00:07 GMT", now)).as("in the past: now").isZero();
        assertThat(ResumingHttpClient.retryAfterMillis("Sunday, 27-Dec-76 00:00:07 GMT", now)).as("not that date's weekday").isZero();
        assertThat(ResumingHttpClient.httpDate("Friday, 04-Dec-76 15:00:00 GMT", now)).as("less than 50 years ahead")
                .isEqualTo(java.time.Instant.parse("2076-12-04T15:00:00Z"));
        assertThat(ResumingHttpClient.httpDate("Tuesday, 06-Dec-77 15:00:00 GMT", now)).isEqualTo(java.time.Instant.parse("1977-12-06T15:00:00Z"));
        assertThat(ResumingHttpClient.httpDate("Thursday, 17-Dec-26 15:00:00 GMT", now)).isEqualTo(java.time.Instant.parse("2026-12-17T15:00:00Z"));
    }

    @Test
    void aRetryAfterOnTheStreamForTheServersOwnMessagesIsWaitedOnlyUpToTheLongestBackoff() {
        // A request's stream is bounded by its call's time; the stream for the server's own messages has none.
        assertThat(ResumingHttpClient.nextWait(1000, 86_400_000, false)).isEqualTo(Duration.ofSeconds(30));
        assertThat(ResumingHttpClient.nextWait(1000, Long.MAX_VALUE / 2, false)).isEqualTo(Duration.ofSeconds(30));
        assertThat(ResumingHttpClient.nextWait(1000, 5000, false)).isEqualTo(Duration.ofSeconds(5));
        assertThat(ResumingHttpClient.nextWait(1000, 0, false)).isEqualTo(Duration.ofSeconds(1));
        assertThat(ResumingHttpClient.nextWait(1000, 86_400_000, true)).as("checked against the call's time instead")
                .isEqualTo(Duration.ofDays(1));
    }

    @Test
    void eventsPassedOverAreSaidOnceTheFirstOfTheSessionAndTheAnswerAfterThemIsRead() throws Exception {
        // An event that is JSON but no JSON-RPC message ({}, a log line) was passed over without a word, where stdio says the
        // first line it skips: a server whose every answer came so would have timed out with nothing in the log.
        String answer = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[]}}";
        String events = "id: 1\ndata: {\"level\":\"info\",\"msg\":\"東京\"}\n\nid: 2\ndata: {}\n\nid: 3\ndata: " + answer + "\n\n";
        try (RawServer server = new RawServer(body -> "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n"
                + "Content-Length: " + events.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + events)) {
            ResumingHttpClient client = client();
            List<String> said = new CopyOnWriteArrayList<>();
            client.onSkipped(said::add);
            for (int id = 1; id <= 2; id++) {
                HttpResponse<String> response = client.send(post(server, id), HttpResponse.BodyHandlers.ofString());
                assertThat(response.body()).contains(answer).doesNotContain("東京").doesNotContain("data: {}");
            }
            assertThat(said).as("the first of the session, once").containsExactly("{\"level\":\"info\",\"msg\":\"東京\"}");
        }
    }

    @Test
    void theEmptyObjectAServerReplaysForItsPrimingEventIsPassedOverWithoutAWarning() throws Exception {
        // The TypeScript SDK's server keeps its priming event as {} and replays it so on a resumed stream: a conforming
        // server, so the warning for events passed over would only alarm.
        String answer = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[]}}";
        String events = "id: 1\ndata: {}\n\nid: 2\ndata: " + answer + "\n\n";
        try (RawServer server = new RawServer(body -> "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n"
                + "Content-Length: " + events.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + events)) {
            ResumingHttpClient client = client();
            List<String> said = new CopyOnWriteArrayList<>();
            client.onSkipped(said::add);
            HttpResponse<String> response = client.send(post(server, 1), HttpResponse.BodyHandlers.ofString());
            assertThat(response.body()).contains(answer).doesNotContain("data: {}");
            assertThat(said).isEmpty();
        }
    }

    private static final String REFUSAL = "{\"jsonrpc\": \"2.0\", \"id\": null, \"error\": {\"code\": -32603, \"message\": \"東京 is down\"}}";

    private static ResumingHttpClient client() {
        return client(Duration.ofSeconds(5));
    }

    private static ResumingHttpClient client(Duration limit) {
        ResumingHttpClient.Builder builder = new ResumingHttpClient.Builder(limit);
        builder.build();
        return builder.client();
    }

    private static HttpRequest post(RawServer server, int id) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/mcp"))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\": \"2.0\", \"id\": " + id
                        + ", \"method\": \"tools/call\", \"params\": {\"name\": \"echo\"}}"))
                .build();
    }

    /** Answers each connection's one request with the bytes a function gives, then closes it (mid-answer, if so written). */
    private static final class RawServer implements AutoCloseable {
        private final ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());

        RawServer(Function<String, String> answer) throws IOException {
            Thread.ofVirtual().start(() -> {
                while (!listener.isClosed()) {
                    try (Socket socket = listener.accept()) {
                        String request = readRequest(socket.getInputStream());
                        OutputStream out = socket.getOutputStream();
                        out.write(answer.apply(request).getBytes(StandardCharsets.UTF_8));
                        out.flush();
                    } catch (IOException e) {
                        // closed, or the client went away
                    }
                }
            });
        }

        int port() {
            return listener.getLocalPort();
        }

        /** Reads the headers and the body (by its Content-Length), returning the body. */
        private static String readRequest(InputStream in) throws IOException {
            StringBuilder head = new StringBuilder();
            while (!head.toString().endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    throw new IOException("the client closed the connection");
                }
                head.append((char) b);
            }
            int length = 0;
            for (String line : head.toString().split("\r\n")) {
                if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                    length = Integer.parseInt(line.substring("content-length:".length()).trim());
                }
            }
            return new String(in.readNBytes(length), StandardCharsets.UTF_8);
        }

        @Override
        public void close() throws IOException {
            listener.close();
        }
    }
}
