package dev.rein.mcp.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.rein.ReinException;
import dev.rein.json.Json;
import dev.rein.mcp.McpConfigException;
import dev.rein.mcp.McpRisk;
import dev.rein.mcp.McpServerConfig;
import dev.rein.mcp.McpToolInfo;
import dev.rein.model.OutputSchema;
import dev.rein.tool.Risk;
import dev.rein.tool.Secrets;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolOutput;
import dev.rein.tool.ToolRegistry;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** Maps one MCP tool to a Rein tool: its name, description, schema, risk, scope and timeout. */
public final class ToolAdapter {
    /** The {@code _meta} key carrying the call's idempotency key to the server. */
    public static final String IDEMPOTENCY_META = "dev.rein/idempotency-key";
    private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

    private ToolAdapter() {}

    /** One adapted tool: what it is and the Rein tool calling it. */
    public record Adapted(McpToolInfo info, Tool tool) {}

    /**
     * What is wrong with {@code tool} as the server listed it (a field of the wrong type, no
     * name), completing "lists tool T with …" or, for a tool without a name, "lists …"; null
     * when it is well-formed.
     */
    public static String malformed(McpSchema.Tool tool) {
        return Malformed.of(tool.meta());
    }

    /**
     * The Rein name of a server's tool: the prefix, then the name with characters Rein does not allow
     * replaced. A name that would lose more than punctuation so (letters of another script, or
     * characters past the 64 model APIs take) ends in a hash of the server's name for it instead, so
     * '検索' and '翻訳', or two long names alike in their first 64 characters, stay apart, and the name
     * is the same in every process (a resumed run calls its tool by it).
     */
    public static String reinName(McpServerConfig config, String mcpName) {
        String name = plainName(config, mcpName);
        if (name.length() <= 64 && !lossy(mcpName)) {
            return name;
        }
        String kept = mcpName.replaceAll("[^A-Za-z0-9_-]+", "_").replaceAll("^_+|_+$", "");
        String hash = "_" + HexFormat.of().formatHex(sha256(mcpName), 0, 4);
        name = config.prefix() + (kept.isEmpty() ? "tool" : kept);
        return (name.length() > 64 - hash.length() ? name.substring(0, 64 - hash.length()) : name) + hash;
    }

    private static String plainName(McpServerConfig config, String mcpName) {
        return config.prefix() + mcpName.replaceAll("[^A-Za-z0-9_-]", "_");
    }

