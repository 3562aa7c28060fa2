package dev.rein.mcp;

import dev.rein.mcp.internal.OsProcess;
import dev.rein.mcp.internal.ServerConnection;
import dev.rein.mcp.internal.ServerProcess;
import dev.rein.mcp.internal.ToolAdapter;
import dev.rein.security.UntrustedData;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolSource;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The tools of a set of MCP servers as Rein {@link Tool}s, and a {@link ToolSource}: give the toolset
 * to {@code Agent.Builder.toolSource} and every run offers the servers' current tools at each model
 * request, also after a server announces a new list ({@code notifications/tools/list_changed}). Each
 * call passes the same executor gate as a native tool (schema, scopes, approval, idempotency,
 * timeout, truncation, provenance, untrusted-data wrapping). Close the toolset when the agent is
 * done: it ends every server process it started (a JVM shutdown hook does so too, as a last resort).
 *
 * <pre>{@code
 * try (McpToolset mcp = McpToolset.start(McpConfig.load(Path.of("servers.json"), System.getenv()))) {
 *     Agent agent = Agent.builder().model(model).toolSource(mcp).secrets(Secrets.of(mcp.secrets())).build();
 *     agent.run("...");
 * }
 * }</pre>
 */
public final class McpToolset implements ToolSource, AutoCloseable {
    private final List<ServerConnection> connections;
    /** The current tools by Rein name, updated when a server's tool list changes. */
    private final Map<String, ToolAdapter.Adapted> current = Collections.synchronizedMap(new LinkedHashMap<>());
    /** Which server's tool each Rein name stands for. */
    private final Map<String, Owner> owner = new ConcurrentHashMap<>();
    /** Counts the tool-list changes taken up; raised after {@link #current} is complete again. */
    private final AtomicLong version = new AtomicLong();
    private final Map<String, String> secrets;
    private final Thread shutdownHook;
    /** False until every server's start listing is taken up (guarded by this). */
    private boolean started;
    /**
     * Tool lists a server sent again (list_changed) while other servers were still starting, by
     * server: newer than its start listing, so taken up after it (guarded by this).
     */
    private final Map<McpServerConfig, List<McpSchema.Tool>> early = new LinkedHashMap<>();
    /**
     * The risk each tool was last offered with, kept after the server drops it: annotations are hints from
     * a server that may not be trusted (the MCP spec says so), so listing a tool again, also after dropping it
     * or after a restart, never makes it looser than this unless the server has {@code trust} (guarded by this).
     */
    private final Map<Owner, Risk> offered = new LinkedHashMap<>();
    /**
     * The strictest risk each Rein name was offered with and the tool that had it last: the model, the trace and
     * {@link #describe()} know a tool by its Rein name, so a tool of an untrusted server that later takes a name
     * (another MCP name made equal by Rein's name rules, or another server's tool once the first dropped it) is
     * never looser than what had the name (guarded by this).
     */
    private final Map<String, Risk> offeredByName = new LinkedHashMap<>();
    private final Map<String, Owner> lastOwner = new LinkedHashMap<>();
    /**
     * A bound on {@link #offered} and {@link #offeredByName}, so a server cannot fill memory with names. Nothing
     * remembered is forgotten; past the bound a tool of an untrusted server that is not remembered is offered as
     * {@link Risk#IRREVERSIBLE}, as what it is not remembered as might have been.
     */
    static final int MAX_REMEMBERED = 10_000;
    /** {@link #MAX_REMEMBERED}, lower in a test (guarded by this). */
    private int rememberedAtMost = MAX_REMEMBERED;
    /** The warnings already given (loosenings refused, Rein names changing owner): each is said once (guarded by this). */
    private final java.util.Set<String> loosenings = new java.util.HashSet<>();
    /** A bound on {@link #loosenings}: a server cannot fill memory with them. */
    private static final int MAX_LOOSENINGS_SAID = 1_000;
    /** How much of a server's tool or server name a warning quotes. */
    private static final int MAX_NAME_QUOTED = 200;
    /** Where warnings go: the log (logger {@code dev.rein.mcp}), or a test's list. */
    private final java.util.function.Consumer<String> warn;

