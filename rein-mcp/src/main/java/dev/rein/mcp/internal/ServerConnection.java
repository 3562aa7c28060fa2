package dev.rein.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.mcp.McpConfigException;
import dev.rein.mcp.McpServerConfig;
import dev.rein.model.OutputSchema;
import dev.rein.tool.RetryableToolException;
import dev.rein.tool.ToolOutput;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Rein's side of one configured server for the agent's lifetime: starts it, lists its tools (all
 * pages, again on {@code notifications/tools/list_changed}), calls them, and turns every failure
 * into an error result. A server that crashed or broke is restarted at the next call; restarts
 * that keep failing wait longer each time (1 s doubling to 30 s) so a dead server is not hammered.
 */
public final class ServerConnection implements AutoCloseable {
    /** The least time a server gets to answer {@code initialize} and each {@code tools/list}, whatever its call timeout. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(30);
    /** A backstop only: a listing ends at its last page, and one that comes back to a cursor is refused at once. */
    private static final int MAX_PAGES = 10_000;

    private final McpServerConfig config;
    private final ServerProcess.Launcher launcher;
    private final McpJsonMapper mapper;
    private final StderrTail stderr;
    private final Consumer<List<McpSchema.Tool>> onTools;
    private Session session;
    /** Sessions left in doubt and still being ended in the background ({@link Session#discardInBackground}). */
    private final java.util.Set<Session> leaving = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Guards {@link #refreshRunning} and {@link #refreshAgain}. */
    private final Object refreshLock = new Object();
    /** Whether a tool-list refresh is running (one at a time). */
    private boolean refreshRunning;
    /** Whether a refresh was asked for (a list_changed) while one ran: one more runs after it. */
    private boolean refreshAgain;
    private String lastFailure;
    /** Why the last restart failed; null when it did not. */
    private String restartFailure;
    private int failedRestarts;
    private Instant restartNotBefore = Instant.MIN;
    private boolean closed;
    /** The restart under way, which calls share; null when none is. Guarded by this. */
    private CompletableFuture<Session> restarting;
    /** The session being opened, not yet initialized; closed by {@link #close()} too. Guarded by this. */
    private Session starting;
    /** The tools of the last listing that can only be called as tasks. */
    private volatile List<String> taskOnly = List.of();
    /**
     * Tools whose call the server refused with -32602 since the tool's entry last changed: each is
     * listed again once, and again only once it was dropped or its input schema changed.
     */
    private final java.util.Set<String> refusedSinceListing = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** Whether the next listing again is for a call refused with -32602, not for a list_changed (said if it fails). */
    private volatile boolean listingForRefusal;
    /** The input schema of each tool of the server's last tool list read, by name; empty before the first. */
    private volatile Map<String, Object> lastSchemas = Map.of();
    /** The instructions of the last initialize answer read; null when it gave none. */
    private volatile String instructions;

    public ServerConnection(McpServerConfig config, ServerProcess.Launcher launcher, McpJsonMapper mapper,
                            Consumer<List<McpSchema.Tool>> onTools) {
        this(config, launcher, mapper, onTools, new ServerWarnings());
    }

    ServerConnection(McpServerConfig config, ServerProcess.Launcher launcher, McpJsonMapper mapper,
                     Consumer<List<McpSchema.Tool>> onTools, ServerWarnings warnings) {
        this.config = config;
        this.launcher = launcher;
        this.mapper = mapper;
        this.stderr = new StderrTail(config.secrets());
        this.onTools = onTools;
        this.warnings = warnings;
    }

    /** How long the server has to answer ping after a call on it was given up on; see {@link Session#checkAlive}. */
    private volatile Duration pingTimeout = Session.PING_TIMEOUT;

    /**
     * Gives the server {@code bound}, not 5 s, to answer ping after a call on it was given up on: for tests, whose fake
     * servers answer at once or never, so a hung one need not hold a test for 5 s. Call before the first call.
     */
    public ServerConnection pingTimeout(Duration bound) {
        if (bound == null || bound.isNegative() || bound.isZero()) {
            throw new IllegalArgumentException("the ping timeout must be positive, not " + bound);
        }
        this.pingTimeout = bound;
        return this;
    }

    /** What was said of this server in the log, across its sessions. */
    private final ServerWarnings warnings;

    public McpServerConfig config() {
        return config;
    }

    /**
     * Whether the server's last tool listing made {@code tool} callable only as a task
     * ({@code execution.taskSupport: "required"} on a server declaring task-augmented tool calls),
     * which Rein does not make: such a tool cannot be offered.
     */
    public boolean requiresTask(String tool) {
        return taskOnly.contains(tool);
    }

    /**
     * The {@code instructions} of the server's {@code initialize} answer (of the latest session,
     * after a restart), secrets masked; null when it gave none or has not been started. The
     * server's text: nothing adds it to a model's context.
     */
    public String instructions() {
        Session current;
        synchronized (this) {
            current = session;
        }
        // After an HTTP 404 the SDK opens a new session itself, whose initialize answer only it sees:
        // its current one is read, the one Rein's own initialize got kept while it has none (re-initializing).
        McpSchema.InitializeResult now = current == null ? null : current.client.getCurrentInitializationResult();
        if (now != null) {
            instructions = now.instructions();
        }
        String text = instructions;
        return text == null || text.isBlank() ? null : dev.rein.tool.Secrets.mask(text, config.secrets());
    }

    /**
     * Starts the server and lists its tools.
     *
     * @throws McpConfigException naming the server, why it failed and its stderr tail
     */
    public List<McpSchema.Tool> start() {
        // Not holding the lock while the server starts (up to its timeout_seconds): close() (the toolset's shutdown hook on
        // Ctrl-C) must be able to end a start under way, as it ends a restart, not wait for the start's limit.
        try {
            Session opened = connect();
            synchronized (this) {
                if (closed) {
                    opened.close();
                    throw new IOException("the agent's MCP connections were closed");
                }
                session = opened;
            }
            return listAll(opened);
        } catch (IOException | RuntimeException e) {
            Session failed;
            boolean closedMeanwhile;
            synchronized (this) {
                failed = session;
                session = null;
                closedMeanwhile = closed;
            }
            if (failed != null) {
                failed.discard(); // it answered initialize, then failed its listing: not waited on either
            }
            close();
            if (closedMeanwhile) {
                throw new McpConfigException("MCP server '" + config.name() + "' could not be started: the agent's MCP connections were"
                        + " closed while it was starting.");
            }
            throw new McpConfigException("MCP server '" + config.name() + "' could not be started: " + describeConnect(e) + "."
                    + stderr.describe() + (e instanceof BadAnswer || e instanceof RefusedInitialized || badSessionId(e) ? BadAnswer.ADVICE : e instanceof RefusedListing listing ? listing.advice
                    : e instanceof StartTimedOut timedOut ? hint() + timedOut.advice
                    : e instanceof UnsupportedVersion ? UnsupportedVersion.ADVICE : e instanceof RefusedInitialize refused ? refused.advice
                    : e instanceof UnansweredInitialize unanswered ? unanswered.advice
                    : tls(e) != null ? "" : HttpRefusal.retryAfterIn(e) > 0 || HttpRefusal.asksToComeBackLater(e)
                    ? retryLater(HttpRefusal.retryAfterIn(e)) : hint()));
        } finally {
            startEnded.complete(null);
        }
    }

    /**
     * Completes when {@link #start} has returned or failed. A tool-list change the server announces
     * while it starts is listed after the start's own listing (which it must not be undone by), as
     * when the start held the lock the refresh waits on.
     */
    private final CompletableFuture<Void> startEnded = new CompletableFuture<>();

    private Session connect() throws IOException {
        Session opened = Session.open(config, launcher, mapper, stderr, warnings, this::refreshLater);
        synchronized (this) {
            if (closed) {
                opened.close();
                throw new IOException("the agent's MCP connections were closed");
            }
            starting = opened;
        }
        Duration limit = max(config.timeout(), START_TIMEOUT);
        try {
            McpSchema.InitializeResult initialized = await(opened, opened.client.initialize().toFuture(), Instant.now().plus(limit));
            instructions = initialized.instructions();
            return opened;
        } catch (IOException | RuntimeException e) {
            if (e.getCause() instanceof TimeoutException) {
                opened.discard();
                throw new StartTimedOut("it did not answer the initialize request within " + limit.toSeconds() + " s", limit, e);
            }
            for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
                Integer status = cause instanceof CancellingTransport.InitializedNotSent
                        ? opened.refusedNotification(McpSchema.METHOD_NOTIFICATION_INITIALIZED) : null;
                if (status != null) {
                    // The server answered initialize, so its URL is not in doubt: its refusal of the notification after it is.
                    // (A server that stopped instead is described by how it ended, below.)
                    String said = opened.refusal();
                    opened.discard();
                    throw new RefusedInitialized("it answered the initialize request, then refused the notifications/initialized"
                            + " notification that follows it (which every client sends, as the protocol's lifecycle says) with HTTP "
                            + status + (said == null ? "" : "; it said: '"
                            + StdioTransport.abbreviate(dev.rein.tool.Secrets.mask(said, config.secrets())) + "'"));
                }
                if (cause instanceof Malformed.Answer malformed) {
                    // The server answered, so its command is not in doubt: what it answered is.
                    opened.discard();
                    throw new BadAnswer(malformed.getMessage());
                }
            }
            String malformed = MalformedAnswer.described(e, this::mask);
            if (malformed != null) {
                opened.discard();
                throw new BadAnswer("it answered the initialize request with a message that is not valid JSON-RPC: " + malformed);
            }
            String unsupported = unsupportedVersion(e);
            if (unsupported != null) {
                // The SDK refused the server's answer (no JSON-RPC error came from the server): the
                // protocol has the client disconnect from a server that chose a version it cannot speak.
                opened.discard();
                throw new UnsupportedVersion("it chose protocol version '" + unsupported + "', which Rein does not support (Rein speaks "
                        + String.join(", ", opened.transport.protocolVersions()) + ")");
            }
            String idless = opened.idlessErrorOf(opened.transport.initializeId());
            if (idless != null) {
                // The server answered the POST of initialize with a JSON-RPC error without an id: it refused that request.
                opened.discard();
                throw new BadAnswer("it refused the initialize request with " + quoted(idless)
                        + " (an error without the id of the request, which a server gives a request it could not read)", true);
            }
            if (McpError.findRootCause(e) instanceof McpError refused && unanswered(refused)) {
                IOException broken = cutOffByTls(opened, refused, opened.transport.initializeId());
                opened.discard();
                if (broken != null) {
                    throw broken;
                }
                throw new UnansweredInitialize(unansweredText(refused, "the initialize request"),
                        data(refused, ResumingHttpClient.RETRY_AFTER) instanceof Number n ? n.longValue() : 0, e);
            }
            if (McpError.findRootCause(e) instanceof McpError refused && refused.getJsonRpcError() != null) {
                opened.discard();
                throw new RefusedInitialize("it refused the initialize request with " + jsonRpc(refused)
                        + versions(refused.getJsonRpcError().data()), refused.getJsonRpcError().data(), opened.transport.protocolVersions(), e);
            }
            // A server that died while starting is best described by how it ended, not by the write that failed.
            String ended = opened.endedWithin(Duration.ofSeconds(1));
            String said = opened.refusal();
            long retryAfter = opened.retryAfterOf(opened.transport.initializeId());
            String noWait = opened.noWaitRetryAfterOf(opened.transport.initializeId());
            opened.discard();
            if (ended != null) {
                // A line that is not a message ended the connection, not the server: that says all.
                throw new IOException(ended.startsWith(StdioTransport.NOT_JSON_RPC) ? ended : "it stopped before answering: " + ended, e);
            }
            if (said != null || retryAfter > 0 || noWait != null) {
                throw new HttpRefusal.Said(e, said, retryAfter, noWait);
            }
            throw e;
        } finally {
            synchronized (this) {
                if (starting == opened) {
                    starting = null;
                }
            }
        }
    }

