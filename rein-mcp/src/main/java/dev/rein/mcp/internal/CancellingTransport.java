package dev.rein.mcp.internal;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpTransportSessionNotFoundException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * A session's transport that remembers the JSON-RPC id of each {@code tools/call} it sends, in the
 * {@link Call} the request was made for, so that a call its caller gave up on (a timeout, a cancelled run) can be
 * cancelled on the server: the protocol asks a client to send {@code notifications/cancelled} for
 * a request it stops waiting for. The SDK's client does not send it. A {@code tools/list} request
 * that timed out is cancelled too, by the id the listing thread learns from {@link #takeListingSent}.
 *
 * <p>It also takes {@code notifications/tools/list_changed} away from the SDK's client, which
 * would list the tools itself (through every page the server offers, without a limit) before
 * Rein lists them again with its own limits: the notification goes to {@code onToolsChanged}
 * only, so each change costs one listing.
 *
 * <p>And it notes, per call, whether the server refused its HTTP request because it no longer
 * knows the session (404 to a request with the session id): the SDK then fails the call as
 * "session terminated", like any dropped connection, but such a call was never run.
 *
 * <p>What it notes belongs to one call ({@link #began} to {@link #ended}), not to its idempotency
 * key: two calls with the same key (a retry) may be under way at once, and one giving up must not
 * cancel the other's request. The note travels with the request, in its {@code _meta} under
 * {@link #CALL_NOTE}, which is taken out before the request is sent. The SDK may send a call's
 * request after its caller gave up on it (a timeout while the SDK was still initializing the
 * session): such a request is cancelled on the server once sent, whether its call is still under
 * way or has ended.
 */
final class CancellingTransport implements McpClientTransport {
    static final String METHOD_CANCELLED = "notifications/cancelled";
    /** The content block types of a tool result the SDK reads. */
    private static final java.util.Set<String> CONTENT_TYPES = java.util.Set.of("text", "image", "audio", "resource_link", "resource");

    private final McpClientTransport delegate;
    private final Runnable onToolsChanged;
    private final NegotiatedVersion version;
    private final TaskSupport tasks = new TaskSupport();
    /** The {@code _meta} entry of a {@code tools/call} request that holds its {@link Call}; never sent. */
    static final String CALL_NOTE = "dev.rein/call-note";
    /** Per thread: the id of the {@code tools/list} request it sent last. */
    private final ThreadLocal<Object> listingSent = new ThreadLocal<>();
    /**
     * The last {@code tools/list} request sent, from any thread: after a 404 the SDK sends a request
     * again on the thread that ends its new initialize, where {@link #listingSent} does not see it.
     * A session's listings never overlap (a refresh waits for the start's).
     */
    private volatile Listing lastListing;

    /**
     * A {@code tools/list} request sent: its id, and whether it was refused for a session the server
     * no longer knows (so the SDK opens a new one), known once its sending ends.
     */
    record Listing(Object id, CompletableFuture<Boolean> sessionLost) {}
    /** The id of the last {@code ping} request sent; a session has one out at a time ({@link Session#checkAlive}). */
    private volatile Object lastPing;

    /** The id of the last {@code ping} request sent; null before the first. */
    Object lastPingId() {
        return lastPing;
    }

    /** What the client does with a message from the server, once connected. */
    private volatile Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> inbound;

    /** Told once each what a server sent that Rein left out and went on without (a bad icon). */
    private final Consumer<String> leftOut;
    /** What {@link #leftOut} was told, so a listing made again does not warn again; at most {@link #MAX_WARNED}. */
    private final java.util.Set<String> warned = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private static final int MAX_WARNED = 100;

    CancellingTransport(McpClientTransport delegate, Runnable onToolsChanged, NegotiatedVersion version) {
        this(delegate, onToolsChanged, version, note -> {});
    }

    CancellingTransport(McpClientTransport delegate, Runnable onToolsChanged, NegotiatedVersion version, Consumer<String> leftOut) {
        this.delegate = delegate;
        this.onToolsChanged = onToolsChanged;
        this.version = version;
        this.leftOut = note -> {
            if (warned.size() < MAX_WARNED && warned.add(note)) {
                leftOut.accept(note);
            }
        };
    }

    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        if (message instanceof McpSchema.JSONRPCRequest request && McpSchema.METHOD_TOOLS_CALL.equals(request.method())
                && request.params() instanceof McpSchema.CallToolRequest params && params.meta() != null
                && params.meta().get(CALL_NOTE) instanceof Call call) {
            Map<String, Object> meta = new java.util.LinkedHashMap<>(params.meta());
            meta.remove(CALL_NOTE);
            McpSchema.JSONRPCRequest toSend = new McpSchema.JSONRPCRequest(request.jsonrpc(), request.method(), request.id(),
                    new McpSchema.CallToolRequest(params.name(), params.arguments(), meta));
            CompletableFuture<Boolean> lost = new CompletableFuture<>();
            // Noted before the call learns its id, so an end of the call racing this (ended) cannot come between and leave it.
            if (call.deadline != null) {
                sentCalls.put(idKey(request.id()), call);
            }
            String gaveUp = call.sent(request.id(), lost);
            if (gaveUp != null) {
                sentCalls.remove(idKey(request.id()));
            }
            version.sent(toSend);
            // The SDK's transport raises this only for a 404 (or 400) to a request that carried a session id.
            Mono<Void> sent = delegate.sendMessage(toSend)
                    .doOnError(e -> lost.complete(e instanceof McpTransportSessionNotFoundException))
                    .doFinally(signal -> lost.complete(false));
            // Its caller already gave up on it (its cancel found nothing to cancel): the server is told once it has it.
            return gaveUp == null ? sent : sent.doFinally(signal -> cancelRequest(request.id(), gaveUp));
        }
        if (message instanceof McpSchema.JSONRPCNotification notification
                && McpSchema.METHOD_NOTIFICATION_INITIALIZED.equals(notification.method())) {
            version.sent(message);
            sendingInitialized = true;
            // Told apart from a failure of initialize itself, so the start can say which message the server refused.
            return delegate.sendMessage(message)
                    .onErrorMap(InitializedNotSent::new)
                    .doFinally(signal -> sendingInitialized = false);
        }
        if (message instanceof McpSchema.JSONRPCRequest request && McpSchema.METHOD_INITIALIZE.equals(request.method())) {
            startSent(request.id());
        }
        if (message instanceof McpSchema.JSONRPCRequest request && McpSchema.METHOD_PING.equals(request.method())) {
            lastPing = request.id();
        }
        if (message instanceof McpSchema.JSONRPCRequest request && McpSchema.METHOD_TOOLS_LIST.equals(request.method())) {
            startSent(request.id());
            listingSent.set(request.id());
            CompletableFuture<Boolean> lost = new CompletableFuture<>();
            lastListing = new Listing(request.id(), lost);
            version.sent(message);
            tasks.sent(message);
            // As for a call: the SDK's transport raises this only for a 404 (or 400) to a request with a session id.
            return delegate.sendMessage(message)
                    .doOnError(e -> lost.complete(e instanceof McpTransportSessionNotFoundException))
                    .doFinally(signal -> lost.complete(false));
        }
        version.sent(message);
        tasks.sent(message);
        return delegate.sendMessage(message);
    }

    /**
     * The id of the last {@code tools/list} request the calling thread sent, and forgets it; null
     * when it sent none since the last call. The SDK sends a request on the thread asking for it
     * once the session is initialized, which is how a listing learns its request's id.
     */
    Object takeListingSent() {
        Object id = listingSent.get();
        listingSent.remove();
        return id;
    }

    /** The last {@code tools/list} request sent since {@link #forgetLastListing}; null when none was. */
    Listing lastListing() {
        return lastListing;
    }

    /** Before a listing: what an earlier one left is not taken for it. */
    void forgetLastListing() {
        lastListing = null;
    }

    /** Whether tool {@code name} can only be called as a task on this session, which Rein cannot do. */
    boolean requiresTask(String name) {
        return tasks.requiresTask(name);
    }

    /**
     * Tells the server to stop {@code call}'s request, which its caller gave up on. A call whose
     * request was not sent yet is marked given up, so that its request is cancelled once the SDK
     * sends it. Sent from a thread of its own: the caller may be an interrupted thread, whose
     * write to an interruptible channel would close it.
     */
    void cancel(Call call, String reason) {
        cancelRequest(call.giveUp(reason), reason);
    }

    /**
     * Tells the server to stop the request with {@code id} (none when null), which its sender
     * stopped waiting for. Sent from a thread of its own, as {@link #cancel} says.
     */
    void cancelRequest(Object id, String reason) {
        if (id == null) {
            return;
        }
        requestEnded.accept(idKey(id));
        tasks.givenUp(id);
        McpSchema.JSONRPCNotification cancelled = new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION, METHOD_CANCELLED,
                Map.of("requestId", id, "reason", reason));
        // Noted before the thread starts, so a close that follows at once (a start failed by this timeout) waits for it.
        CompletableFuture<Void> sending = new CompletableFuture<>();
        cancelling.add(sending);
        try {
            Thread.ofVirtual().name("rein-mcp-cancel").start(() -> {
                try {
                    delegate.sendMessage(cancelled).block(Duration.ofSeconds(5));
                } catch (RuntimeException e) {
                    // best effort: the call is over for Rein either way, and a server that no longer answers fails the ping that
                    // follows (Session.checkAlive) and is replaced
                } finally {
                    cancelling.remove(sending);
                    sending.complete(null);
                }
            });
        } catch (RuntimeException | Error e) {
            cancelling.remove(sending);
            throw e;
        }
    }

    /** The {@code notifications/cancelled} being sent, each done once written (or failed). */
    private final java.util.Set<CompletableFuture<Void>> cancelling = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * Waits up to {@code wait} for the {@code notifications/cancelled} under way to be sent: ending
     * the session first (a stdio server's input closed, its process ended; an HTTP session deleted)
     * lost them, so a server never heard of the request given up on just before. Bounded, as a
     * server that stopped reading its input holds a write until it ends.
     */
    void awaitCancellations(Duration wait) {
        CompletableFuture<?>[] pending = cancelling.toArray(CompletableFuture<?>[]::new);
        if (pending.length == 0) {
            return;
        }
        try {
            CompletableFuture.allOf(pending).get(Math.max(1, wait.toMillis()), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // ended anyway: a server that does not take the notification in time is not waited on longer
        }
    }

    /** The JSON-RPC id of the last initialize request sent; null before one was. */
    Object initializeId() {
        return version.initializeId();
    }

    /**
     * Notes that a call is under way: the SDK is to be given the returned call's
     * {@link Call#request request}, and the call handed to {@link #ended} when it ends.
     */
    Call began() {
        return began(null);
    }

    /** As {@link #began()}, for a call that gives up at {@code deadline} (null: no deadline known here). */
    Call began(java.time.Instant deadline) {
        return new Call(deadline);
    }

    /** Notes that {@code call} ended: its request, if the SDK sends it only now, is cancelled once sent. */
    void ended(Call call) {
        call.giveUp("the call was given up before its request was sent");
        for (Map.Entry<String, Call> sent : sentCalls.entrySet()) { // each request sent for it (another after a 404)
            if (sent.getValue() == call && sentCalls.remove(sent.getKey(), call)) {
                requestEnded.accept(sent.getKey());
            }
        }
    }

    /** Told the id (JSON text) of each request whose caller stopped waiting for it (see {@link #onRequestEnded}). */
    private volatile Consumer<String> requestEnded = id -> {};

    /**
     * What is told the id (as JSON text) of each {@code tools/call} request whose call ended and each
     * request given up on ({@link #cancelRequest}): over streamable HTTP its response stream is then
     * resumed no more, as nothing but {@code notifications/cancelled} is to follow a request given up.
     */
    void onRequestEnded(Consumer<String> told) {
        this.requestEnded = told;
    }

    /**
     * The call of each {@code tools/call} request sent that has a deadline and is under way, by the
     * request's id as JSON text: a resumption of its stream ({@link ResumingHttpClient}) must not wait
     * past that deadline.
     */
    private final Map<String, Call> sentCalls = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The instant Rein gives up on the request with {@code id} (JSON text): a call's deadline, or a
     * start request's ({@code initialize}, {@code tools/list}); null when no such request is under way
     * (a call already ended) or its deadline is not known here.
     */
    java.time.Instant deadlineOf(String id) {
        Call call = sentCalls.get(id);
        return call == null ? startDeadlines.get(id) : call.deadline;
    }

    /**
     * How long Rein waits for a start request ({@code initialize}, a page of the tool list) from when
     * it is sent; null (the default): no deadline is noted for them.
     */
    private volatile java.time.Duration startLimit;

    /**
     * The instant Rein gives up on each {@code initialize} and {@code tools/list} request under way, by
     * the id as JSON text: a resumption of its stream counted from when the stream ended slept through a
     * Retry-After landing past it, and the start failed with a plain timeout instead of saying why.
     */
    private final Map<String, java.time.Instant> startDeadlines = new java.util.concurrent.ConcurrentHashMap<>();

    /** Notes that Rein waits for a start request for {@code limit} from when it is sent. */
    void startRequestsWaited(java.time.Duration limit) {
        startLimit = limit;
    }

    private void startSent(Object id) {
        java.time.Duration limit = startLimit;
        if (limit == null || id == null) {
            return;
        }
        java.time.Instant now = java.time.Instant.now();
        // One given up on (timed out) is never answered: dropped once past its deadline, where it no longer matters.
        startDeadlines.values().removeIf(deadline -> deadline.isBefore(now));
        startDeadlines.put(idKey(id), now.plus(limit));
    }

    private static String idKey(Object id) {
        return dev.rein.json.Json.write(dev.rein.json.Json.mapper().valueToTree(id));
    }

    /**
     * One {@code tools/call} under way: the id of the request last sent for it (a call is sent again,
     * with the same id-less params, after a 404 for its session), whether that request was refused
     * for a session the server no longer knows, and whether its caller gave up on it before the SDK
     * sent the request. Guarded by itself.
     */
    static final class Call {
        private final java.time.Instant deadline;
        private Object id;
        private CompletableFuture<Boolean> lost;
        private String givenUp;

        private Call(java.time.Instant deadline) {
            this.deadline = deadline;
        }

        /** The request to hand to the SDK for a call of {@code tool} with {@code arguments} and {@code meta}. */
        McpSchema.CallToolRequest request(String tool, Map<String, Object> arguments, Map<String, Object> meta) {
            Map<String, Object> noted = new java.util.LinkedHashMap<>(meta);
            noted.put(CALL_NOTE, this);
            return new McpSchema.CallToolRequest(tool, arguments, noted);
        }

        /** The JSON-RPC id of the last request sent for this call, while its caller waits for it; null when none is. */
        synchronized Object id() {
            return id;
        }

        /**
         * Whether the last request of this call was refused because the server no longer knows the
         * session, so it was not run; waits up to {@code wait} for the request's outcome (the SDK
         * fails the call just before it reports the refusal).
         */
        boolean sessionLost(Duration wait) {
            CompletableFuture<Boolean> outcome;
            synchronized (this) {
                outcome = lost;
            }
            try {
                return outcome != null && outcome.get(Math.max(1, wait.toMillis()), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } catch (Exception e) {
                return false;
            }
        }

        /** Notes request {@code requestId} sent; returns why it is to be cancelled at once (given up), else null. */
        private synchronized String sent(Object requestId, CompletableFuture<Boolean> outcome) {
            if (givenUp != null) {
                return givenUp;
            }
            id = requestId;
            lost = outcome;
            return null;
        }

        /** Marks the call given up (the first reason stays); returns the id of its request to cancel, null when none was sent. */
        private synchronized Object giveUp(String reason) {
            Object sentId = id;
            id = null;
            lost = null;
            if (givenUp == null) {
                givenUp = reason;
            }
            return sentId;
        }
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> inbound = received -> received.flatMap(message -> {
            version.received(message);
            tasks.received(message);
            if (message instanceof McpSchema.JSONRPCResponse answer && !startDeadlines.isEmpty()) {
                startDeadlines.remove(idKey(answer.id())); // the request ended
            }
            if (message instanceof McpSchema.JSONRPCNotification n && McpSchema.METHOD_NOTIFICATION_TOOLS_LIST_CHANGED.equals(n.method())) {
                return Mono.<McpSchema.JSONRPCMessage>fromRunnable(onToolsChanged);
            }
            return handler.apply(Mono.just(message));
        });
        this.inbound = inbound;
        return delegate.connect(inbound);
    }

    /**
     * A message from the server that reached Rein outside the delegate transport (on a resumed
     * response stream): handled as if the transport had received it.
     */
    void received(McpSchema.JSONRPCMessage message) {
        Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> current = inbound;
        if (current != null) {
            current.apply(Mono.just(message)).subscribe(ignored -> {}, error -> {});
        }
    }

    /** True while {@code notifications/initialized} is being sent. */
    private volatile boolean sendingInitialized;

    /** The failure of the {@code notifications/initialized} that follows the initialize answer (its cause says why). */
    static final class InitializedNotSent extends RuntimeException {
        InitializedNotSent(Throwable cause) {
            super(cause.getMessage(), cause);
        }
    }

    @Override
    public void setExceptionHandler(Consumer<Throwable> handler) {
        // The SDK's client initializes again on a 400 or 404 to a request with a session id (a forgotten session). Given
        // to notifications/initialized, that answer comes again to each new initialize: it initialized over and over in
        // the background while the start failed. The start fails anyway, and says why.
        delegate.setExceptionHandler(e -> {
            if (!sendingInitialized) {
                handler.accept(e);
            }
        });
    }

    @Override
    public Mono<Void> closeGracefully() {
        return delegate.closeGracefully();
    }

    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        // Checked before the SDK reads them: a wrongly typed field is named, not a Jackson failure of the whole answer.
        Object checked = typeRef.getType() == McpSchema.CallToolResult.class ? withKnownContent(Malformed.callResult(data, leftOut))
                : typeRef.getType() == McpSchema.ListToolsResult.class ? Malformed.listing(data, leftOut)
                : typeRef.getType() == McpSchema.InitializeResult.class ? Malformed.initializeResult(data, leftOut) : data;
        return delegate.unmarshalFrom(checked, typeRef);
    }

    /**
     * A tool result whose content blocks of a type the SDK does not know are replaced by a text
     * saying so. One such block made the SDK refuse the whole result, which the server had
     * answered; the blocks it knows are still shown.
     */
    static Object withKnownContent(Object data) {
        if (!(data instanceof Map<?, ?> result) || !(result.get("content") instanceof List<?> content)
                || content.stream().allMatch(CancellingTransport::knownContent)) {
            return data;
        }
        Map<Object, Object> copy = new java.util.LinkedHashMap<>(result);
        copy.put("content", content.stream().map(block -> knownContent(block) ? block : Map.of("type", "text", "text",
                block instanceof Map<?, ?> map && map.get("type") instanceof String type ? "[" + StdioTransport.abbreviate(type)
                        + " content, not shown]" : "[content without a type, not shown]")).toList());
        return copy;
    }

    private static boolean knownContent(Object block) {
        return block instanceof Map<?, ?> map && map.get("type") instanceof String type && CONTENT_TYPES.contains(type);
    }

    @Override
    public List<String> protocolVersions() {
        return delegate.protocolVersions();
    }
}
