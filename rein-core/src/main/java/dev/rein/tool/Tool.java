package dev.rein.tool;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.ReinException;
import dev.rein.json.Json;
import dev.rein.model.ToolDefinition;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A tool: what the model sees ({@link ToolDefinition}) declared together with its implementation
 * and the limits the executor enforces for it. Immutable; build with {@link #builder(String)}.
 */
public final class Tool {
    /** The form of a tool's name; the executor quotes a call's name unfenced only when it has this form. */
    static final Pattern NAME = Pattern.compile("[a-zA-Z0-9_-]{1,64}");

    private final ToolDefinition definition;
    private final ToolHandler handler;
    private final Risk risk;
    private final Duration timeout;
    private final Integer maxCalls;
    private final Set<String> requiredScopes;
    private final boolean polling;
    private final String resourceArgument;
    private final boolean idempotent;
    private final boolean abortsOnInterrupt;
    private final JsonSchemas.Compiled compiledSchema;
    /** The source given to results that name none ({@link Provenance}), made once instead of per call. */
    final String defaultSource;

    private Tool(Builder b, JsonSchemas.Compiled compiledSchema) {
        this.compiledSchema = compiledSchema;
        this.definition = new ToolDefinition(b.name, b.description, b.inputSchema);
        this.handler = b.handler;
        this.risk = b.risk;
        this.timeout = b.timeout;
        this.maxCalls = b.maxCalls;
        this.requiredScopes = Set.copyOf(b.requiredScopes);
        this.polling = b.polling;
        this.resourceArgument = b.resourceArgument;
        this.idempotent = b.idempotent;
        this.abortsOnInterrupt = b.abortsOnInterrupt;
        this.defaultSource = "tool:" + b.name;
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public String name() {
        return definition.name();
    }

    public ToolDefinition definition() {
        return definition;
    }

    public ToolHandler handler() {
        return handler;
    }

    public Risk risk() {
        return risk;
    }

    /** This tool's own timeout, or null to use the executor's default. */
    public Duration timeout() {
        return timeout;
    }

    /** The most calls allowed in one run, or null for no per-tool cap. */
    public Integer maxCalls() {
        return maxCalls;
    }

    public Set<String> requiredScopes() {
        return requiredScopes;
    }

    /** True for status-polling tools whose identical repeated calls are expected. */
    public boolean polling() {
        return polling;
    }

    /** The argument naming the resource a write tool changes (for edit-then-revert detection), or null. */
    public String resourceArgument() {
        return resourceArgument;
    }

    /**
     * True when the tool declares that calling it again with the same arguments has no further
     * effect (for example an MCP server's {@code idempotentHint}). Information for listings and
     * audits only: it changes nothing the executor does, because Rein records intent and completion
     * of every side-effecting call whatever this says.
     */
    public boolean idempotent() {
        return idempotent;
    }

    /**
     * Whether the handler ends promptly, returning or throwing, when its thread is interrupted
     * (default false). When true, the executor runs the call on the caller's thread (in a run, the
     * run's own thread) and enforces the timeout by interrupting that thread, saving a thread start
     * and two thread switches per call. When false, each call runs on a virtual thread of its own
     * that the run stops waiting for at the timeout, so a handler that ignores interrupts (a busy
     * loop, a wait that cannot be interrupted) still cannot hold the run past it.
     *
     * <p>Declare it only if every wait of the handler ends on interrupt ({@code Thread.sleep},
     * {@code HttpClient.send}, socket and {@code InterruptibleChannel} I/O on a virtual thread,
     * {@code java.util.concurrent} waits) and it does no long computation that ignores interrupts: a
     * handler that keeps running after the interrupt holds the run until it returns, and its call
     * still ends as a timeout. Thread-bound state the handler sets must be restored before it
     * returns, because the thread goes on to run the rest of the run.
     *
     * <p>A handler that ends by returning when interrupted (it catches {@link InterruptedException})
     * must set the interrupt status again ({@code Thread.currentThread().interrupt()}) before it
     * returns: the interrupt is not its own. In a run that {@code Agent.run}, {@code resume} or
     * {@code reply} runs on a virtual caller's thread, it may be the caller's, which is how that
     * caller cancels the run; cleared, it ends only this call, and the run goes on.
     */
    public boolean abortsOnInterrupt() {
        return abortsOnInterrupt;
    }

    /**
     * Checks {@code arguments} against the input schema.
     *
     * @return the problems found, one line each; empty when the arguments are valid
     */
    public List<String> validationProblems(JsonNode arguments) {
        return compiledSchema.problems(arguments);
    }

    /** A copy of this tool with another handler (used by decorators). */
    public Tool withHandler(ToolHandler newHandler) {
        Builder b = toBuilder();
        b.handler = newHandler;
        return b.build();
    }

    public Builder toBuilder() {
        Builder b = new Builder(name());
        b.description = definition.description();
        b.inputSchema = definition.inputSchema();
        b.handler = handler;
        b.risk = risk;
        b.timeout = timeout;
        b.maxCalls = maxCalls;
        b.requiredScopes.addAll(requiredScopes);
        b.polling = polling;
        b.resourceArgument = resourceArgument;
        b.idempotent = idempotent;
        b.abortsOnInterrupt = abortsOnInterrupt;
        return b;
    }

    @Override
    public String toString() {
        return "Tool[" + name() + ", " + risk + "]";
    }

    /** Builder for {@link Tool}; {@link #build()} validates. */
    public static final class Builder {
        private final String name;
        private String description;
        private ObjectNode inputSchema;
        private ToolHandler handler;
        private Risk risk = Risk.READ;
        private Duration timeout;
        private Integer maxCalls;
        private final Set<String> requiredScopes = new LinkedHashSet<>();
        private boolean polling;
        private String resourceArgument;
        private boolean idempotent;
        private boolean abortsOnInterrupt;

        private Builder(String name) {
            this.name = name;
        }

        /** What the tool does, when to use it and what it returns: the model reads this. */
        public Builder description(String description) {
            this.description = description;
            return this;
        }

        /** The JSON schema of the input object. */
        public Builder inputSchema(ObjectNode schema) {
            if (schema == null) { // a schema that did not load would otherwise make a tool without arguments, unseen
                throw new ReinException("tool '" + name + "': inputSchema(...) was given null; pass the JSON schema of the input"
                        + " object, or leave it unset for a tool without arguments");
            }
            this.inputSchema = schema;
            return this;
        }

        /**
         * The JSON schema of the input object, as JSON text: exactly one JSON object.
         *
         * @throws ReinException when the text is null, not JSON, not an object, or has text after the object
         */
        public Builder inputSchema(String schemaJson) {
            if (schemaJson == null) {
                throw new ReinException("tool '" + name + "': inputSchema(...) was given null; pass the JSON schema of the input"
                        + " object, or leave it unset for a tool without arguments");
            }
            JsonNode parsed;
            try {
                // whole: a brace closed too early would otherwise drop the rest ("required", say) unseen
                parsed = Json.parseWhole(schemaJson);
            } catch (ReinException e) {
                throw new ReinException("tool '" + name + "': the input schema is " + e.getMessage());
            }
            if (!(parsed instanceof ObjectNode node)) {
                throw new ReinException("tool '" + name + "': the input schema must be a JSON object");
            }
            this.inputSchema = node;
            return this;
        }

        public Builder handler(ToolHandler handler) {
            this.handler = handler;
            return this;
        }

        public Builder risk(Risk risk) {
            if (risk == null) {
                throw new ReinException("tool '" + name + "': risk(...) was given null; pass Risk.READ, Risk.WRITE or Risk.IRREVERSIBLE");
            }
            this.risk = risk;
            return this;
        }

        public Builder timeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        public Builder maxCalls(int maxCalls) {
            this.maxCalls = maxCalls;
            return this;
        }

        /**
         * Scopes the run's principal must hold to call this tool; a scope named twice is required once.
         *
         * @throws ReinException when a scope is null
         */
        public Builder requiredScopes(String... scopes) {
            if (scopes == null) {
                throw new ReinException("tool '" + name + "': requiredScopes(...) was given null; pass the scope names");
            }
            for (String scope : scopes) {
                if (scope == null) {
                    throw new ReinException("tool '" + name + "': requiredScopes(...) was given a null scope; pass the scope names");
                }
                requiredScopes.add(scope); // a set: naming a scope twice is harmless (Set.of refused it)
            }
            return this;
        }

        public Builder polling(boolean polling) {
            this.polling = polling;
            return this;
        }

        /**
         * Names the argument that says which resource this write tool changes ("path"), for
         * edit-then-revert detection and per-resource progress; null (the default) for none. A name
         * outside the input schema is kept (a tool with the default schema takes any argument).
         *
         * @throws ReinException when the name is blank: no call would set it, so both checks would be off unseen
         */
        public Builder resourceArgument(String argumentName) {
            if (argumentName != null && argumentName.isBlank()) {
                throw new ReinException("tool '" + name + "': resourceArgument(...) was given a blank name; pass the name of the"
                        + " argument naming the resource the tool changes (\"path\"), or null for none");
            }
            this.resourceArgument = argumentName;
            return this;
        }

        /** Declares a repeated identical call harmless (default false); see {@link Tool#idempotent()}. */
        public Builder idempotent(boolean idempotent) {
            this.idempotent = idempotent;
            return this;
        }

        /**
         * Declares that the handler ends promptly on interrupt, so it runs on the caller's thread
         * (default false: a thread of its own per call); see {@link Tool#abortsOnInterrupt()}.
         */
        public Builder abortsOnInterrupt(boolean aborts) {
            this.abortsOnInterrupt = aborts;
            return this;
        }

        public Tool build() {
            if (name == null || !NAME.matcher(name).matches()) {
                throw new ReinException("tool name '" + name + "' is invalid: use 1-64 letters, digits, '_' or '-'");
            }
            if (description == null || description.isBlank()) {
                throw new ReinException("tool '" + name + "' needs a description: the model chooses tools by it");
            }
            if (inputSchema == null) {
                inputSchema = Json.object().put("type", "object");
                inputSchema.putObject("properties");
            }
            if (!"object".equals(inputSchema.path("type").asText())) {
                throw new ReinException("tool '" + name + "': the input schema must have \"type\": \"object\"");
            }
            if (handler == null) {
                throw new ReinException("tool '" + name + "' needs a handler");
            }
            if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
                throw new ReinException("tool '" + name + "': timeout must be positive, was " + timeout
                        + ": give a Duration of at least 1 ms, or leave it unset for the agent's toolTimeout (30 s by default)");
            }
            // the timeout stage and its message count milliseconds: less would time out every call "at 0 s"
            if (timeout != null && timeout.compareTo(Duration.ofMillis(1)) < 0) {
                throw new ReinException("tool '" + name + "': timeout must be at least 1 ms, was " + timeout
                        + ": give a Duration of at least 1 ms, or leave it unset for the agent's toolTimeout (30 s by default)");
            }
            if (maxCalls != null && maxCalls < 1) {
                throw new ReinException("tool '" + name + "': maxCalls must be at least 1, was " + maxCalls
                        + ": give the most calls a run may make of it, or leave maxCalls unset (null) for no cap");
            }
            return new Tool(this, JsonSchemas.compile(name, inputSchema));
        }
    }
}
