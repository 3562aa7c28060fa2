package dev.rein.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java sample of the user docs (a {@code ```java} block of README.md or docs/*.md) compiles against the current
 * API, so a renamed method, a changed parameter list or a wrong type shows here rather than in a reader's editor.
 * {@link DocSnippetsTest} runs a few of them; this compiles them all.
 *
 * <p>A sample is compiled as written, inside a method of a class that imports every exported Rein package: its
 * {@code import} lines go on top, its class and record declarations into the class, the rest into the method. What a
 * sample leaves to the reader is given: the usual variables ({@code model}, {@code tools}, {@code agent}, ...) as
 * fields of their Rein types, and {@code ...} for code the reader writes. A name only the reader's own code defines
 * ({@code Order}, {@code MySuite}, {@code OrdersDb}) may stay unknown; every other error fails the test.
 */
class DocSamplesCompileTest {
    private static final Pattern BLOCK = Pattern.compile("(?m)^```java\\n(.*?)^```", Pattern.DOTALL);

    /** Names the reader's own code defines: the samples use them without showing them. */
    private static final Set<String> READERS_OWN = Set.of("Order", "orders", "shipping", "Fixtures", "MySuite",
            "OrdersAgent", "OrdersDb", "MyDetector", "lookupTool", "SideEffect");

    private static final String IMPORTS = """
            import dev.rein.*;
            import dev.rein.agent.*;
            import dev.rein.approval.*;
            import dev.rein.budget.*;
            import dev.rein.context.*;
            import dev.rein.guard.*;
            import dev.rein.json.*;
            import dev.rein.memory.*;
            import dev.rein.model.*;
            import dev.rein.provider.*;
            import dev.rein.replay.*;
            import dev.rein.reflection.*;
            import dev.rein.retrieval.*;
            import dev.rein.retry.*;
            import dev.rein.run.*;
            import dev.rein.security.*;
            import dev.rein.stall.*;
            import dev.rein.state.*;
            import dev.rein.tool.*;
            import dev.rein.tool.builtin.*;
            import dev.rein.trace.*;
            import dev.rein.anthropic.*;
            import dev.rein.openai.*;
            import dev.rein.testkit.*;
            import dev.rein.testkit.openai.*;
            import dev.rein.eval.*;
            import dev.rein.eval.cli.*;
            import dev.rein.eval.env.*;
            import dev.rein.eval.file.*;
            import dev.rein.eval.report.*;
            import dev.rein.eval.run.*;
            import dev.rein.eval.trace.*;
            import dev.rein.mcp.*;
            import dev.rein.otel.*;
            import dev.rein.store.jdbc.*;
            import dev.rein.retrieval.lucene.*;
            import dev.rein.temporal.*;
            import dev.rein.examples.*;
            import dev.rein.examples.orders.*;
            import io.temporal.client.*;
            import io.temporal.serviceclient.*;
            import io.temporal.worker.*;
            import io.opentelemetry.api.OpenTelemetry;
            import com.fasterxml.jackson.databind.JsonNode;
            import java.math.BigDecimal;
            import java.net.URI;
            import java.nio.file.Path;
            import java.time.Duration;
            import java.util.*;
            import java.util.logging.*;
            import java.util.regex.Pattern;
            import static org.assertj.core.api.Assertions.assertThat;
            """;

    /** What the samples leave to the reader: variable name to type, as fields a sample's own declarations may shadow. */
    private static final Map<String, String> CONTEXT = Map.ofEntries(Map.entry("model", "Model"),
            Map.entry("tools", "List<Tool>"), Map.entry("agent", "Agent"), Map.entry("runStore", "RunStore"),
            Map.entry("dir", "Path"), Map.entry("openTelemetry", "OpenTelemetry"), Map.entry("hashedAccountId", "String"),
            Map.entry("queryDatabase", "Tool"), Map.entry("lookupOrder", "Tool"), Map.entry("FILES", "Map<String, String>"),
            Map.entry("client", "WorkflowClient"), Map.entry("hash", "String"), Map.entry("runId", "String"),
            Map.entry("request", "ApprovalRequest"), Map.entry("newArguments", "JsonNode"));

    /** Where a page's samples give a name another type: temporal.md's run store is a shared directory. */
    private static final Map<String, Map<String, String>> PAGE_CONTEXT = Map.of("temporal.md",
            Map.of("runStore", "OutputStore"));

    /** The reader's typed result (docs/replay.md declares it), unless the sample declares it itself. */
    private static final String VERDICT = "public record Verdict(String decision, int confidence, List<String> reasons) {}";

    record Sample(Path page, int line, String code) {
        String where() {
            return page.getFileName() + ":" + line;
        }
    }

    @Test
    void everyJavaSampleOfTheDocsCompiles(@TempDir Path out) throws IOException {
        List<Sample> samples = samples();
        assertThat(samples).as("Java samples found").hasSizeGreaterThan(30);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        Map<String, Unit> units = new LinkedHashMap<>();
        for (int i = 0; i < samples.size(); i++) {
            units.put("Sample" + i, unit("Sample" + i, samples.get(i)));
        }
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        // one task for all (the class path is read once); attribution goes on past one sample's syntax error
        javac.getTask(null, null, diagnostics, List.of("-proc:none", "-nowarn", "-XDshould-stop.ifError=FLOW",
                "-d", out.toString(), "-cp", System.getProperty("java.class.path")), null,
                units.values().stream().map(Unit::source).toList()).call();
        List<String> errors = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
            if (d.getKind() != Diagnostic.Kind.ERROR || readersOwn(d.getMessage(Locale.ROOT))) {
                continue;
            }
            String name = d.getSource() == null ? "" : d.getSource().getName().replaceAll(".*/|\\.java$", "");
            Unit unit = units.get(name);
            errors.add(unit == null ? d.getMessage(Locale.ROOT) : unit.sample().where() + " (sample line "
                    + (d.getLineNumber() - unit.bodyLine() + 1) + "): " + d.getMessage(Locale.ROOT).replace("\n", " | "));
        }
        assertThat(errors).as("Java samples of the docs that do not compile").isEmpty();
    }

    /** An unknown name only the reader's own code defines. */
    private static boolean readersOwn(String message) {
        Matcher symbol = Pattern.compile("symbol:\\s+(?:class|variable|method) (\\w+)").matcher(message);
        return message.startsWith("cannot find symbol") && symbol.find() && READERS_OWN.contains(symbol.group(1));
    }

    private static List<Sample> samples() throws IOException {
        Path root = Path.of("..").toAbsolutePath().normalize();
        List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        List<Sample> samples = new ArrayList<>();
        for (Path page : pages) {
            String text = Files.readString(page, StandardCharsets.UTF_8);
            Matcher m = BLOCK.matcher(text);
            while (m.find()) {
                int line = (int) text.substring(0, m.start()).chars().filter(c -> c == '\n').count() + 1;
                samples.add(new Sample(page, line, m.group(1)));
            }
        }
        return samples;
    }

    /** A sample as a compilation unit; {@code bodyLine}: the unit's line of the sample's first line. */
    record Unit(Sample sample, JavaFileObject source, long bodyLine) {}

    /**
     * The sample as a compilation unit: its imports first, its top-level type declarations (a line starting with
     * {@code public final class}, {@code record} ... up to its closing brace at the start of a line) as nested types,
     * its statements in a method, line for line, so a diagnostic's line tells the sample's line.
     */
    private static Unit unit(String name, Sample sample) {
        StringBuilder imports = new StringBuilder(IMPORTS);
        StringBuilder types = new StringBuilder();
        StringBuilder body = new StringBuilder();
        String[] lines = sample.code().replace("{ ... }", "{ throw new UnsupportedOperationException(); }")
                .replaceAll("(?m)^(\\s*)\\.\\.\\.\\s*$", "$1// ...").replace("Agent.builder()...", "Agent.builder().")
                .split("\n", -1);
        boolean inType = false;
        for (String line : lines) {
            if (line.startsWith("import ")) {
                imports.append(line).append('\n');
                body.append('\n');
            } else if (!inType && line.matches("(public |final |abstract )*(class|record|interface|enum) .*")) {
                inType = !line.strip().endsWith("}");
                types.append("static ").append(line).append('\n');
                body.append('\n');
            } else if (inType) {
                types.append(line).append('\n');
                inType = !line.equals("}");
                body.append('\n');
            } else {
                body.append(line).append('\n');
            }
        }
        Map<String, String> context = new TreeMap<>(CONTEXT);
        context.putAll(PAGE_CONTEXT.getOrDefault(sample.page().getFileName().toString(), Map.of()));
        StringBuilder fields = new StringBuilder();
        context.forEach((field, type) -> fields.append(type).append(' ').append(field).append(";\n"));
        if (!sample.code().contains("record Verdict(")) {
            types.append(VERDICT).append('\n');
        }
        String head = imports + "class " + name + " {\n" + fields + "void sample() throws Exception {\n";
        String code = head + body + "}\n" + types + "}\n";
        return new Unit(sample, new SimpleJavaFileObject(URI.create("string:///" + name + ".java"), JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return code;
            }
        }, head.chars().filter(c -> c == '\n').count() + 1);
    }
}
