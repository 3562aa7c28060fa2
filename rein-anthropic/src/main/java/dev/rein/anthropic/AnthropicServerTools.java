package dev.rein.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.ReinException;
import dev.rein.json.Json;
import dev.rein.model.ModelOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Server tools the API runs itself (web search, web fetch, code execution), declared in the
 * request's {@code tools} as the API's documentation writes them: an object with the tool's
 * versioned {@code type}, its {@code name} and its own settings. They are sent before the
 * agent's own (function) tools, on the messages call and on count_tokens. The model's uses of them
 * come back as server-side blocks ({@code server_tool_use}, {@code web_search_tool_result}), kept
 * and sent back unchanged; Rein never runs them, and the usage counts them for pricing (a web
 * search costs USD 0.01). A tool version the API only takes with a beta (web fetch's
 * {@code web_fetch_20250910}: {@code web-fetch-2025-09-10}) has that beta sent for it. Which server tools, versions and settings a model takes is the API's to
 * say; a name a function tool of the agent also has is refused when the agent is built (and when a
 * request built by hand is sent). A {@code cache_control} written on a tool is sent as given and counts toward the
 * API's 4 breakpoints per request, so {@link PromptCaching} places one fewer for each (none with 4); more than 4 are
 * refused here, when the option is made, with how many to take off.
 *
 * <pre>{@code
 * Agent.builder().model(model).modelOption(AnthropicServerTools.webSearch(5))
 * }</pre>
 *
 * @param tools the tool definitions, each a JSON object with a {@code type} and a {@code name}
 */
public record AnthropicServerTools(List<ObjectNode> tools) implements ModelOption {
    /** The web search tool's version the public API documents for every current model. */
    static final String WEB_SEARCH = "web_search_20250305";

    public AnthropicServerTools {
        if (tools == null || tools.isEmpty()) {
            throw new ReinException("AnthropicServerTools needs at least one tool, such as AnthropicServerTools.webSearch(5)");
        }
        List<ObjectNode> copies = new ArrayList<>(tools.size());
        List<String> names = new ArrayList<>();
        for (ObjectNode tool : tools) {
            if (tool == null) {
                throw new ReinException("a server tool is null: pass each as a JSON object such as"
                        + " {\"type\": \"" + WEB_SEARCH + "\", \"name\": \"web_search\"}");
            }
            String name = text(tool, "name", "web_search");
            text(tool, "type", WEB_SEARCH);
            if (names.contains(name)) {
                throw new ReinException("two server tools are named '" + name + "': the API refuses a request whose tools share a name");
            }
            names.add(name);
            copies.add(tool.deepCopy()); // immutable as an option must be: the caller's node may change later
        }
        // The API counts every cache_control in the request against its limit: more on these alone fails every call.
        List<String> cached = copies.stream().filter(tool -> tool.hasNonNull("cache_control"))
                .map(tool -> tool.get("name").asText()).toList();
        if (cached.size() > CacheBreakpoints.MAX_BREAKPOINTS) {
            throw new ReinException(cached.size() + " server tools carry a cache_control (" + String.join(", ", cached)
                    + "), and the API takes at most " + CacheBreakpoints.MAX_BREAKPOINTS + " cache_control per request:"
                    + " take cache_control off at least " + (cached.size() - CacheBreakpoints.MAX_BREAKPOINTS) + " of these"
                    + " tools; each one left takes one of PromptCaching's breakpoints (with "
                    + CacheBreakpoints.MAX_BREAKPOINTS + ", it places none)");
        }
        tools = List.copyOf(copies);
    }

    /** The tools as given, each a JSON object text such as {@code {"type": "web_fetch_20250910", "name": "web_fetch"}}. */
    public static AnthropicServerTools of(String... tools) {
        if (tools == null) {
            return new AnthropicServerTools(null);
        }
        List<ObjectNode> parsed = new ArrayList<>();
        for (String tool : tools) {
            JsonNode json;
            try {
                json = tool == null ? null : Json.parse(tool);
            } catch (RuntimeException e) {
                throw new ReinException("a server tool is not JSON: " + e.getMessage(), e);
            }
            if (!(json instanceof ObjectNode object)) {
                throw new ReinException("a server tool must be a JSON object such as {\"type\": \"" + WEB_SEARCH
                        + "\", \"name\": \"web_search\"}, was " + tool);
            }
            parsed.add(object);
        }
        return new AnthropicServerTools(parsed);
    }

    /**
     * The web search tool ({@code {"type": "web_search_20250305", "name": "web_search", "max_uses": n}}),
     * at most {@code maxUses} searches per request, or as many as the API allows when null. Each search
     * is billed (USD 10 per 1,000) on top of the tokens, and counted into the run's cost.
     */
    public static AnthropicServerTools webSearch(Integer maxUses) {
        if (maxUses != null && maxUses < 1) {
            throw new ReinException("web search's maxUses must be at least 1, or null for no limit of Rein's, was " + maxUses);
        }
        ObjectNode tool = Json.object().put("type", WEB_SEARCH).put("name", "web_search");
        if (maxUses != null) {
            tool.put("max_uses", maxUses);
        }
        return new AnthropicServerTools(List.of(tool));
    }

    /**
     * A server tool with the name of one of the agent's own tools fails the agent's build, not its
     * first call: the API refuses a request whose tools share a name, at every step.
     *
     * @throws ReinException naming the tool
     */
    @Override
    public void check(dev.rein.model.ModelRequest request) {
        RequestMapper.requireDistinctNames(this, request);
    }

    /**
     * Server tool versions the API only takes with a beta turned on, and that beta: the web fetch
     * tool's docs enable {@code web_fetch_20250910} with {@code anthropic-beta: web-fetch-2025-09-10},
     * and the API refuses the tool (HTTP 400) at every step without it.
     */
    private static final java.util.Map<String, String> BETAS = java.util.Map.of("web_fetch_20250910", "web-fetch-2025-09-10");

    /** The betas these tools need ({@link #BETAS}), sent in the {@code anthropic-beta} header with the request's own. */
    List<String> betas() {
        return tools.stream().map(t -> BETAS.get(t.get("type").asText())).filter(java.util.Objects::nonNull).distinct().toList();
    }

    /** The names of the tools. */
    List<String> names() {
        return tools.stream().map(t -> t.get("name").asText()).toList();
    }

    private static String text(ObjectNode tool, String field, String example) {
        JsonNode value = tool.get(field);
        if (value == null || !value.isTextual() || value.asText().isBlank()) {
            throw new ReinException("the server tool " + tool + " has no \"" + field + "\" text: the API needs one, e.g. \""
                    + field + "\": \"" + example + "\"");
        }
        return value.asText();
    }
}