    private List<McpSchema.Tool> listAll(Session current) throws IOException {
        McpSchema.ServerCapabilities capabilities = current.client.getServerCapabilities();
        if (capabilities != null && capabilities.tools() == null) {
            // Only negotiated capabilities may be used: a server without tools (say, prompts only) is not asked for them.
            return List.of();
        }
        List<McpSchema.Tool> tools = new ArrayList<>();
        String cursor = McpSchema.FIRST_PAGE;
        java.util.Set<String> cursors = new java.util.HashSet<>();
        Duration limit = max(config.timeout(), START_TIMEOUT);
        boolean sentAgain = false;
        for (int page = 0; page < MAX_PAGES; page++) {
            current.transport.takeListingSent();
            current.transport.forgetLastListing();
            CompletableFuture<McpSchema.ListToolsResult> listed = current.client.listTools(cursor).toFuture();
            Object id = current.transport.takeListingSent();
            McpSchema.ListToolsResult result;
            try {
                result = await(current, listed, Instant.now().plus(limit));
            } catch (IOException e) {
                CancellingTransport.Listing listing = current.transport.lastListing();
                if (id == null && listing != null) {
                    id = listing.id(); // sent again after a 404, by the SDK's thread
                }
                // Read once: a refusal's status is forgotten once read.
                boolean lost = !(e.getCause() instanceof TimeoutException) && sessionLost(listing);
                Integer status = current.refusedStatusOf(id);
                if (lost && (status == null || status == 404)) {
                    if (sentAgain) {
                        // Not sent a third time: a server forgetting every session would be initialized for ever.
                        throw new RefusedListing("it answered HTTP 404 (session not found) to the tools/list request twice, on its"
                                + " session and on the new session Rein opened for it (as MCP asks after a 404)");
                    }
                    // Transports, session management: after a 404 the client MUST open a new session, which the SDK has
                    // begun (initialize without the old id); the listing starts again on it, from the first page, as a
                    // cursor of the old session means nothing to the new one.
                    sentAgain = true;
                    tools.clear();
                    cursors.clear();
                    cursor = McpSchema.FIRST_PAGE;
                    page = -1;
                    continue;
                }
                if (e.getCause() instanceof TimeoutException) {
                    // Lifecycle, timeouts: a request given up on is cancelled on the server (the SDK does not).
                    current.transport.cancelRequest(id, "the tools/list request timed out");
                    // It answered initialize: which request it left unanswered, and for how long, is what to say.
                    throw new RefusedListing("it answered the initialize request but did not answer the tools/list request"
                            + (page == 0 ? "" : " for page " + (page + 1) + " of its tool list") + " within " + limit.toSeconds() + " s",
                            false, RefusedListing.ADVICE + StartTimedOut.longer(limit, "list its tools"));
                }
                tooLargeListing(e);
                String idless = current.idlessErrorOf(id);
                if (idless != null) {
                    // The POST of tools/list was answered with a JSON-RPC error without an id: the server refused it.
                    throw new RefusedListing("it refused the tools/list request with " + quoted(idless)
                            + " (an error without the id of the request, which a server gives a request it could not read)", true);
                }
                if (status != null) {
                    // Refused with an HTTP status, which the SDK does not name for a 400 or 404 ("MCP session with server
                    // terminated"): the server runs (it answered initialize), so neither its URL nor the request is in doubt.
                    // Rein's words around a quote HttpRefusal already cut to its bound: not cut again, or a long quote
                    // took the Retry-After after it away
                    // a server that asked to be tried later (a Retry-After; a 503 or 429 without one, or one asking for no wait) is
                    // told apart as initialize's is: its configuration is not in doubt
                    long retryAfter = current.retryAfterOf(id);
                    throw new RefusedListing("it refused the tools/list request: " + HttpRefusal.describe(status, current.refusalOf(id),
                            retryAfter, current.noWaitRetryAfterOf(id), config.secrets()), true,
                            retryAfter > 0 || status == 503 || status == 429 ? retryLater(retryAfter) : RefusedListing.ADVICE);
                }
                throw e;
            } catch (McpError e) {
                if (notResumed(e) != null) {
                    // The answer is lost, but the server may still be working on it (transports: a disconnection is no
                    // cancellation): it is told to stop, as a call is.
                    current.transport.cancelRequest(id, "its response stream could not be resumed");
                }
                tooLargeListing(e);
                String malformed = MalformedAnswer.described(e, this::mask);
                if (malformed != null) {
                    throw new BadAnswer("it answered the tools/list request with a message that is not valid JSON-RPC: " + malformed);
                }
                IOException broken = cutOffByTls(current, e, id);
                if (broken != null) {
                    throw broken;
                }
                if (unanswered(e) && (noBody(e) != null || otherId(e) != null || notResumed(e) != null)) {
                    // It answered initialize at that URL with those headers, then lost this request's answer: said so, naming
                    // the request, not as a server that cannot be reached.
                    throw new RefusedListing(unansweredText(e, "the tools/list request"), true);
                }
                if (e.getJsonRpcError() == null || unanswered(e) || tooLarge(e) != null) {
                    throw e;
                }
                // The server runs (it answered initialize) and refused this request: say which, not to check the command.
                throw new RefusedListing("it refused the tools/list request with " + jsonRpc(e), true);
            }
            String malformed = Malformed.of(result.meta());
            if (malformed != null) {
                throw new BadAnswer(malformed);
            }
            tools.addAll(result.tools());
            cursor = result.nextCursor();
            if (cursor == null || cursor.isEmpty()) {
                taskOnly = tools.stream().map(McpSchema.Tool::name).filter(current.transport::requiresTask).toList();
                // What a call depends on is the tool's name and input schema, not the listing's order, descriptions,
                // annotations or _meta (which some servers stamp per listing): a refused tool is listed again after a
                // refusal with -32602 once that changed (it was dropped, or its schema changed), not at every listing.
                Map<String, Object> schemas = new java.util.HashMap<>();
                tools.forEach(tool -> schemas.putIfAbsent(tool.name(), tool.inputSchema()));
                Map<String, Object> before = lastSchemas;
                refusedSinceListing.removeIf(name -> !schemas.containsKey(name) || !java.util.Objects.equals(before.get(name), schemas.get(name)));
                lastSchemas = schemas;
                return tools;
            }
            // Cursors are opaque, but one given twice means the listing would go round for ever: the server's fault, as
            // what it answered (not its command or URL) is in doubt.
            if (!cursors.add(cursor)) {
                throw new BadAnswer("its tool list came back to the cursor '" + StdioTransport.abbreviate(cursor)
                        + "' of an earlier page (page " + (page + 2) + "), so it would never end");
            }
        }
        throw new BadAnswer("its tool list did not end after " + MAX_PAGES + " pages");
    }

