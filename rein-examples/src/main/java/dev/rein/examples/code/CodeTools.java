package dev.rein.examples.code;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Hashing;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The code agent's tools over one {@link GitWorkspace}: read, search, edit, run the tests, show
 * the diff. Every path is confined to the workspace (no absolute paths, no {@code ..}, no
 * symbolic links out, nothing under {@code .git}); reads and searches are capped so a large file
 * cannot flood the context.
 */
final class CodeTools {
    static final int MAX_READ_LINES = 200;
    static final int MAX_MATCHES = 40;

    private final GitWorkspace workspace;
    private final Duration testTimeout;

    CodeTools(GitWorkspace workspace, Duration testTimeout) {
        this.workspace = workspace;
        this.testTimeout = testTimeout;
    }

    List<Tool> all() {
        return List.of(listFiles(), readFile(), search(), editFile(), runTests(), showDiff());
    }

    private Tool listFiles() {
        return Tool.builder("list_files")
                .description("Lists the project's files (paths relative to the project root) with their sizes.")
                .risk(Risk.READ)
                .handler((args, ctx) -> {
                    StringBuilder sb = new StringBuilder();
                    workspace.files().forEach((path, text) -> sb.append(path).append("  (").append(text.lines().count())
                            .append(" lines)\n"));
                    return ToolOutput.text(sb.toString().strip()).withSource("workspace");
                })
                .build();
    }

    private Tool readFile() {
        return Tool.builder("read_file")
                .description("Reads a text file with line numbers, at most " + MAX_READ_LINES + " lines from start_line"
                        + " (default 1).")
                .inputSchema("""
                        {"type":"object","properties":{
                          "path":{"type":"string","description":"relative to the project root, e.g. src/slug.sh"},
                          "start_line":{"type":"integer","minimum":1}},
                         "required":["path"],"additionalProperties":false}""")
                .risk(Risk.READ)
                .handler((args, ctx) -> {
                    Path file = resolve(args.get("path").asText());
                    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
                    int start = Math.max(1, args.path("start_line").asInt(1));
                    int end = Math.min(lines.size(), start + MAX_READ_LINES - 1);
                    StringBuilder sb = new StringBuilder();
                    for (int i = start; i <= end; i++) {
                        sb.append(String.format("%4d  %s%n", i, lines.get(i - 1)));
                    }
                    if (end < lines.size()) {
                        sb.append("(lines ").append(end + 1).append("-").append(lines.size()).append(" not shown; read on with start_line=")
                                .append(end + 1).append(")");
                    }
                    return ToolOutput.text(sb.isEmpty() ? "(the file is empty)" : sb.toString()).withSource("workspace:" + args.get("path").asText());
                })
                .build();
    }

    private Tool search() {
        return Tool.builder("search")
                .description("Searches the project's files for a regular expression (Java syntax); returns up to "
                        + MAX_MATCHES + " matching lines as path:line: text.")
                .inputSchema("""
                        {"type":"object","properties":{"pattern":{"type":"string"}},
                         "required":["pattern"],"additionalProperties":false}""")
                .risk(Risk.READ)
                .handler((args, ctx) -> {
                    Pattern pattern;
                    try {
                        pattern = Pattern.compile(args.get("pattern").asText());
                    } catch (PatternSyntaxException e) {
                        return ToolOutput.error("not a valid regular expression: " + e.getDescription());
                    }
                    List<String> matches = new ArrayList<>();
                    int total = 0;
                    for (Map.Entry<String, String> file : workspace.files().entrySet()) {
                        List<String> lines = file.getValue().lines().toList();
                        for (int i = 0; i < lines.size(); i++) {
                            if (pattern.matcher(lines.get(i)).find()) {
                                total++;
                                if (matches.size() < MAX_MATCHES) {
                                    matches.add(file.getKey() + ":" + (i + 1) + ": " + lines.get(i).strip());
                                }
                            }
                        }
                    }
                    String more = total > matches.size() ? "\n(" + (total - matches.size()) + " more matches not shown; narrow the pattern)" : "";
                    return ToolOutput.text(matches.isEmpty() ? "no matches" : String.join("\n", matches) + more).withSource("workspace");
                })
                .build();
    }

    private Tool editFile() {
        return Tool.builder(EDIT_FILE)
                .description("Replaces one exact occurrence of old_text with new_text in a file. old_text must match the file"
                        + " exactly (whitespace included) and occur exactly once; read the file first. Returns the new"
                        + " content's hash.")
                .inputSchema("""
                        {"type":"object","properties":{
                          "path":{"type":"string"},
                          "old_text":{"type":"string","minLength":1},
                          "new_text":{"type":"string"}},
                         "required":["path","old_text","new_text"],"additionalProperties":false}""")
                .risk(Risk.WRITE)
                .resourceArgument("path")
                .handler((args, ctx) -> edit(args))
                .build();
    }

    static final String EDIT_FILE = "edit_file";

    private ToolOutput edit(JsonNode args) throws IOException {
        String path = args.get("path").asText();
        Path file = resolve(path);
        String text = Files.readString(file, StandardCharsets.UTF_8);
        String old = args.get("old_text").asText();
        int first = text.indexOf(old);
        if (first < 0) {
            return ToolOutput.error("old_text does not occur in " + path + "; read the file and copy the text exactly");
        }
        if (text.indexOf(old, first + 1) >= 0) {
            return ToolOutput.error("old_text occurs more than once in " + path + "; include more surrounding text");
        }
        String updated = text.substring(0, first) + args.get("new_text").asText() + text.substring(first + old.length());
        synchronized (workspace) {
            Files.writeString(file, updated, StandardCharsets.UTF_8);
        }
        // The hash lets the stall detector see an edit that restores an earlier version of the file.
        return ToolOutput.text("Edited " + path + "; it now has " + updated.lines().count() + " lines, sha256 "
                + Hashing.sha256(updated).substring(0, 16) + ". Run the tests to check the change.").withSource("workspace:" + path);
    }

    private Tool runTests() {
        return Tool.builder("run_tests")
                .description("Runs the project's tests (every tests/test_*.sh) and reports PASSED or FAILED with their output."
                        + " Stopped after " + testTimeout.toSeconds() + " s.")
                .risk(Risk.READ)
                .timeout(testTimeout)
                .handler((args, ctx) -> {
                    // A little longer than the tool's timeout: the executor's timeout fires first and is reported as such;
                    // its interrupt kills the test processes.
                    TestRunner.Report report = TestRunner.run(workspace.dir(), testTimeout.plusSeconds(1));
                    return ToolOutput.text((report.passed() ? "PASSED\n" : "FAILED\n") + report.output()).withSource("tests");
                })
                .build();
    }

    private Tool showDiff() {
        return Tool.builder("show_diff")
                .description("Shows the uncommitted changes (git diff).")
                .risk(Risk.READ)
                .handler((args, ctx) -> {
                    String diff = workspace.diff();
                    return ToolOutput.text(diff.isBlank() ? "(no changes)" : diff).withSource("git");
                })
                .build();
    }

    /** The file {@code relative} inside the workspace, by the rules every tool shares ({@link WorkspacePaths}). */
    private Path resolve(String relative) throws IOException {
        return WorkspacePaths.resolve(workspace.dir(), relative);
    }
}
