package dev.rein.eval.env;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.ReinException;
import dev.rein.eval.Environment;
import dev.rein.eval.SideEffect;
import dev.rein.eval.file.EnvironmentType;
import dev.rein.internal.text.Counts;
import dev.rein.json.Json;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolOutput;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A built-in environment: an in-memory tree of text files. Reading, listing and searching are
 * read-only; writing is a side effect; deleting is irreversible, needs approval and the scope
 * {@code files:delete}. A per-tool delay makes timeouts reproducible.
 *
 * <p>In suite files it is {@code file_tree}, with options {@code files} (path to text) and
 * {@code delays_ms} (tool name to milliseconds), toolsets {@code files_read}, {@code files_write}
 * and {@code files}, and the check {@code unchanged}.
 */
public final class FileTreeEnvironment implements Environment {
    public static final String NAME = "file_tree";

    private final Map<String, String> initial;
    /** Every tool of the environment's toolsets, sorted: the names {@code delays_ms} may give. */
    private static final java.util.List<String> TOOLS = java.util.List.of("delete_file", "list_files", "read_file", "search_files", "write_file");

    private final Map<String, Long> delaysMs;
    private final TreeMap<String, String> files = new TreeMap<>();
    private final List<SideEffect> effects = new ArrayList<>();

    public FileTreeEnvironment(Map<String, String> files) {
        this(files, Map.of());
    }

    /** @param delaysMs how long each named tool waits before it acts (to provoke tool timeouts) */
    public FileTreeEnvironment(Map<String, String> files, Map<String, Long> delaysMs) {
        this.initial = Map.copyOf(files);
        this.delaysMs = Map.copyOf(delaysMs);
        reset();
    }