    /**
     * Fails a listing answered with more than Rein reads, saying so: the server answered, so neither
     * its URL nor its headers are in doubt, and no tool was called to be asked for less.
     */
    private static void tooLargeListing(Throwable e) throws BadAnswer {
        String tooLarge = tooLarge(e);
        if (tooLarge != null) {
            throw new BadAnswer("it answered the tools/list request with " + tooLarge + " (a tool list that long is given in pages)");
        }
    }

    /**
     * When {@code e} is Rein's end of the response stream of start request {@code id} and a broken
     * TLS connection cut that stream off: the failure, described as when the SDK reports it itself
     * (which of the two comes first is a race); else null.
     */
    private IOException cutOffByTls(Session current, McpError e, Object id) {
        Throwable cut = unanswered(e) && noBody(e) == null ? current.cutOffBy(id) : null;
        return cut == null || brokenTls(cut) == null ? null : new IOException("its response stream was cut off", cut);
    }

    /** A tools/list the server refused (or left unanswered): it runs, so its command is not in doubt. */
    private static final class RefusedListing extends IOException {
        static final String ADVICE = " The server runs (it answered initialize): check what it needs (its own configuration, a key,"
                + " a service it uses; its stderr may say), or set \"disabled\": true to leave it out.";

        /** What to do, after the message and the stderr tail. */
        final String advice;

        /**
         * True: the message is Rein's own words, quoting nothing of the server's or a JSON-RPC error already cut
         * to its bound saying so ({@link #quoted}), and is shown whole (not cut short again, without a word).
         */
        final boolean ownWords;

        RefusedListing(String message) {
            this(message, false);
        }

        RefusedListing(String message, boolean ownWords) {
            this(message, ownWords, ADVICE);
        }

        RefusedListing(String message, boolean ownWords, String advice) {
            super(message);
            this.ownWords = ownWords;
            this.advice = advice;
        }
    }

    /**
     * A start request ({@code initialize}) not answered in the time Rein waits for it. Besides what
     * may be wrong (the command or URL), a server may only be slow to start (npx fetching a package
     * on its first run): the advice names the setting that gives it longer.
     */
    static final class StartTimedOut extends IOException {
        final String advice;

        StartTimedOut(String message, Duration limit, Throwable cause) {
            super(message, cause);
            this.advice = longer(limit, "start (npx fetching a package on its first run, a large index loaded)");
        }

        /** The advice for a server that may only be slow to {@code what}, having had {@code limit}. */
        static String longer(Duration limit, String what) {
            if (limit.compareTo(ConfigParser.MAX_TIMEOUT) >= 0) {
                // "above 3600" named a value the servers file refuses: at the cap, longer is only given in code.
                return " It had " + limit.toSeconds() + " s to " + what + ", at least the most \"timeout_seconds\" takes in the servers"
                        + " file (" + ConfigParser.MAX_TIMEOUT.toSeconds() + "): a server that needs longer is likely stuck (its stderr"
                        + " may say); only McpServerConfig.timeout() in code gives it longer.";
            }
            return " If it is only slow to " + what + ", give it longer with \"timeout_seconds\" above " + limit.toSeconds()
                    + " in its entry of the servers file (McpServerConfig.timeout() in code): Rein waits that long for initialize and"
                    + " each page of the tool list, 30 s at least.";
        }
    }

    /**
     * An initialize request the server refused with a JSON-RPC error: it runs and answered, so its
     * command or URL is not in doubt; what it needs, or the version it speaks, is.
     */
    private static final class RefusedInitialize extends IOException {
        /** What to do, after the message and the stderr tail. */
        final String advice;

        RefusedInitialize(String message, Object data, List<String> spoken, Throwable cause) {
            super(message, cause);
            List<String> supported = data instanceof Map<?, ?> map && map.get("supported") instanceof List<?> list
                    ? list.stream().map(String::valueOf).toList() : null;
            List<String> common = supported == null ? List.of() : supported.stream().filter(spoken::contains).distinct().toList();
            String runs = " The server runs (it answered the initialize request)";
            // The lifecycle has a server answer a version it does not support with one it does, which the client may then speak.
            this.advice = supported == null ? runs + RefusedListing.ADVICE.substring(RefusedListing.ADVICE.indexOf(':'))
                    : !common.isEmpty() ? runs + " and speaks " + String.join(", ", common) + ", which Rein speaks too, but it refused"
                    + " the version asked for where the protocol has it answer with one it supports: have the server fixed, or set"
                    + " \"disabled\": true to leave it out."
                    : runs + ": use a version of it that speaks one Rein speaks (" + String.join(", ", spoken) + "), or set"
                    + " \"disabled\": true to leave it out.";
        }
    }

    /** A protocol version Rein does not speak, chosen by a server that answered: its command or URL is not in doubt. */
    private static final class UnsupportedVersion extends IOException {
        static final String ADVICE = " The server runs (it answered initialize): use a version of it that speaks one of these, or set"
                + " \"disabled\": true to leave it out.";

        UnsupportedVersion(String message) {
            super(message);
        }
    }

    /**
     * A server that answered initialize but not the notification that follows it. The message
     * is shown whole: what the server said in it is already cut short.
     */
    private static final class RefusedInitialized extends IOException {
        RefusedInitialized(String message) {
            super(message);
        }
    }

    /**
     * An initialize request whose response ended without its answer: the server answered the POST,
     * so its URL is not in doubt. The message is Rein's own words (an id it quotes is already cut
     * short) and is shown whole: cut at 200 characters, it lost the reason at its end.
     */
    private static final class UnansweredInitialize extends IOException {
        /** What to do, after the message and the stderr tail. */
        final String advice;

        /** The seconds a Retry-After asked to wait, past the time Rein waits for initialize; 0 when none did. */
        final long retryAfterSeconds;

        UnansweredInitialize(String message, long retryAfter, Throwable cause) {
            super(message, cause);
            this.retryAfterSeconds = retryAfter;
            String runs = " The server runs (it began answering the initialize request)";
            // "timeout_seconds" above the wait is advice only while the servers file takes such a value.
            this.advice = retryAfter > 0 && (HttpRefusal.unreadable(retryAfter * 1000) || retryAfter >= ConfigParser.MAX_TIMEOUT.toSeconds())
                    ? runs + " and asked to be tried again " + (HttpRefusal.unreadable(retryAfter * 1000) ? "after a wait too large to read"
                    : "after " + retryAfter + " s") + ", longer than \"timeout_seconds\" can give it (at most "
                    + ConfigParser.MAX_TIMEOUT.toSeconds() + " s): start again once it takes requests, or set \"disabled\": true to"
                    + " leave it out."
                    : retryAfter > 0
                    ? runs + " and asked to be tried again after " + retryAfter + " s: set \"timeout_seconds\" above that to wait for it,"
                    + " or set \"disabled\": true to leave it out."
                    : runs + ": its stderr or logs may say why its answer was lost, or set \"disabled\": true to leave it out.";
        }
    }

    /** An answer that is not what the protocol defines: the server answered, so its command is not in doubt. */
    private static final class BadAnswer extends IOException {
        static final String ADVICE = " Have the server fixed, or set \"disabled\": true to leave it out.";

        /** True: what the message quotes of the server's is already cut to its bound saying so ({@link #quoted}): shown whole. */
        final boolean bounded;

        BadAnswer(String message) {
            this(message, false);
        }

        BadAnswer(String message, boolean bounded) {
            super(message);
            this.bounded = bounded;
        }
    }

    /**
     * On list_changed: list again off the SDK's thread, and hand the new list on. A server may send
     * many notifications in a row; each started a listing of its own at once, so a burst of them
     * had as many {@code tools/list} requests (and threads) in flight. One listing runs at a time:
     * those asked for while it runs are answered by one more, begun after them, so the newest
     * list is still taken up, and listings end in the order they began.
     */
    private void refreshLater() {
        synchronized (refreshLock) {
            if (refreshRunning) {
                refreshAgain = true;
                return;
            }
            refreshRunning = true;
        }
        try {
            Thread.ofVirtual().name("rein-mcp-refresh-" + config.name()).start(() -> {
                boolean ended = false;
                try {
                    do {
                        refreshOnce();
                    } while (again());
                    ended = true;
                } finally {
                    // An Error (out of memory, a consumer's assertion) left the flag set, and every later
                    // list_changed was passed over for the connection's life: whatever ends the thread clears it.
                    if (!ended) {
                        stopRefreshing();
                    }
                }
            });
        } catch (Throwable e) {
            stopRefreshing();
            throw e;
        }
    }

    private void stopRefreshing() {
        synchronized (refreshLock) {
            refreshRunning = false;
            refreshAgain = false;
        }
    }

    /** Whether a refresh was asked for while the last one ran (then it is run now); else the refreshing ends. */
    private boolean again() {
        synchronized (refreshLock) {
            refreshRunning = refreshAgain;
            refreshAgain = false;
            return refreshRunning;
        }
    }