    /** True when {@code mcpName} holds a character other than ASCII, which '_' alone would not tell apart. */
    private static boolean lossy(String mcpName) {
        return mcpName.chars().anyMatch(c -> c > 0x7E);
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /**
     * The risk Rein applies to {@code tool}.
     *
     * @param strict true at start: a looser override without {@code trust} is a configuration error;
     *               false on a refresh, where it is clamped to the derived risk instead
     */
    static Risk risk(McpServerConfig config, McpSchema.Tool tool, Risk derived, boolean strict) {
        Optional<Risk> override = config.overrideFor(tool.name());
        if (override.isEmpty()) {
            return derived;
        }
        Risk wanted = override.get();
        if (config.trust() || !McpRisk.stricter(derived, wanted)) {
            return wanted;
        }
        if (strict) {
            throw new McpConfigException("MCP server '" + config.name() + "': the risk override '" + wanted.name().toLowerCase()
                    + "' for tool '" + tool.name() + "' is less strict than its annotations give (" + derived.name().toLowerCase()
                    + "); an override can only make a tool stricter unless the server has \"trust\": true");
        }
        return derived;
    }

    /** The risk the annotations of {@code tool} give. */
    private static Risk derived(McpSchema.Tool tool) {
        McpSchema.ToolAnnotations hints = tool.annotations();
        return McpRisk.derive(hints == null ? null : hints.readOnlyHint(), hints == null ? null : hints.destructiveHint());
    }

    /**
     * The risk {@code tool} gets from its annotations and the configured overrides, as {@link #adapt} applies it
     * with no {@code atLeast}.
     *
     * @param strict true at start (a looser override without {@code trust} is a configuration error), false on a refresh
     */
    public static Risk risk(McpServerConfig config, McpSchema.Tool tool, boolean strict) {
        return risk(config, tool, derived(tool), strict);
    }

    /**
     * Adapts {@code tool}.
     *
     * @param current looks up what the toolset offers now under the tool's Rein name at call time (empty
     *                when nothing is), so a tool whose annotations became stricter after a refresh is not
     *                called under its old, looser risk, and a tool whose name another server or tool has
     *                taken since is not called at all
     * @param atLeast the least risk the tool may get (the one it was offered with before, which a server
     *                without {@code trust} cannot loosen by listing it again), or null for none
     */
    public static Adapted adapt(McpServerConfig config, ServerConnection connection, McpSchema.Tool tool, boolean strict,
                                Function<String, Optional<McpToolInfo>> current, Risk atLeast) {
        McpSchema.ToolAnnotations hints = tool.annotations();
        Risk derived = derived(tool);
        Risk listed = risk(config, tool, derived, strict);
        Risk risk = atLeast == null ? listed : McpRisk.max(listed, atLeast);
        String name = reinName(config, tool.name());
        String description = tool.description() != null && !tool.description().isBlank() ? tool.description()
                : tool.title() != null && !tool.title().isBlank() ? tool.title() : "Tool '" + tool.name() + "'.";
        McpToolInfo info = new McpToolInfo(config.name(), name, tool.name(), description, derived, risk,
                config.overrideFor(tool.name()).isPresent(), hints == null ? null : hints.idempotentHint());
        Object outputType = tool.outputSchema() == null ? null : tool.outputSchema().get("type");
        if (outputType != null && !"object".equals(outputType) && !(outputType instanceof java.util.List<?> types && types.contains("object"))) {
            // Structured content is an object (as the protocol's Tool.outputSchema is for one), so every answer
            // would fail the check: said once here, not at every call.
            throw new McpConfigException("MCP server '" + config.name() + "' offers tool '" + tool.name() + "' that Rein cannot use (its"
                    + " output schema has \"type\" " + Malformed.show(outputType) + ", where the protocol requires \"object\": structured"
                    + " content is an object, so no answer could match it); add it to \"deny\" to leave it out");
        }
        ServerConnection.DeclaredOutput outputSchema = outputSchema(tool);
        Tool.Builder builder = Tool.builder(name)
                // A name Rein had to change beyond punctuation tells the model little: the server's own name says what it is.
                .description("[MCP server '" + config.name() + "'" + (name.equals(plainName(config, tool.name())) ? ""
                        : ", tool '" + tool.name() + "'") + "] " + description)
                .inputSchema(schema(tool))
                .risk(risk)
                .timeout(config.timeout())
                .idempotent(Boolean.TRUE.equals(info.idempotentHint()))
                .handler((arguments, context) -> {
                    Optional<McpToolInfo> now = current.apply(name);
                    // the name may have passed to another server's tool (or another tool of this one) since this one was
                    // handed out: its risk says nothing of this tool, which is no longer offered
                    if (now.isEmpty() || !now.get().server().equals(config.name()) || !now.get().mcpName().equals(tool.name())) {
                        return ToolOutput.error("MCP server '" + config.name() + "' no longer offers tool '" + tool.name()
                                + "'; it was not called. Use another tool.");
                    }
                    if (McpRisk.stricter(now.get().risk(), risk)) {
                        return ToolOutput.error("MCP server '" + config.name() + "' changed tool '" + tool.name() + "' so that it now counts as "
                                + now.get().risk() + " rather than " + risk + "; it was not called. Start a new run to use it under its new risk.");
                    }
                    Map<String, Object> args = Json.mapper().convertValue(arguments, MAP);
                    ToolOutput output;
                    try {
                        // What a failure may have done follows the risk the executor applies (a policy or toBuilder().risk(...)
                        // may have changed the one Rein derived), not this tool's own.
                        // A READ is vouched for unless it is an untrusted server's readOnlyHint alone: set by the application
                        // (an override; in code or by a policy, when it differs from the risk Rein gave), or a trusted server's.
                        boolean readVouched = context.risk() == Risk.READ
                                && (config.trust() || config.overrideFor(tool.name()).isPresent() || risk != Risk.READ);
                        output = connection.call(tool.name(), args, meta(context), context.deadline(), context.risk() != Risk.READ,
                                readVouched, outputSchema);
                    } catch (dev.rein.tool.RetryableToolException refused) {
                        // Masked as a result is: the executor shows its message to the model.
                        throw new dev.rein.tool.RetryableToolException(Secrets.mask(refused.getMessage(), config.secrets()),
                                refused.retryAfter());
                    }
                    // Masked here too, so a server echoing its token is masked even for an agent not given the secrets.
                    String masked = Secrets.mask(output.content(), config.secrets());
                    return new ToolOutput(masked, output.isError(), "mcp:" + config.name() + "/" + tool.name(),
                            output.userContent() == null ? null : Secrets.mask(output.userContent(), config.secrets()));
                });
        if (config.scope() != null) {
            builder.requiredScopes(config.scope());
        }
        Tool built;
        try {
            built = builder.build();
        } catch (ReinException e) {
            throw new McpConfigException("MCP server '" + config.name() + "' offers tool '" + tool.name() + "' that Rein cannot use ("
                    + e.getMessage() + "); add it to \"deny\" to leave it out");
        }
        if (strict) {
            // Checked here at start, so the error names the server and a remedy its user has (deny), not
            // the agent build's advice to fix the schema given to Tool.builder. A tool announced later
            // is checked by the run, which leaves it out and names it in its tools_changed event.
            try {
                ToolRegistry.of(built).requireValidSchemas();
            } catch (ReinException e) {
                String problems = e.getMessage();
                int colon = problems.indexOf("): ");
                int advice = problems.lastIndexOf(". Fix the schema");
                if (colon >= 0 && advice > colon) {
                    problems = problems.substring(colon + 3, advice);
                }
                throw new McpConfigException("MCP server '" + config.name() + "' offers tool '" + tool.name() + "' whose input schema"
                        + " is not valid JSON Schema (" + problems + "); add it to \"deny\" to leave it out");
            }
        }
        return new Adapted(info, built);
    }

    /**
     * The {@code _meta} of a call: its idempotency key and, when the call is traced, its W3C trace
     * context under the keys the protocol reserves for it ({@code traceparent}, {@code tracestate},
     * {@code baggage}: SEP-414, as the OpenTelemetry conventions for MCP ask), so the server's spans
     * join the run's trace. Other propagators' fields are not protocol keys and are left out.
     */
    private static Map<String, Object> meta(dev.rein.tool.ToolContext context) {
        Map<String, Object> meta = new java.util.LinkedHashMap<>();
        meta.put(IDEMPOTENCY_META, context.idempotencyKey());
        context.traceContext().forEach((name, value) -> {
            if (TRACE_META.contains(name)) {
                meta.put(name, value);
            }
        });
        return meta;
    }

    /** The {@code _meta} keys MCP reserves for W3C Trace Context and Baggage. */
    private static final java.util.Set<String> TRACE_META = java.util.Set.of("traceparent", "tracestate", "baggage");

    /**
     * The tool's declared output schema, compiled, which its structured results are checked
     * against; null when it declares none. One the validator cannot use leaves the tool usable and
     * its structured results unchecked.
     */
    private static ServerConnection.DeclaredOutput outputSchema(McpSchema.Tool tool) {
        if (tool.outputSchema() == null || tool.outputSchema().isEmpty()) {
            return null;
        }
        try {
            return new ServerConnection.DeclaredOutput(
                    OutputSchema.fromJson(tool.name(), Json.write(Json.mapper().valueToTree(tool.outputSchema()))));
        } catch (ReinException | IllegalArgumentException e) {
            return new ServerConnection.DeclaredOutput(null);
        }
    }

    private static ObjectNode schema(McpSchema.Tool tool) {
        JsonNode node = Json.mapper().valueToTree(tool.inputSchema());
        ObjectNode schema = node instanceof ObjectNode object ? object : Json.object();
        if (!schema.has("type")) {
            schema.put("type", "object");
        }
        return schema;
    }
}