    /** Reads {@code {"files": {...}, "delays_ms": {...}}}. */
    public static FileTreeEnvironment fromOptions(JsonNode options) {
        // unknown options are errors, as in the examples' environments: a misspelt one is not ignored
        for (Iterator<String> names = options.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!name.equals("files") && !name.equals("delays_ms")) {
                throw new ReinException("environment '" + NAME + "' has no option '" + name + "'; its options are delays_ms, files");
            }
        }
        JsonNode fileNodes = options.path("files");
        if (!fileNodes.isMissingNode() && !fileNodes.isObject()) {
            throw new ReinException("environment '" + NAME + "': option files must map paths to their text");
        }
        Map<String, String> files = new LinkedHashMap<>();
        fileNodes.properties().forEach(e -> {
            if (!e.getValue().isTextual()) {
                throw new ReinException("file_tree option files." + e.getKey() + " must be text");
            }
            files.put(e.getKey(), e.getValue().asText());
        });
        JsonNode delayNodes = options.path("delays_ms");
        if (!delayNodes.isMissingNode() && !delayNodes.isObject()) {
            throw new ReinException("environment '" + NAME + "': option delays_ms must map tool names to milliseconds");
        }
        Map<String, Long> delays = new LinkedHashMap<>();
        delayNodes.properties().forEach(e -> {
            // a misspelt tool would be delayed in no call, and a timeout task would run without its slow tool
            if (!TOOLS.contains(e.getKey())) {
                throw new ReinException("environment '" + NAME + "': option delays_ms names '" + e.getKey()
                        + "', which is not one of its tools; give one of " + String.join(", ", TOOLS));
            }
            // a fraction (1.5) would be read as its whole part (1)
            JsonNode value = e.getValue();
            if (!value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < 0) {
                throw new ReinException("environment '" + NAME + "': delays_ms." + e.getKey() + " must be a whole number of"
                        + " milliseconds (0 or more), e.g. {" + e.getKey() + ": 5000}; was " + value);
            }
            delays.put(e.getKey(), value.asLong());
        });
        return new FileTreeEnvironment(files, delays);
    }

    /** The registration used by suite files. */
    public static EnvironmentType<FileTreeEnvironment> type() {
        return EnvironmentType.builder(NAME, FileTreeEnvironment::fromOptions)
                .description("an in-memory tree of text files")
                .toolset("files_read", FileTreeEnvironment::readTools)
                .toolset("files_write", FileTreeEnvironment::writeTools)
                .toolset("files", env -> {
                    List<Tool> all = new ArrayList<>(env.readTools());
                    all.addAll(env.writeTools());
                    return all;
                })
                .checkWithReason("unchanged", env -> env.files().equals(env.initial) ? null
                        : "the files changed: " + env.effects().stream().map(SideEffect::description).toList())
                .build();
    }

    @Override
    public synchronized void reset() {
        files.clear();
        files.putAll(initial);
        effects.clear();
    }

    @Override
    public synchronized JsonNode snapshot() {
        ObjectNode root = Json.object();
        ObjectNode tree = root.putObject("files");
        files.forEach(tree::put);
        return root;
    }

    @Override
    public synchronized List<SideEffect> sideEffects() {
        return List.copyOf(effects);
    }

    public synchronized Map<String, String> files() {
        return Map.copyOf(files);
    }

    private synchronized List<SideEffect> effects() {
        return List.copyOf(effects);
    }

    /** list_files, read_file and search_files. */
    public List<Tool> readTools() {
        return List.of(
                tool("list_files", "Lists the files whose path starts with prefix (all files when it is empty), one path per line.",
                        """
                        {"type":"object","properties":{"prefix":{"type":"string","description":"a path prefix, may be empty"}}}""",
                        Risk.READ, args -> list(args.path("prefix").asText(""))),
                tool("read_file", "Returns the text of one file.", pathSchema(), Risk.READ, args -> read(args.get("path").asText())),
                tool("search_files", "Finds lines containing query (case-insensitive); returns path:line: text per match.",
                        """
                        {"type":"object","properties":{"query":{"type":"string","minLength":1}},"required":["query"]}""",
                        Risk.READ, args -> search(args.get("query").asText())));
    }

    /** write_file (a side effect) and delete_file (irreversible: needs approval and the scope files:delete). */
    public List<Tool> writeTools() {
        Tool write = tool("write_file", "Creates or replaces a file with the given text.", """
                {"type":"object","properties":{"path":{"type":"string","minLength":1},"content":{"type":"string"}},
                 "required":["path","content"]}""", Risk.WRITE, args -> write(args.get("path").asText(), args.get("content").asText()));
        Tool delete = tool("delete_file", "Deletes a file. Irreversible.", pathSchema(), Risk.IRREVERSIBLE,
                args -> delete(args.get("path").asText()));
        return List.of(write.toBuilder().resourceArgument("path").requiredScopes("files:write").build(),
                delete.toBuilder().resourceArgument("path").requiredScopes("files:delete").build());
    }

    private synchronized Object list(String prefix) {
        List<String> paths = files.keySet().stream().filter(p -> p.startsWith(prefix)).toList();
        return paths.isEmpty() ? "(no files" + (prefix.isEmpty() ? "" : " under '" + prefix + "'") + ")" : String.join("\n", paths);
    }

    private synchronized Object read(String path) {
        String text = files.get(path);
        return text == null ? ToolOutput.error("No file '" + path + "'. Use list_files to see the paths.")
                : new ToolOutput(text.isEmpty() ? "(the file is empty)" : text, false, "file_tree:" + path);
    }

    private synchronized Object search(String query) {
        List<String> hits = new ArrayList<>();
        String needle = query.toLowerCase(Locale.ROOT);
        files.forEach((path, text) -> {
            String[] lines = text.split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                if (lines[i].toLowerCase(Locale.ROOT).contains(needle)) {
                    hits.add(path + ":" + (i + 1) + ": " + lines[i]);
                }
            }
        });
        return hits.isEmpty() ? "(no line contains '" + query + "')" : String.join("\n", hits);
    }

    private synchronized Object write(String path, String content) {
        boolean existed = files.put(path, content) != null;
        effects.add(new SideEffect("write_file", (existed ? "replaced " : "created ") + path, false));
        // counted as a person counts them: a character outside the BMP (an emoji, 𠮷) is one, not two UTF-16 units
        return (existed ? "Replaced " : "Created ") + path + " (" + Counts.of(content.codePointCount(0, content.length()),
                "character") + ").";
    }

    private synchronized Object delete(String path) {
        if (files.remove(path) == null) {
            return ToolOutput.error("No file '" + path + "' to delete.");
        }
        effects.add(new SideEffect("delete_file", "deleted " + path, true));
        return "Deleted " + path + ".";
    }

    private interface Action {
        Object apply(JsonNode args);
    }

    private Tool tool(String name, String description, String schema, Risk risk, Action action) {
        long delay = delaysMs.getOrDefault(name, 0L);
        return Tool.builder(name).description(description).inputSchema(schema).risk(risk)
                .handler((args, ctx) -> {
                    if (delay > 0) {
                        Thread.sleep(delay);
                    }
                    return action.apply(args);
                })
                .build();
    }

    private static String pathSchema() {
        return """
                {"type":"object","properties":{"path":{"type":"string","minLength":1}},"required":["path"]}""";
    }
}