    private void refreshOnce() {
        // Only a session of start() (or a restart after it) announces changes, so start() has begun: wait for its listing.
        startEnded.join();
        Session current;
        synchronized (this) {
            current = session;
        }
        if (current == null || current.broken.isDone()) {
            return;
        }
        boolean forRefusal = listingForRefusal;
        listingForRefusal = false;
        try {
            onTools.accept(listAll(current));
        } catch (IOException | RuntimeException e) {
            // A failed refresh keeps the tools known so far. A broken or closed session is the next call's to notice (and
            // restart); a server that runs but could not be listed is said, or its new tools would stay away without a word.
            boolean ended;
            synchronized (this) {
                ended = closed;
            }
            if (!ended && !current.broken.isDone()) {
                String why = describeConnect(e);
                warnings.once("relisting failed: " + why, () -> "MCP server '" + dev.rein.internal.text.Controls.visible(config.name(), false)
                        + (forRefusal ? "' refused a call with JSON-RPC error -32602 (an unknown tool or invalid params), so Rein listed its"
                        + " tools again in case they changed, but listing them failed: " : "' announced that its tools changed"
                        + " (notifications/tools/list_changed), but listing them again failed: ") + why
                        + ". Rein keeps offering the tools known so far (further such failures of this server for the same reason are not"
                        + " warned of again).");
            }
        }
    }

    /**
     * Calls {@code tool}; every failure is an error result the model can act on.
     *
     * @param callersDeadline the call gives up at this instant (or after the server's timeout and 5 s, if sooner)
     * @param output   the tool's declared output schema, which successful results must carry
     *                 structured content matching; null when it declares none
     * @param mayHaveEffect true when the risk the executor applies to the call ({@code ToolContext.risk()}, which may differ
     *                 from the one Rein derived: a policy, {@code toBuilder().risk(...)}) is not READ: a failure that may have
     *                 come after the call ran says it may have taken effect, and a 503 is not handed to the executor's retry
     * @param readVouched true when the call is run as READ and that READ is not the word of an untrusted server alone (its
     *                 {@code readOnlyHint}): the application said it (an override, {@code toBuilder().risk(...)}, a policy), or
     *                 the server has {@code trust}; only then is a 503 handed to the executor's retry
     * @throws RetryableToolException when a streamable HTTP server refused the call with 429 (the call was not run), or
     *                 answered 503 to a call whose READ is vouched for (it may have run, without effect): it may be tried again
     *                 (after the server's {@code Retry-After}, when it gave one)
     */
    public ToolOutput call(String tool, Map<String, Object> arguments, Map<String, Object> meta, Instant callersDeadline,
                           boolean mayHaveEffect, boolean readVouched, DeclaredOutput output)
            throws InterruptedException, RetryableToolException {
        // The server's timeout bounds a call also for a caller allowing more (a handler called outside the
        // executor), with the slack the executor's own timeout is given to come first.
        Instant bound = Instant.now().plus(config.timeout()).plusSeconds(5);
        Instant deadline = callersDeadline.isBefore(bound) ? callersDeadline : bound;
        Session current;
        try {
            current = live(deadline);
        } catch (StillChecking e) {
            return ToolOutput.error("MCP server '" + config.name() + "' had not answered ping by the end of this call's time: a call"
                    + " on it was given up on, and Rein checks (for up to " + Session.shown(pingTimeout) + ") that it still"
                    + " answers before calling it again. Tool '" + tool + "' was not called. Try again in a moment.");
        } catch (StillRestarting e) {
            return ToolOutput.error("MCP server '" + config.name() + "' is being restarted (it stopped: " + e.getMessage() + ") and had not"
                    + " answered initialize by the end of this call's time. Tool '" + tool + "' was not called. The restart goes on:"
                    + " try again in a moment.");
        } catch (IOException | RuntimeException e) {
            return ToolOutput.error("MCP server '" + config.name() + "' is not running and could not be restarted: " + describeConnect(e)
                    + "." + stderr.describe() + " Tool '" + tool + "' was not called.");
        }
        if (current == null) {
            // Whole seconds, rounded up: "from 2026-12-04T14:57:48.648322829Z" told a model nothing it could use.
            long seconds = Math.max(1, HttpRefusal.seconds(Duration.between(Instant.now(), restartNotBefore).toMillis()));
            return ToolOutput.error("MCP server '" + config.name() + "' stopped (" + lastFailure + ")"
                    + (restartFailure == null ? "" : " and could not be restarted (" + restartFailure + ")")
                    + "; it is tried again at the first call in " + seconds + " s or later" + (restartWaitCut == null ? ""
                    : " (its Retry-After " + restartWaitCut + "; Rein holds a restart back " + LONGEST_RESTART_HOLD_SAID
                    + " at most)") + ". Tool '" + tool + "' was not called."
                    + " Try again later or use another tool.");
        }
        CancellingTransport.Call call = current.transport.began(deadline);
        McpSchema.CallToolRequest request = call.request(tool, arguments, meta);
        CompletableFuture<McpSchema.CallToolResult> future;
        try {
            future = current.client.callTool(request).toFuture();
        } catch (RuntimeException e) {
            current.transport.ended(call);
            throw e;
        }
        Object inFlight = current.calls.began(deadline);
        try {
            McpSchema.CallToolResult result = null;
            boolean sentAgain = false;
            for (int sent = 1; result == null; sent++) {
                try {
                    sentAgain = sent > 1;
                    result = await(current, future, deadline);
                } catch (IOException | RuntimeException e) {
                    if (!sessionLost(call, e, deadline)) {
                        throw e;
                    }
                    Integer status = current.refusedStatusOf(call.id());
                    if (status != null && status != 404) {
                        // The SDK takes a 400 to a request with a session id for a forgotten session too; the
                        // transports spec answers that with 404 only, and 400 refuses the request itself, before
                        // running it. The SDK is re-initializing in the background all the same, so the next call
                        // starts a fresh session of Rein's own, as after a second 404.
                        String refusal = HttpRefusal.describe(status, current.refusalOf(call.id()), current.retryAfterOf(call.id()),
                                current.noWaitRetryAfterOf(call.id()), config.secrets());
                        failed(current, refusal);
                        return ToolOutput.error("MCP server '" + config.name() + "' refused the call of tool '" + tool + "': " + refusal
                                + ", so the tool was not run (a server answers HTTP " + status + " to a request it will not run)."
                                + " Rein opens a new session at the next call. Try again, or use another tool.");
                    }
                    if (sent == 2) {
                        // Not sent a third time. The SDK is re-initializing once more in the background,
                        // and a call that meets that re-initialization half done fails; so the next call
                        // starts a fresh session of Rein's own instead.
                        failed(current, "the server forgot its session twice in a row");
                        return ToolOutput.error("MCP server '" + config.name() + "' answered HTTP 404 (session not found) to the call of"
                                + " tool '" + tool + "' twice, on the old session and on a new one, so the tool was not run."
                                + " Try again later or use another tool.");
                    }
                    // A 404 for the session means the server never ran the call. The SDK has already
                    // begun a new session (initialize without the old id), so the same request, with
                    // the same idempotency key, goes once more on it; the new session is kept. Its
                    // tools are listed again only after this call: a listing sent beside it would
                    // meet a second 404 first and end the new session under the call.
                    future = current.client.callTool(request).toFuture();
                }
            }
            if (sentAgain) {
                refreshLater();
            }
            succeeded();
            String malformed = Malformed.of(result.meta());
            if (malformed != null) {
                // The server answered, so it is kept; whether the tool did anything is not known.
                return ToolOutput.error("MCP server '" + config.name() + "' answered the call of tool '" + tool + "' with " + malformed
                        + ", so the answer was not used." + (mayHaveEffect ? " It may or may not have taken effect; check before"
                        + " calling it again." : "") + " Try again, or use another tool; the server should be fixed.");
            }
            String unusable = output == null ? null : output.unusable(result);
            if (unusable != null) {
                // A result, not an error: the tool ran. Tried again, a tool that books or deletes would do it twice.
                return ToolOutput.error("MCP server '" + config.name() + "' answered the call of tool '" + tool + "' " + unusable
                        + ", so the answer was not used." + (mayHaveEffect ? " The tool ran, so what it does has been done:"
                        + " check its effect before calling it again; the server should be fixed." : " Try again, or use another tool."));
            }
            return ResultText.of(result);
        } catch (McpError e) {
            if (tooLarge(e) != null) {
                return answeredTooMuch(tool, tooLarge(e), mayHaveEffect); // Rein's end of a resumed stream that brought more
            }
            String malformed = MalformedAnswer.described(e, this::mask);
            if (malformed != null) {
                // The server answered, so it is kept; whether the tool did anything is not known.
                return ToolOutput.error("MCP server '" + config.name() + "' answered the call of tool '" + tool + "' with a message that"
                        + " is not valid JSON-RPC: " + malformed + ", so the answer was not used." + (mayHaveEffect ? " It may or may not"
                        + " have taken effect; check before calling it again." : "") + " Try again, or use another tool; the server"
                        + " should be fixed.");
            }
            Integer notResumed = notResumed(e);
            if (notResumed != null) {
                // The answer is lost, but the server may still be running the call: it is told to stop, as after a timeout.
                current.transport.cancel(call, "its response stream could not be resumed");
                if (notResumed == 0) {
                    failed(current, "the GET resuming a call's response stream kept failing"); // the server may be down
                }
                return ToolOutput.error("MCP server '" + config.name() + "' " + notResumedText(e, "the call of tool '" + tool + "'")
                        + "." + (mayHaveEffect ? " It may or may not have taken effect; check before calling it again." : "")
                        + (notResumed == 0 ? " Rein connects to it again at the next call." : "") + " Try again, or use another tool.");
            }
            Throwable cut = unanswered(e) && noBody(e) == null ? current.cutOffBy(call.id()) : null;
            String tls = cut == null ? null : brokenTls(cut);
            if (tls != null) {
                // The stream was cut off by its TLS connection, not ended by the server: said as when the SDK reports
                // the same failure itself (which of the two comes first is a race), the connection in doubt.
                failed(current, tls);
                return ToolOutput.error("MCP server '" + config.name() + "' failed while running tool '" + tool + "': " + tls + "."
                        + (mayHaveEffect ? " It may or may not have taken effect; check before calling it again." : "")
                        + " Rein connects to it again at the next call.");
            }
            if (unanswered(e)) {
                return ToolOutput.error("MCP server '" + config.name() + "' " + (noBody(e) != null ? noBodyText(noBody(e), "the call of tool '"
                        + tool + "'") : otherId(e) != null ? otherIdText(otherId(e), "the call of tool '" + tool + "'") : "ended its response to the call of tool '" + tool
                        + "' without the answer, and without an event id to resume it from (it may have crashed, or a proxy cut the"
                        + " connection)") + "." + (mayHaveEffect ? " It may or may not have taken effect; check before calling it again." : "")
                        + " Try again, or use another tool.");
            }
            String idless = current.idlessErrorOf(call.id());
            if (idless == null && e.getJsonRpcError() != null && e.getJsonRpcError().code() == McpSchema.ErrorCodes.INVALID_PARAMS
                    && refusedSinceListing.add(tool)) {
                // -32602 is the protocol's error for an unknown tool (or invalid params), and Rein checked the arguments
                // against the listed schema: the list Rein holds may be stale, changed by a server that does not announce
                // changes (no listChanged) or failed to. Listed again, once per tool while its input schema stays the
                // same, so a dropped tool is no longer offered and a changed schema is used, without a listing at every call.
                listingForRefusal = true;
                refreshLater();
            }
            // An error without an id on the stream resumed for the call: Rein handed it on with the call's id.
            return ToolOutput.error("MCP server '" + config.name() + "' refused the call of tool '" + tool + "': " + (idless == null
                    ? jsonRpc(e) : quoted(idless) + " (an error without the id of the request,"
                    + " which a server gives a request it could not read)"));
        } catch (IOException | RuntimeException failure) {
            future.cancel(true);
            String idless = current.idlessErrorOf(call.id());
            if (idless != null) {
                // The server answered, refusing a request it could not read: its session is not in doubt.
                return ToolOutput.error("MCP server '" + config.name() + "' refused the call of tool '" + tool + "': "
                        + quoted(idless) + " (an error without the id of the request, which a server gives a"
                        + " request it could not read)");
            }
            if (config.transport() instanceof McpServerConfig.Http && tooLarge(failure) != null) {
                return answeredTooMuch(tool, tooLarge(failure), mayHaveEffect);
            }
            // An HTTP error status may carry a JSON-RPC error saying why (the transports spec allows one without an id).
            String said = current.refusalOf(call.id());
            long retryAfter = current.retryAfterOf(call.id());
            String noWait = current.noWaitRetryAfterOf(call.id());
            Integer status = current.refusedStatusOf(call.id());
            // RFC 6585 section 4 (429: too many requests) refuses the request: a rate limit, in a proxy or the server, comes
            // before the request is handled. A 503 (RFC 9110 section 15.6.4: "the server", which may be a proxy in front of
            // it, cannot handle the request now) proves nothing, with or without a Retry-After: Envoy and Istio answer it
            // ("upstream connect error or disconnect/reset before headers") when the upstream connection drops after the
            // request was forwarded, and a proxy may add a Retry-After of its own. The executor's retry sits below the
            // approval gate, so a call with effects (by the risk the executor applies, which may be stricter than the one
            // Rein derived) is never handed to it on a 503: the model may call again, and that call passes the gate. A call
            // run as READ has no effect to repeat: its 503 is a passing failure, retried as a 429 is. The session, whose
            // endpoint answered, is kept. A wait it asked for is the advice: called again at once, it is refused again.
            if (status != null && status == 503) {
                String answered = "MCP server '" + config.name() + "' answered the call of tool '" + tool + "': "
                        + HttpRefusal.describe(status, said, retryAfter, noWait, config.secrets())
                        + (retryAfter > 0 || noWait != null ? "" : ", without a Retry-After") + ". ";
                String advice = HttpRefusal.unreadable(retryAfter) ? " Calling it again soon will likely be refused again: use"
                        + " another tool, or tell the user." : retryAfter > 0 ? " Calling it again sooner than "
                        + HttpRefusal.seconds(retryAfter) + " s will likely be refused again: use another tool, or tell the user."
                        : " Otherwise call it again if you still need its answer, or use another tool.";
                if (!mayHaveEffect) {
                    // Unvouched, "only reads" is the server's own claim (its readOnlyHint), and is said as one.
                    String read = answered + "The server, or a proxy in front of it, cannot handle the call now. "
                            + (readVouched ? "The tool only reads" : "The server says the tool only reads (its readOnlyHint)")
                            + ", so a call that may have run changed nothing.";
                    if (HttpRefusal.unreadable(retryAfter)) {
                        // No wait to give the retry policy: Rein's stand-in would be said as a number of seconds the server never sent.
                        return ToolOutput.error(read + " Rein does not try it again." + advice);
                    }
                    if (!readVouched) {
                        // Only an untrusted server's readOnlyHint says it reads, and the retry sends it again unseen: the model
                        // may call again.
                        return ToolOutput.error(read + " Rein does not try it again." + advice.replace(" Otherwise call", " Call"));
                    }
                    throw new RetryableToolException(read + advice.replace(" Otherwise call", " Call"),
                            retryAfter > 0 ? Duration.ofMillis(retryAfter) : null);
                }
                return ToolOutput.error(answered + "A 503 does not show whether the server ran the call: a proxy in front of it"
                        + " answers 503 (and may add a Retry-After) when its connection to the server broke after it passed the call"
                        + " on, so Rein does not send it again. It may or may not have taken effect; check before calling it again."
                        + advice);
            }
            if (status != null && status == 429) {
                String refused = "MCP server '" + config.name() + "' refused the call of tool '" + tool + "': "
                        + HttpRefusal.describe(status, said, retryAfter, noWait, config.secrets())
                        + ", so the tool was not run (a server answers HTTP " + status + " to a request it does not take now).";
                if (HttpRefusal.unreadable(retryAfter)) {
                    // No wait to give the retry policy: Rein's stand-in would be said as a number of seconds the server never sent.
                    return ToolOutput.error(refused + " Rein does not try it again; try again later, or use another tool.");
                }
                throw new RetryableToolException(refused, retryAfter > 0 ? Duration.ofMillis(retryAfter) : null);
            }
            Exception e = said == null && retryAfter == 0 && noWait == null ? failure : new HttpRefusal.Said(failure, said, retryAfter, noWait);
            boolean timedOut = failure.getCause() instanceof TimeoutException;
            String effect = handshakeFailed(e) ? " No TLS connection was made, so the call was not sent and the tool did not run."
                    : mayHaveEffect ? " It may or may not have taken effect; check before calling it again." : "";
            if (timedOut || failure.getCause() instanceof InterruptedException) {
                return givenUp(current, call, tool, timedOut, effect);
            }
            failed(current, describe(e));
            return ToolOutput.error("MCP server '" + config.name() + "' failed while running tool '" + tool + "': " + describe(e) + "."
                    + stderr.describe() + effect + (config.transport() instanceof McpServerConfig.Http
                    ? " Rein connects to it again at the next call." : " The server is restarted at the next call."));
        } finally {
            current.calls.ended(inFlight);
            current.transport.ended(call);
        }
    }