    private McpToolset(List<ServerConnection> connections, Map<String, String> secrets, java.util.function.Consumer<String> warn) {
        this.connections = connections;
        this.secrets = secrets;
        this.warn = warn;
        this.shutdownHook = Thread.ofPlatform().unstarted(this::closeConnections);
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /**
     * Starts every server of {@code config} (in parallel) and lists their tools.
     *
     * @throws McpConfigException when a server cannot be started, its tools cannot be used, or two
     *                            servers offer the same tool name; every server started is ended again
     */
    public static McpToolset start(McpConfig config) {
        return start(config, OsProcess.launcher());
    }

    static McpToolset start(McpConfig config, ServerProcess.Launcher launcher) {
        return start(config, launcher, org.slf4j.LoggerFactory.getLogger("dev.rein.mcp")::warn);
    }

    /** As {@link #start(McpConfig, ServerProcess.Launcher)}, with the toolset's own warnings to {@code warn} (for tests). */
    static McpToolset start(McpConfig config, ServerProcess.Launcher launcher, java.util.function.Consumer<String> warn) {
        return start(config, launcher, warn, null);
    }

    /**
     * As {@link #start(McpConfig, ServerProcess.Launcher)}, with {@code pingTimeout} (not 5 s) for a server to answer ping
     * after a call on it was given up on (for tests, so a fake that never answers does not hold each test for 5 s).
     */
    static McpToolset start(McpConfig config, ServerProcess.Launcher launcher, java.time.Duration pingTimeout) {
        return start(config, launcher, org.slf4j.LoggerFactory.getLogger("dev.rein.mcp")::warn, pingTimeout);
    }

    private static McpToolset start(McpConfig config, ServerProcess.Launcher launcher, java.util.function.Consumer<String> warn,
                                    java.time.Duration pingTimeout) {
        // The SDK's own DEBUG lines hold what servers send unmasked: said once, when the application has them on.
        dev.rein.mcp.internal.SdkLogging.warnOnce();
        McpJsonMapper mapper = McpJsonDefaults.getMapper();
        Map<String, String> secrets = new LinkedHashMap<>();
        config.servers().forEach(server -> secrets.putAll(server.secrets()));
        List<ServerConnection> connections = new ArrayList<>();
        McpToolset toolset = new McpToolset(connections, Map.copyOf(secrets), warn);
        try {
            for (McpServerConfig server : config.servers()) {
                ServerConnection connection = new ServerConnection(server, launcher, mapper, tools -> toolset.refresh(server, tools));
                connections.add(pingTimeout == null ? connection : connection.pingTimeout(pingTimeout));
            }
            toolset.startAll();
            return toolset;
        } catch (RuntimeException e) {
            toolset.close();
            throw e;
        }
    }

    private void startAll() {
        Map<ServerConnection, List<McpSchema.Tool>> listed = new LinkedHashMap<>();
        List<String> failures = new ArrayList<>();
        try (ExecutorService starter = Executors.newVirtualThreadPerTaskExecutor()) {
            Map<ServerConnection, Future<List<McpSchema.Tool>>> started = new LinkedHashMap<>();
            connections.forEach(c -> started.put(c, starter.submit(c::start)));
            for (var entry : started.entrySet()) {
                try {
                    listed.put(entry.getKey(), entry.getValue().get());
                } catch (ExecutionException e) {
                    failures.add(e.getCause().getMessage());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new McpConfigException("interrupted while starting the MCP servers");
                }
            }
        }
        if (!failures.isEmpty()) {
            throw new McpConfigException(String.join(" ", failures));
        }
        synchronized (this) {
            listed.forEach((connection, tools) -> adoptAll(connection, tools, true));
            started = true;
            early.forEach(this::refresh);
            early.clear();
        }
    }

    /** Adapts a server's tool list; at start every problem is a configuration error. */
    private void adoptAll(ServerConnection connection, List<McpSchema.Tool> tools, boolean strict) {
        McpServerConfig server = connection.config();
        if (strict) {
            checkWellFormed(server, tools);
        }
        checkNamesExist(server, tools, strict);
        java.util.Set<String> ambiguous = ambiguous(server, tools, strict);
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (McpSchema.Tool tool : tools) {
            if (ToolAdapter.malformed(tool) != null || ambiguous.contains(tool.name()) || !seen.add(tool.name())) {
                continue; // denied or announced later, as a tool Rein cannot use; or listed twice alike (one is kept)
            }
            if (!server.offers(tool.name()) || connection.requiresTask(tool.name())) {
                continue; // denied, or callable only as a task, which Rein does not do (a plain call is refused with -32601)
            }
            String name = ToolAdapter.reinName(server, tool.name());
            Owner mine = new Owner(server.name(), tool.name());
            Owner other = owner.putIfAbsent(name, mine);
            if (other != null && !other.equals(mine)) {
                if (strict) {
                    throw clash(name, other, mine);
                }
                continue; // announced later: left out, the tool that had the name keeps it
            }
            try {
                Risk atLeast = strict || server.trust() ? null : atLeast(mine, name);
                if (!strict) {
                    warnOfKept(connection, tool, mine, name, atLeast);
                }
                ToolAdapter.Adapted adapted = ToolAdapter.adapt(server, connection, tool, strict, this::offeredNow, atLeast);
                current.put(name, adapted);
                remember(mine, name, adapted.info().risk());
            } catch (McpConfigException e) {
                if (strict) {
                    throw e;
                }
                owner.remove(name, mine); // a tool Rein cannot use, announced later: left out, not fatal
            }
        }
    }

    /**
     * Warns (once each) that {@code tool}'s Rein name {@code name} now comes from another tool than before, saying it is
     * kept at least {@code atLeast} only when that is stricter than the tool is listed with; and, for an untrusted server
     * ({@code atLeast} not null), that its listing would loosen it, only when it is listed looser than this server's tool
     * was offered with before (a name taken back, or taken from another tool, is no loosening of the server's own
     * listing: the owner change says what is kept).
     */
    private void warnOfKept(ServerConnection connection, McpSchema.Tool tool, Owner mine, String name, Risk atLeast) {
        McpServerConfig server = connection.config();
        Risk listed = ToolAdapter.risk(server, tool, false);
        Owner before = lastOwner.get(name);
        if (before != null && !before.equals(mine)) {
            warnOnce("owner:" + name + ":" + before + ">" + mine, "Rein tool '" + quote(name) + "' now comes from MCP server '"
                    + quote(mine.server()) + "' (its tool '" + quote(mine.mcpName()) + "'), no longer from server '"
                    + quote(before.server()) + "' (its tool '" + quote(before.mcpName()) + "')"
                    + (atLeast != null && McpRisk.stricter(atLeast, listed)
                            ? "; it is kept at least " + lower(atLeast) + ", the risk the name was offered with" : ""));
        }
        Risk ownBefore = atLeast == null ? null : offered.get(mine);
        if (ownBefore != null && McpRisk.stricter(ownBefore, listed)) {
            warnOnce(mine + ":" + ownBefore + ">" + listed, "MCP server '" + quote(server.name()) + "' listed tool '"
                    + quote(tool.name()) + "'" + (name.equals(tool.name()) ? "" : " (Rein tool '" + quote(name) + "')")
                    + " again with annotations that would make it " + lower(listed) + " rather than " + lower(ownBefore)
                    + ", the risk it was offered with; a server without \"trust\": true cannot loosen a tool it has offered, so"
                    + " Rein keeps it " + lower(atLeast) + " for as long as this toolset runs (a new start takes the tool as then"
                    + " listed; set \"trust\": true only for a server whose annotations you rely on)");
        }
    }

    /**
     * The least risk a tool of an untrusted server may get on a listing again: the strictest its own MCP name and
     * its Rein name were offered with; past {@link #MAX_REMEMBERED}, {@link Risk#IRREVERSIBLE} for one not remembered.
     */
    private Risk atLeast(Owner mine, String name) {
        Risk byTool = offered.get(mine);
        Risk byName = offeredByName.get(name);
        Risk least = byTool == null ? byName : byName == null ? byTool : McpRisk.max(byTool, byName);
        if ((byTool == null || byName == null) && full()) {
            return Risk.IRREVERSIBLE; // what is not remembered may have been offered as anything
        }
        return least;
    }

    private boolean full() {
        return offered.size() >= rememberedAtMost || offeredByName.size() >= rememberedAtMost;
    }

    /** Lowers {@link #MAX_REMEMBERED} for this toolset (for tests). */
    synchronized void rememberAtMost(int limit) {
        rememberedAtMost = limit;
    }

    /** Remembers the risk a tool is offered with under its MCP name and its Rein name, strictest kept, within the bound. */
    private void remember(Owner mine, String name, Risk risk) {
        if (offered.containsKey(mine) || offered.size() < rememberedAtMost) {
            offered.merge(mine, risk, (a, b) -> b); // already at least as strict as before (atLeast), or its trusted server's word
        }
        if (offeredByName.containsKey(name) || offeredByName.size() < rememberedAtMost) {
            offeredByName.merge(name, risk, McpRisk::max);
            lastOwner.put(name, mine);
        }
    }

    private void warnOnce(String key, String message) {
        if (loosenings.size() < MAX_LOOSENINGS_SAID && loosenings.add(key)) {
            warn.accept(message);
        }
    }

    /** A server's name or a tool's as a warning quotes it: control characters escaped, cut to {@link #MAX_NAME_QUOTED}. */
    private static String quote(String said) {
        return dev.rein.mcp.internal.Quoted.of(said, MAX_NAME_QUOTED);
    }

    private static String lower(Risk risk) {
        return risk.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The tool of {@code server} named {@code mcpName} by the server. */
    private record Owner(String server, String mcpName) {}

    /** Two tools would get the same Rein name: which they are and what to do. */
    private static McpConfigException clash(String name, Owner first, Owner second) {
        if (!first.server().equals(second.server())) {
            return new McpConfigException("MCP servers '" + first.server() + "' and '" + second.server() + "' both offer a tool named '"
                    + name + "'; give one of them a \"prefix\" (e.g. \"prefix\": \"" + dev.rein.mcp.internal.ConfigParser.suggestedPrefix(second.server())
                    + "\") or add the tool to its \"deny\" list");
        }
        // Two names the server tells apart, made equal by Rein's name rules: calling one must never reach the other.
        return new McpConfigException("MCP server '" + first.server() + "' offers tools '" + first.mcpName() + "' and '" + second.mcpName()
                + "', which both become '" + name + "' as Rein tool names (ASCII characters other than letters, digits, '_' and '-'"
                + " are replaced by '_'); add one of them to its \"deny\" list");
    }

    /**
     * At start, a tool entry with a field of the wrong type is refused naming the tool and the
     * field, unless the tool is denied; one without a name cannot be denied, so only the server
     * can be fixed or left out.
     */
    private static void checkWellFormed(McpServerConfig server, List<McpSchema.Tool> tools) {
        for (McpSchema.Tool tool : tools) {
            String problem = ToolAdapter.malformed(tool);
            if (problem == null) {
                continue;
            }
            if (tool.name() == null || tool.name().isEmpty()) {
                throw new McpConfigException("MCP server '" + server.name() + "' lists " + problem + "; Rein cannot offer, call or"
                        + " deny a tool without a name: have the server fixed, or set \"disabled\": true to leave it out");
            }
            if (server.offers(tool.name())) {
                throw new McpConfigException("MCP server '" + server.name() + "' lists tool '" + tool.name() + "' with " + problem
                        + ", so Rein cannot use it; add it to \"deny\" to leave it out, or have the server fixed");
            }
        }
    }

    /**
     * The names the server lists for two different tools. A call names only the tool, so which of
     * them would run is the server's choice, while Rein would gate it by one of the two (say the
     * read-only one): at start such a name is refused unless denied; later both are left out. A
     * tool listed twice alike (a list that shifted between pages) is only one tool.
     */
    private static java.util.Set<String> ambiguous(McpServerConfig server, List<McpSchema.Tool> tools, boolean strict) {
        Map<String, McpSchema.Tool> first = new LinkedHashMap<>();
        java.util.Set<String> ambiguous = new java.util.LinkedHashSet<>();
        for (McpSchema.Tool tool : tools) {
            if (ToolAdapter.malformed(tool) != null) {
                continue;
            }
            McpSchema.Tool earlier = first.putIfAbsent(tool.name(), tool);
            if (earlier != null && !earlier.equals(tool)) {
                ambiguous.add(tool.name());
            }
        }
        for (String name : ambiguous) {
            if (strict && server.offers(name)) {
                throw new McpConfigException("MCP server '" + server.name() + "' lists two different tools named '" + name + "'; a call"
                        + " names only the tool, so Rein cannot tell which of them would run, nor gate it by the right one's"
                        + " annotations; add '" + name + "' to \"deny\" to leave both out, or have the server fixed");
            }
        }
        return ambiguous;
    }

    private static void checkNamesExist(McpServerConfig server, List<McpSchema.Tool> tools, boolean strict) {
        if (!strict) {
            return;
        }
        List<String> offered = tools.stream().map(McpSchema.Tool::name).toList();
        List<String> named = new ArrayList<>(server.allow());
        named.addAll(server.deny());
        named.addAll(server.toolRisk().keySet());
        for (String name : named) {
            if (!offered.contains(name)) {
                throw new McpConfigException("MCP server '" + server.name() + "' has no tool named '" + name + "' (named in its"
                        + " \"allow\", \"deny\" or \"risk\"); it offers: " + String.join(", ", offered));
            }
        }
    }

    /**
     * A server's tool list changed: tools it dropped are refused from now on; new and changed ones
     * join {@link #tools()}, and {@link #version()} moves so running agents take the new list up.
     */
    private synchronized void refresh(McpServerConfig server, List<McpSchema.Tool> tools) {
        if (!started) {
            // Adopted now, the start listing taken up after it would undo it (a tool made stricter would be loose again).
            early.put(server, tools);
            return;
        }
        ServerConnection connection = connections.stream().filter(c -> c.config() == server).findFirst().orElseThrow();
        // One step for a call that looks its tool up meanwhile (offeredNow): the old list or the new, never
        // the moment between, when a tool both lists offer would look dropped.
        synchronized (current) {
            owner.entrySet().removeIf(e -> {
                boolean mine = e.getValue().server().equals(server.name());
                if (mine) {
                    current.remove(e.getKey());
                }
                return mine;
            });
            adoptAll(connection, tools, false);
        }
        version.incrementAndGet();
    }

    /** Changes each time a server's new tool list has been taken up. */
    @Override
    public long version() {
        return version.get();
    }

    private Optional<McpToolInfo> offeredNow(String name) {
        ToolAdapter.Adapted adapted = current.get(name);
        return adapted == null ? Optional.empty() : Optional.of(adapted.info());
    }

    /** The tools offered now, in server order then the servers' order. */
    @Override
    public List<Tool> tools() {
        return adapted().stream().map(ToolAdapter.Adapted::tool).toList();
    }

    /** What Rein made of each tool offered now. */
    public List<McpToolInfo> describe() {
        return adapted().stream().map(ToolAdapter.Adapted::info).toList();
    }

    private List<ToolAdapter.Adapted> adapted() {
        List<ToolAdapter.Adapted> all;
        synchronized (current) {
            all = List.copyOf(current.values());
        }
        List<ToolAdapter.Adapted> result = new ArrayList<>();
        for (ServerConnection connection : connections) {
            all.stream().filter(a -> a.info().server().equals(connection.config().name())).forEach(result::add);
        }
        return result;
    }

    /**
     * The {@code instructions} each server gave in its {@code initialize} answer (how to use its
     * tools), by server name in the file's order; servers that gave none are left out. Each is read
     * when called, from the server's current session (after a restart, or the new session opened
     * when an HTTP server forgot its own, that session's). Secrets are masked. Each is the whole
     * text the server gave, however long: {@link #instructionsPrompt()} bounds what goes into a
     * prompt. Rein adds none of this to a model's context: it is the server's text, to be read
     * as untrusted data like its results. To give it to the model, see {@link #instructionsPrompt()}.
     */
    public Map<String, String> instructions() {
        Map<String, String> all = new LinkedHashMap<>();
        for (ServerConnection connection : connections) {
            String text = connection.instructions();
            if (text != null) {
                all.put(connection.config().name(), text);
            }
        }
        return Collections.unmodifiableMap(all);
    }

    /**
     * The most characters (Unicode code points) of one server's instructions that
     * {@link #instructionsPrompt()} puts in its block: some 2,000 tokens, ample for notes on how to
     * use a server's tools, while a server cannot fill every run's system prompt (and its cost)
     * with text of its own. Longer instructions are cut there, never silently: see
     * {@link #instructionsPrompt(int)}.
     */
    public static final int MAX_INSTRUCTIONS_CHARS = 8_000;

    /**
     * The servers' {@link #instructions()} as a block to add to the agent's system prompt, each
     * server's text wrapped as untrusted data ({@code <untrusted_data source="mcp:NAME" ...>}) so
     * it reads as data, never as instructions that outrank the prompt's own; {@code ""} when no
     * server gave any. Each server's text is bounded by {@link #MAX_INSTRUCTIONS_CHARS}, as
     * {@link #instructionsPrompt(int)} says. Opt-in: call it and add the block yourself
     * ({@code .systemPrompt(mine + "\n\n" + mcp.instructionsPrompt())}). What the text says
     * changes nothing Rein does: risk, approval and scopes are decided as without it.
     */
    public String instructionsPrompt() {
        return instructionsPrompt(MAX_INSTRUCTIONS_CHARS);
    }

    /**
     * As {@link #instructionsPrompt()}, with at most {@code maxCharsPerServer} characters (Unicode
     * code points, so no character is split) of each server's instructions. Longer instructions
     * are cut there, and the server's block is followed by a line of Rein's own, outside the
     * untrusted data, saying so: {@code [Rein cut the instructions of MCP server 'NAME' to their
     * first 8000 of 12345 characters.]}. The whole text stays available from {@link #instructions()}.
     *
     * @throws IllegalArgumentException when {@code maxCharsPerServer} is less than 1
     */
    public String instructionsPrompt(int maxCharsPerServer) {
        return instructionsBlock(maxCharsPerServer).text();
    }

    /**
     * The block {@link #instructionsPrompt()} gives, with which servers' instructions were cut in it:
     * for a caller that also tells its user (the CLI warns), from the same reading of the servers.
     */
    public InstructionsBlock instructionsBlock() {
        return instructionsBlock(MAX_INSTRUCTIONS_CHARS);
    }

    /**
     * The block {@link #instructionsPrompt(int)} gives, with which servers' instructions were cut in it.
     *
     * @throws IllegalArgumentException when {@code maxCharsPerServer} is less than 1
     */
    public InstructionsBlock instructionsBlock(int maxCharsPerServer) {
        if (maxCharsPerServer < 1) {
            throw new IllegalArgumentException("maxCharsPerServer must be at least 1, was " + maxCharsPerServer
                    + "; to leave the instructions out, do not add the block");
        }
        Map<String, String> all = instructions();
        if (all.isEmpty()) {
            return new InstructionsBlock("", maxCharsPerServer, Map.of());
        }
        StringBuilder block = new StringBuilder("Notes the MCP servers give on how to use their tools (each server's own text,"
                + " untrusted data):");
        Map<String, Integer> cut = new LinkedHashMap<>();
        all.forEach((server, text) -> {
            int length = text.codePointCount(0, text.length());
            String kept = length <= maxCharsPerServer ? text : text.substring(0, text.offsetByCodePoints(0, maxCharsPerServer));
            block.append("\n\n").append(UntrustedData.wrapRetrieved(kept, "mcp:" + server));
            if (length > maxCharsPerServer) {
                cut.put(server, length);
                block.append("\n[Rein cut the instructions of MCP server '").append(server).append("' to their first ")
                        .append(maxCharsPerServer).append(" of ").append(length).append(" characters.]");
            }
        });
        return new InstructionsBlock(block.toString(), maxCharsPerServer, cut);
    }

    /**
     * The servers' instructions as a block for a system prompt, and which were cut in it.
     *
     * @param text              the block, as {@link #instructionsPrompt(int)} gives it; {@code ""} when no server gave any
     * @param maxCharsPerServer the most characters of one server's instructions the block holds
     * @param cut               the servers whose instructions were longer, so cut, each with their whole length in
     *                          characters (Unicode code points), in the file's order; empty when none was cut
     *                          ({@code null} is taken as empty)
     * @throws NullPointerException     when {@code text} is null, or {@code cut} holds a null server or length
     * @throws IllegalArgumentException when {@code maxCharsPerServer} is less than 1
     */
    public record InstructionsBlock(String text, int maxCharsPerServer, Map<String, Integer> cut) {
        public InstructionsBlock {
            java.util.Objects.requireNonNull(text, "text must not be null; give \"\" when no server gave instructions");
            if (maxCharsPerServer < 1) {
                throw new IllegalArgumentException("maxCharsPerServer must be at least 1, was " + maxCharsPerServer);
            }
            // A copy keeping the order (Map.copyOf would not); none cut may be given as null, as elsewhere in Rein.
            Map<String, Integer> copy = new LinkedHashMap<>();
            if (cut != null) {
                cut.forEach((server, length) -> {
                    if (server == null || length == null) {
                        throw new NullPointerException("cut must not hold a null server or length, was " + server + "=" + length);
                    }
                    copy.put(server, length);
                });
            }
            cut = Collections.unmodifiableMap(copy);
        }
    }

    /**
     * Values to mask wherever they could appear (HTTP header values and the variables substituted
     * into headers and environments), by name: hand them to the agent with {@code Secrets.of(...)}.
     */
    public Map<String, String> secrets() {
        return secrets;
    }

    /** Ends every server; idempotent. */
    @Override
    public void close() {
        closeConnections();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
            // the JVM is already shutting down and runs the hook itself
        }
    }

    private void closeConnections() {
        // In parallel: each server gets a grace period to exit before it is killed.
        try (ExecutorService closer = Executors.newVirtualThreadPerTaskExecutor()) {
            connections.forEach(c -> closer.submit(c::close));
        }
    }
}