    /**
     * The result of a call given up on: it timed out ({@code timedOut}) or its caller stopped it (a run cancelled, the
     * executor's timeout). Only that call fails: the server, which may still be running it, is told to stop it
     * ({@code notifications/cancelled} with its request's id), and its session and the other calls on it are left alone
     * unless it also fails a ping ({@link Session#checkAlive}); a busy server is not a hung one, and restarting it lost
     * its state (server-memory's graph) and every call in flight beside this one.
     */
    private ToolOutput givenUp(Session current, CancellingTransport.Call call, String tool, boolean timedOut, String effect) {
        current.transport.cancel(call, timedOut ? "the call timed out" : "the call was stopped by its caller");
        current.checkAlive(timedOut ? "a call timed out" : "a call was stopped by its caller", pingTimeout);
        return ToolOutput.error((timedOut ? "MCP server '" + config.name() + "' did not answer tool '" + tool + "' in time."
                : "The call of tool '" + tool + "' on MCP server '" + config.name() + "' was stopped before its answer came (its run"
                + " was cancelled or its time ran out).") + " Rein stopped waiting for it and told the server to cancel it"
                + " (notifications/cancelled)." + effect + (timedOut ? HUNG_TOOL_ADVICE : ""));
    }

    /**
     * What helps with a tool that timed out: a server that answers ping is kept (MCP has a busy server kept), so one
     * that answers ping but never finishes a tool is never replaced, and each call of it waits its full time.
     */
    private static final String HUNG_TOOL_ADVICE = " A server that still answers Rein's ping is kept, even if it does not finish"
            + " this tool in time: if the tool needs longer, raise the server's \"timeout_seconds\"; if it hangs, restart that"
            + " server or set \"disabled\": true.";

    /** The result of a call answered with more than Rein reads ({@code tooLarge} says how much). */
    private ToolOutput answeredTooMuch(String tool, String tooLarge, boolean mayHaveEffect) {
        // The server answered, more than Rein reads: the session is not in doubt, the answer's size is.
        return ToolOutput.error("MCP server '" + config.name() + "' answered the call of tool '" + tool + "' with " + tooLarge
                + ", so the answer was not used." + (mayHaveEffect ? " It may have taken effect; check before calling it again." : "")
                + " Ask the tool for less (a narrower query, a smaller range or page), or use another tool.");
    }

    /**
     * A tool's declared output schema.
     *
     * @param schema the schema compiled, or null when the validator cannot use it (results are then
     *               required to carry structured content, but it is not checked)
     */
    public record DeclaredOutput(OutputSchema schema) {
        /**
         * Why a result cannot be used under this declaration, completing "answered the call of tool
         * T …"; null when it can. An error result needs no structured content.
         */
        String unusable(McpSchema.CallToolResult result) {
            if (Boolean.TRUE.equals(result.isError())) {
                return null;
            }
            if (result.structuredContent() == null) {
                // The tool promised structured results; the official SDKs reject an answer without one too.
                return "without the structured content its output schema promises";
            }
            List<String> problems = schema == null ? List.of()
                    : schema.problems(Json.mapper().<JsonNode>valueToTree(result.structuredContent()));
            // The protocol asks clients to check structured results against the tool's schema.
            return problems.isEmpty() ? null : "with structured content that does not match the tool's output schema ("
                    + String.join("; ", problems.subList(0, Math.min(3, problems.size()))) + ")";
        }
    }

    /**
     * Whether the listing request {@code id} was refused with 404 because the server no longer knows
     * the session (a 400 the SDK takes for that too is the refusal it is, said as such).
     */
    private static boolean sessionLost(CancellingTransport.Listing listing) {
        try {
            // The SDK fails the request just before it reports the refusal.
            return listing != null && listing.sessionLost().get(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    /**
     * Whether {@code failure} of {@code call} came from the server refusing its
     * request for a session it no longer knows (so the call was not run); a timeout, a
     * JSON-RPC error or any other failure is not.
     */
    private static boolean sessionLost(CancellingTransport.Call call, Exception failure, Instant deadline) {
        if (failure instanceof McpError || failure.getCause() instanceof TimeoutException
                || failure.getCause() instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
            return false;
        }
        Duration left = Duration.between(Instant.now(), deadline);
        Duration wait = left.compareTo(Duration.ofSeconds(1)) < 0 ? left : Duration.ofSeconds(1);
        return left.isPositive() && call.sessionLost(wait);
    }

    /**
     * The session to call, restarting a broken one when its backoff allows; null while waiting.
     * The restart runs on a thread of its own, for as long as a start may take, and calls wait for
     * it until their deadline: a server slower to start than a call may take (an npx package
     * fetched again) is still restarted and kept for the next call, where a restart bounded by the
     * call ended with it and the next call restarted it again, for ever. A server being checked
     * with ping after a call was given up on is waited for first: a hung one is restarted, not
     * given the call.
     *
     * @throws StillRestarting when the restart had not ended by {@code deadline}
     * @throws StillChecking when the check had not ended by {@code deadline}
     */
    private Session live(Instant deadline) throws IOException, InterruptedException {
        while (true) {
            CompletableFuture<Void> check = null;
            CompletableFuture<Session> pending;
            synchronized (this) {
                if (closed) {
                    throw new IOException("the agent's MCP connections were closed");
                }
                if (session != null && !session.broken.isDone()) {
                    if (session.calls.takeOverdue(Instant.now())) {
                        // A call timed out by the executor: the thread that made it may not have caught up yet (and
                        // checked the server), but a hung server must not get the next call.
                        session.checkAlive("a call timed out", pingTimeout);
                    }
                    check = session.checkUnderWay();
                    if (check == null) {
                        return session;
                    }
                }
                pending = check != null ? null : restartable();
                if (check == null && pending == null) {
                    return null;
                }
            }
            if (check == null) {
                return restarted(pending, deadline);
            }
            // A server being checked after a call was given up on gets the next call once it answered ping.
            try {
                check.get(Math.max(1, Duration.between(Instant.now(), deadline).toNanos()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                throw new StillChecking();
            } catch (ExecutionException e) {
                // the check does not fail: it breaks the session, seen on the next turn
            }
        }
    }

    /** Leaves a broken session and returns the restart to wait for; null while restarts are held back. Holds the lock. */
    private CompletableFuture<Session> restartable() {
        if (session != null) {
            lastFailure = session.broken.getNow("it stopped");
            Session left = session;
            leaving.add(left);
            left.discardInBackground(() -> leaving.remove(left)); // in doubt: a hung server would hold this call (and the lock) on its DELETE or cancellation
            session = null;
        }
        if (restarting == null) {
            if (Instant.now().isBefore(restartNotBefore)) {
                return null;
            }
            restarting = restart();
        }
        return restarting;
    }

    private Session restarted(CompletableFuture<Session> pending, Instant deadline) throws IOException, InterruptedException {
        try {
            return pending.get(Math.max(1, Duration.between(Instant.now(), deadline).toNanos()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new StillRestarting(lastFailure);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        }
    }

    /** A server still being checked with ping (after a call on it was given up on) when a call's time ended. */
    private static final class StillChecking extends IOException {
        StillChecking() {
            super("still checking the server with ping");
        }
    }

    /** A restart that had not ended when a call's time did; the message says why the server stopped. */
    private static final class StillRestarting extends IOException {
        StillRestarting(String reason) {
            super(reason);
        }
    }

    /** Starts the server again on a thread of its own; the future completes with the new session. Holds the lock. */
    private CompletableFuture<Session> restart() {
        startEnded.complete(null); // a connection called without start() (in tests) must not hold its refreshes for ever
        CompletableFuture<Session> restart = new CompletableFuture<>();
        Thread.ofVirtual().name("rein-mcp-restart-" + config.name()).start(() -> {
            Session opened;
            try {
                opened = connect();
            } catch (IOException | RuntimeException e) {
                synchronized (this) {
                    restarting = null;
                    restartFailure = describeConnect(e);
                    failedRestarts++;
                    long seconds = Math.min(MAX_BACKOFF.toSeconds(), 1L << Math.min(failedRestarts - 1, 5));
                    // RFC 9110 section 10.2.3: a Retry-After is how long to wait before the follow-up request; a restart
                    // before it passed is refused again. (No thread waits for it: it only holds the next restart back.)
                    // Held back at most LONGEST_RESTART_HOLD: a year asked, or a value too large to read, disabled the
                    // server for the process's life while its calls told the model to try again later.
                    long asked = retryAfterAskedIn(e);
                    long longest = LONGEST_RESTART_HOLD.toMillis();
                    restartWaitCut = asked <= longest ? null : HttpRefusal.unreadable(asked) ? "was too large to read"
                            : "asked for " + HttpRefusal.seconds(asked) + " s";
                    restartNotBefore = Instant.now().plusMillis(Math.max(seconds * 1000, Math.min(asked, longest)));
                }
                restart.completeExceptionally(e);
                return;
            }
            boolean kept;
            synchronized (this) {
                restarting = null;
                kept = !closed;
                if (kept) {
                    session = opened;
                    restartFailure = null;
                }
            }
            if (!kept) {
                opened.close();
                restart.completeExceptionally(new IOException("the agent's MCP connections were closed"));
                return;
            }
            refreshLater();
            restart.complete(opened);
        });
        return restart;
    }

    private synchronized void succeeded() {
        failedRestarts = 0;
        restartNotBefore = Instant.MIN;
        restartWaitCut = null;
    }

    /** The longest a {@code Retry-After} refusing a restart holds the next restart back. */
    static final Duration LONGEST_RESTART_HOLD = Duration.ofHours(1);
    /** {@link #LONGEST_RESTART_HOLD} as said, rounded up as the waits beside it are (toHours() cut 90 min to '1 h'). */
    private static final String LONGEST_RESTART_HOLD_SAID = LONGEST_RESTART_HOLD.toSeconds() % 3600 == 0
            ? LONGEST_RESTART_HOLD.toHours() + " h" : HttpRefusal.seconds(LONGEST_RESTART_HOLD.toMillis()) + " s";

    /** How the Retry-After that holds the next restart back was cut to {@link #LONGEST_RESTART_HOLD}; null when it was not. */
    private volatile String restartWaitCut;

    /** The wait, in milliseconds, a Retry-After refusing the restart's {@code initialize} asked for; 0 when none did. */
    private static long retryAfterAskedIn(Throwable failure) {
        for (Throwable e = failure; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof UnansweredInitialize unanswered && unanswered.retryAfterSeconds > 0) {
                // its stream's resumption was refused with a Retry-After past the time Rein waits for initialize
                return HttpRefusal.unreadable(unanswered.retryAfterSeconds * 1000) ? ResumingHttpClient.UNREADABLE_MILLIS
                        : unanswered.retryAfterSeconds * 1000;
            }
        }
        return HttpRefusal.retryAfterIn(failure);
    }

    /** A call that failed on the transport leaves the server in doubt: restart it next time. */
    private synchronized void failed(Session current, String reason) {
        current.breakWith(reason);
    }

    /** Waits for {@code future}, failing early when the session breaks. */
    private static <T> T await(Session current, CompletableFuture<T> future, Instant deadline) throws IOException {
        long nanos = Math.max(1, Duration.between(Instant.now(), deadline).toNanos());
        try {
            CompletableFuture.anyOf(future, current.broken).get(nanos, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new IOException("no answer in time", e);
        } catch (ExecutionException e) {
            // the future failed: reported below
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        if (!future.isDone()) {
            throw new IOException("it stopped: " + current.broken.getNow("unknown reason"));
        }
        try {
            return future.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (McpError.findRootCause(e) instanceof McpError error) {
                throw error;
            }
            if (e.getCause() instanceof McpError error) {
                throw error;
            }
            throw new IOException(McpError.aggregateExceptionMessages(e.getCause()), e.getCause());
        }
    }

    /**
     * The version a server answered {@code initialize} with when the SDK refused it as unsupported
     * (an {@link McpError} the SDK raises itself, its data naming the version); else null.
     */
    private static String unsupportedVersion(Throwable e) {
        // The SDK's own refusal has this data; a server refusing Rein's version sends the same message with its own.
        if (!(McpError.findRootCause(e) instanceof McpError error) || error.getJsonRpcError() == null
                || !(error.getJsonRpcError().data() instanceof String data) || !data.startsWith(SDK_REFUSAL)) {
            return null;
        }
        return data.substring(SDK_REFUSAL.length());
    }

    /** How the SDK words the data of its refusal of the version a server chose. */
    private static final String SDK_REFUSAL = "Unsupported protocol version from the server: ";

    /**
     * " (it supports V; Rein asked for R)" from the data of a server's version refusal (the protocol's example shape); else "".
     * Both are the server's text, masked before they are cut short, as the rest of what a server says is.
     */
    private String versions(Object data) {
        if (!(data instanceof Map<?, ?> map) || !(map.get("supported") instanceof List<?> supported)) {
            return "";
        }
        return " (it supports " + StdioTransport.abbreviate(mask(supported.stream().map(String::valueOf)
                .collect(java.util.stream.Collectors.joining(", "))))
                + (map.get("requested") instanceof String requested ? "; Rein asked for " + StdioTransport.abbreviate(mask(requested)) : "") + ")";
    }

    private static final String UNANSWERED_TEXT = "it ended its response without the answer, and without an event id to resume it"
            + " from (it may have crashed, or a proxy cut the connection)";

    /** What the unanswered request {@code what} ended so, completing "MCP server S …" or a start failure. */
    private static String unansweredText(McpError e, String what) {
        Integer status = noBody(e);
        Integer notResumed = notResumed(e);
        return notResumed != null ? "it " + notResumedText(e, what)
                : status != null ? "it " + noBodyText(status, what) : otherId(e) != null ? "it " + otherIdText(otherId(e), what)
                : UNANSWERED_TEXT + " to " + what;
    }

    /** Why the stream of {@code what}, closed before its answer, could not be resumed (see {@link #notResumed}). */
    private static String notResumedText(McpError e, String what) {
        int status = notResumed(e);
        boolean routeWithoutGet = Boolean.TRUE.equals(data(e, ResumingHttpClient.NO_GET));
        int attempts = data(e, ResumingHttpClient.ATTEMPTS) instanceof Number n ? n.intValue() : 0;
        long retryAfter = data(e, ResumingHttpClient.RETRY_AFTER) instanceof Number n ? n.longValue() : 0;
        String get = "the GET with Last-Event-ID that asks for the rest";
        if (attempts > 0) {
            // A passing error (5xx, 429, 408), tried again until the limit or the call's time ran out.
            return "ended its response to " + what + " before the answer, and could not resume it after " + attempts + " attempt"
                    + (attempts == 1 ? "" : "s") + " (last: HTTP " + status + " to " + get + (retryAfter > 0
                    ? (HttpRefusal.unreadable(retryAfter * 1000) ? "; it sent a Retry-After too large to read, which Rein took as a"
                    + " wait past " : "; it asked to be tried again only after " + retryAfter + " s, past ")
                    + (what.startsWith("the call") ? "the call's timeout" : "the time Rein waits for it") : "") + "), so the answer was lost";
        }
        return "ended its response to " + what + " before the answer, and " + (status == 0 ? "it could not be resumed: " + get
                + " failed 3 times in a row (the connection dropped or could not be made)" : "refused to resume it: it answered HTTP "
                + status + (status / 100 == 2 ? " without an event stream" : "") + " to " + get
                + (routeWithoutGet ? " (as it answers every GET: a route without GET)" : "")) + ", so the answer was lost"
                + (status == 401 ? " (" + HttpRefusal.describe(401, false) + ")" : "");
    }

    /**
     * The HTTP status the server refused the {@code GET} resuming a request's stream with (0 when
     * every reconnection failed), when that ended the request (Rein's own error); else null.
     */
    private static Integer notResumed(McpError e) {
        return data(e, ResumingHttpClient.NOT_RESUMED) instanceof Number status ? status.intValue() : null;
    }

    /** The value at {@code key} in the data of {@code e}'s JSON-RPC error; null when there is none. */
    private static Object data(McpError e, String key) {
        return e.getJsonRpcError() != null && e.getJsonRpcError().data() instanceof Map<?, ?> data ? data.get(key) : null;
    }

    private static String otherIdText(String otherId, String what) {
        return "answered " + what + " with the id " + StdioTransport.abbreviate(otherId) + ", not the id of the request, and ended its"
                + " response, so its answer never came (an answer carries the id of the request it answers)";
    }

    /** The id (as JSON) of an answer to another request that a request's response stream brought before it ended unanswered; else null. */
    private static String otherId(McpError e) {
        return e.getJsonRpcError() != null && e.getJsonRpcError().data() instanceof Map<?, ?> data
                && data.get(ResumingHttpClient.OTHER_ID) instanceof String id ? id : null;
    }

    private static String noBodyText(int status, String what) {
        return "answered " + what + " with HTTP " + status + " and no body, where a request is answered with JSON or an event stream,"
                + " so its answer would never come";
    }

    /** The HTTP status of an answer without a body that ended a request (Rein's own error); else null. */
    private static Integer noBody(McpError e) {
        return e.getJsonRpcError() != null && e.getJsonRpcError().data() instanceof Map<?, ?> data
                && data.get(ResumingHttpClient.NO_BODY) instanceof Number status ? status.intValue() : null;
    }

    /** True for the error Rein gives a request whose response stream ended unanswered (not one from the server). */
    private static boolean unanswered(McpError e) {
        return e.getJsonRpcError() != null && e.getJsonRpcError().data() instanceof Map<?, ?> data
                && Boolean.TRUE.equals(data.get(ResumingHttpClient.UNANSWERED));
    }

    private String jsonRpc(McpError e) {
        McpSchema.JSONRPCResponse.JSONRPCError error = e.getJsonRpcError();
        if (error == null) {
            return quoted(String.valueOf(e.getMessage()));
        }
        return "JSON-RPC error " + error.code() + ": " + quoted(String.valueOf(error.message()));
    }

    /**
     * The most characters (code points) of a server's JSON-RPC error that a message quotes: far more
     * than a message explaining a refusal needs, far less than a stack trace a server may send in it,
     * which filled the model's context (or the CLI's one-line error) and pushed Rein's advice after it
     * out of sight of the executor's truncation.
     */
    static final int MAX_QUOTED_CHARS = 1000;

    /**
     * A server's words as a message quotes them: its secrets masked, cut to its first
     * {@link #MAX_QUOTED_CHARS} characters saying so and how long it was, then its control characters
     * escaped ({@code \x1b}), so a caller printing or logging a call's error result does not pass on
     * the server's escape sequences (a retitle, a cleared screen, a bidi override).
     */
    private String quoted(String said) {
        return Quoted.of(mask(said), MAX_QUOTED_CHARS); // masked before the cut: a secret cut in two would no longer be found
    }

    /** Why a session could not be opened: an HTTP refusal of {@code initialize} says what to change. */
    private String describeConnect(Throwable e) {
        if (e instanceof RefusedInitialized) {
            return e.getMessage();
        }
        if (e instanceof UnansweredInitialize) {
            return mask(e.getMessage());
        }
        String refusal = HttpRefusal.describe(e, true, config.secrets());
        if (refusal != null) {
            return refusal;
        }
        String unreachable = unreachable(e);
        return unreachable != null ? unreachable : describe(e);
    }

    /**
     * Why an HTTP server could not be reached at all, in a person's words; null for other failures.
     * The SDK reports it as "RuntimeException: Client failed to initialize by explicit API call
     * Caused by: ConnectException ...". Only host and port are named: the URL may carry a token.
     */
    private String unreachable(Throwable e) {
        if (!(config.transport() instanceof McpServerConfig.Http http)) {
            return null;
        }
        String host = http.url().getHost();
        int port = http.url().getPort() >= 0 ? http.url().getPort() : "https".equals(http.url().getScheme()) ? 443 : 80;
        String tls = tls(e);
        if (tls != null && !handshakeFailed(e) && !tls.equals(PLAIN_TEXT)) {
            // The handshake succeeded (initialize may have been answered): the connection broke after it.
            return brokenTls(e);
        }
        if (tls != null) {
            return "the TLS handshake with " + host + ":" + port + " failed: " + tls;
        }
        boolean connect = false;
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof java.net.UnknownHostException || t instanceof java.nio.channels.UnresolvedAddressException) {
                return "the host '" + host + "' is not known (DNS found no address for it)";
            }
            if (t instanceof java.net.http.HttpConnectTimeoutException) {
                // Its cause is a ConnectException too, but something may have accepted: the wait covers the TLS handshake.
                return "no connection to " + host + ":" + port + " was made within 10 s (is the host reachable, or a firewall in the"
                        + " way?" + ("https".equalsIgnoreCase(http.url().getScheme()) ? " The TLS handshake counts too: does the server"
                        + " speak https at that port?" : "") + ")";
            }
            connect |= t instanceof java.net.ConnectException;
        }
        return connect ? "nothing accepted a connection at " + host + ":" + port + " (is the server running?)" : null;
    }

    /** What {@link #tls} says of a server that answered the TLS greeting in plain text (a JDK SSLException, not a handshake one). */
    private static final String PLAIN_TEXT = "it answered in plain text, not TLS; if the server serves plain HTTP, use an http:// URL";

    /**
     * Why the TLS handshake with an https server failed, in a person's words; null when {@code e}
     * holds no TLS failure. The JDK's words ("PKIX path building failed: ...") name its internals.
     */
    private static String tls(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (!(t instanceof javax.net.ssl.SSLException ssl)) {
                continue;
            }
            String message = String.valueOf(ssl.getMessage());
            String all = message;
            for (Throwable c = ssl.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
                all += " " + c.getMessage();
            }
            if (message.contains("plaintext connection") || message.contains("Unsupported or unrecognized SSL message")) {
                return PLAIN_TEXT;
            }
            if (all.contains("PKIX") || all.contains("certification path")) {
                return "its certificate is not trusted by this Java runtime (a self-signed one, or one from a CA of your own):"
                        + " add that CA to Java's trust store (the javax.net.ssl.trustStore system property)";
            }
            if (all.contains("No subject alternative") || all.contains("No name matching")) {
                return "its certificate is not for the host in the URL (" + StdioTransport.abbreviate(all) + ")";
            }
            return StdioTransport.abbreviate(all);
        }
        return null;
    }

    /**
     * Why the TLS connection of an exchange after the start failed, naming host and port and what
     * to check; null when {@code e} holds no TLS failure. The JDK reports a connection broken so as
     * "header parser received no bytes" over "SSLException: (bad_record_mac) Tag mismatch", which
     * read as the server having closed the connection.
     */
    private String brokenTls(Throwable e) {
        if (!(config.transport() instanceof McpServerConfig.Http http) || tls(e) == null) {
            return null;
        }
        String where = http.url().getHost() + ":" + (http.url().getPort() >= 0 ? http.url().getPort() : 443);
        boolean handshake = handshakeFailed(e);
        String all = "";
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof javax.net.ssl.SSLException && all.isEmpty()) {
                for (Throwable c = t; c != null && c != c.getCause(); c = c.getCause()) {
                    all += " " + c.getMessage();
                }
            }
        }
        if (handshake) {
            // A new connection of the session (the pooled one closed): the handshake at start succeeded.
            return "the TLS handshake with " + where + " failed on a new connection (it succeeded when the session began; has the"
                    + " server's certificate or TLS setup changed?): " + tls(e);
        }
        java.util.regex.Matcher alert = java.util.regex.Pattern.compile("Received fatal alert: (\\w+)").matcher(all);
        String why = all.contains("bad_record_mac") || all.contains("Tag mismatch") || all.contains("bad record MAC")
                ? "a record could not be decrypted: it was damaged or altered on its way"
                : all.contains("plaintext connection") || all.contains("Unsupported or unrecognized SSL message")
                ? "data that is not TLS arrived on it"
                : alert.find() ? "the other end ended it with the TLS alert '" + alert.group(1) + "'"
                : StdioTransport.abbreviate(all.strip());
        return "the TLS connection with " + where + " broke during the exchange (" + why + "); check the network path to the"
                + " server (a proxy, load balancer or VPN between Rein and it) and the server's TLS setup";
    }

    /** Whether {@code e} is the failed TLS handshake of a new connection: nothing was sent on it. */
    private boolean handshakeFailed(Throwable e) {
        if (!(config.transport() instanceof McpServerConfig.Http)) {
            return false;
        }
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof javax.net.ssl.SSLHandshakeException) {
                return true;
            }
        }
        return false;
    }

    /** How the SDK's HTTP transport and Rein's stdio reader say that one message was larger than they read. */
    private static final java.util.regex.Pattern TOO_LARGE = java.util.regex.Pattern.compile(
            "exceeds the maximum allowed size of (\\d+) bytes|message longer than (\\d+) bytes");

    /** "more than N MB, the most Rein reads of one message" when {@code e} says a message was too large; else null. */
    private static String tooLarge(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            java.util.regex.Matcher matcher = t.getMessage() == null ? null : TOO_LARGE.matcher(t.getMessage());
            if (matcher != null && matcher.find()) {
                long limit = Long.parseLong(matcher.group(1) != null ? matcher.group(1) : matcher.group(2));
                return "more than " + limit / (1024 * 1024) + " MB, the most Rein reads of one message";
            }
        }
        return null;
    }

    private String mask(String text) {
        return dev.rein.tool.Secrets.mask(text, config.secrets());
    }

    private String describe(Throwable e) {
        if (e instanceof RefusedListing listing && listing.ownWords || e instanceof BadAnswer answer && answer.bounded
                || e instanceof RefusedInitialize) {
            // Its quote of the server is already cut to its bound saying so: cut at 200 again, the rest (the versions a
            // server supports, which a long message pushed out) was lost without a word.
            return e.getMessage();
        }
        String tooLarge = tooLarge(e);
        if (tooLarge != null) {
            return "it sent an answer of " + tooLarge + " (ask the tool for less: a narrower query, a smaller range or page)";
        }
        if (e instanceof McpError error) {
            return unanswered(error) ? (noBody(error) != null || otherId(error) != null || notResumed(error) != null
                    ? unansweredText(error, "the request")
                    : UNANSWERED_TEXT) : jsonRpc(error);
        }
        String refusal = HttpRefusal.describe(e, false, config.secrets());
        if (refusal != null) {
            return refusal;
        }
        String tls = brokenTls(e);
        if (tls != null) {
            return tls;
        }
        if (connectionClosed(e)) {
            return "the connection closed before its answer came (the server may have crashed or been stopped, or a proxy cut the"
                    + " connection)";
        }
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        // Masked before it is cut short, so no part of a secret is left.
        return StdioTransport.abbreviate(dev.rein.tool.Secrets.mask(message, config.secrets()));
    }

    /**
     * Whether an HTTP exchange failed because the connection closed before any answer (the JDK's
     * "HTTP/1.1 header parser received no bytes" over an EOFException, or a reset), which its
     * Java exception names would not tell a person or a model.
     */
    private boolean connectionClosed(Throwable e) {
        if (!(config.transport() instanceof McpServerConfig.Http)) {
            return false;
        }
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String message = t.getMessage() == null ? "" : t.getMessage().toLowerCase(java.util.Locale.ROOT);
            if (t instanceof java.io.EOFException || t instanceof IOException && (message.contains("received no bytes")
                    || message.contains("connection reset") || message.contains("connection closed"))) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code e} was caused by a session id the transports spec forbids: the server answered, so its URL is right. */
    private static boolean badSessionId(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof ResumingHttpClient.BadSessionId) {
                return true;
            }
        }
        return false;
    }

    /**
     * The advice of a start refused with a {@code Retry-After} ({@code retryAfterMillis}; 0 when it asked for no wait or a 503
     * or 429 had none): the server answered, so neither its URL nor its headers are in doubt.
     */
    private static String retryLater(long retryAfterMillis) {
        // a Retry-After too large to read gave no time to wait for: "once that time has passed" named one that never comes
        return " The server answered (its URL is right), but is not taking requests now: start again "
                + (retryAfterMillis <= 0 ? "later" : HttpRefusal.unreadable(retryAfterMillis) ? "once it takes requests"
                : "once that time has passed") + ", or set \"disabled\": true.";
    }

    private String hint() {
        if (config.transport() instanceof McpServerConfig.Stdio stdio && OsProcess.missingDirectory(stdio) != null) {
            return ""; // the message already says to create the directory or correct "cwd"
        }
        if (config.transport() instanceof McpServerConfig.Stdio stdio && stdio.command().strip().contains(" ")
                && !java.nio.file.Files.exists(java.nio.file.Path.of(stdio.command()))) {
            // A whole command line copied into "command" runs from a shell, so that advice would not help.
            return " \"command\" holds spaces, and Rein starts it as one program's name, not through a shell: put the program in"
                    + " \"command\" (\"" + stdio.command().strip().split("\\s+")[0] + "\") and each argument in \"args\".";
        }
        return config.transport() instanceof McpServerConfig.Stdio stdio
                ? " Check that '" + stdio.command() + "' runs from a shell with the same arguments."
                : " Check that the URL is reachable and the headers are right.";
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }

    @Override
    public synchronized void close() {
        closed = true;
        for (Session left : leaving) {
            left.endNow(); // a server left in doubt is not left running when the agent's connections close (or the JVM exits)
        }
        if (session != null) {
            session.close();
            session = null;
        }
        if (starting != null) {
            // A restart under way: its process is ended now, not when its initialize would have been answered.
            starting.close();
            starting = null;
        }
    }
}
