package dev.rein;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Issue 10's "done when": {@code jdeps} shows no package cycle in rein-core. Runs jdeps as
 * docs/architecture.md says (over the compiled classes without {@code module-info.class}, so that
 * it lists the dependencies between packages) and looks for a cycle among Rein's packages.
 */
class PackageCyclesTest {
    private static final Pattern EDGE = Pattern.compile("^\\s+(dev\\.rein[\\w.]*)\\s+->\\s+(dev\\.rein[\\w.]*)\\s");

    @Test
    void noPackageOfReinCoreDependsOnItselfThroughOthers() throws Exception {
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow(() -> new AssertionError("jdeps is not in this JDK"));
        Path classes = copyWithoutModuleInfo(Path.of(PackageCyclesTest.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolveSibling("classes"));
        StringWriter out = new StringWriter();
        int exit = jdeps.run(new PrintWriter(out), new PrintWriter(out), "-verbose:package", classes.toString());
        assertThat(exit).as(out.toString()).isZero();
        Map<String, Set<String>> edges = new HashMap<>();
        for (String line : out.toString().split("\\R")) {
            Matcher m = EDGE.matcher(line);
            if (m.find() && !m.group(1).equals(m.group(2))) {
                edges.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(m.group(2));
            }
        }
        assertThat(edges).as("jdeps found dependencies between Rein's packages").containsKey("dev.rein.agent");
        assertThat(cycles(edges)).as("package cycles (each: packages that depend on each other)").isEmpty();
    }

    private static Path copyWithoutModuleInfo(Path classes) throws IOException, URISyntaxException {
        Path copy = Files.createTempDirectory("rein-core-classes");
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path target = copy.resolve(classes.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else if (!file.getFileName().toString().equals("module-info.class")) {
                    Files.copy(file, target);
                }
            }
        }
        return copy;
    }

    /** The strongly connected components with more than one package (Tarjan). */
    private static List<Set<String>> cycles(Map<String, Set<String>> edges) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new HashSet<>();
        List<Set<String>> found = new ArrayList<>();
        int[] counter = {0};
        for (String start : new TreeSet<>(edges.keySet())) {
            if (!index.containsKey(start)) {
                connect(start, edges, index, low, stack, onStack, found, counter);
            }
        }
        return found;
    }

    private static void connect(String v, Map<String, Set<String>> edges, Map<String, Integer> index, Map<String, Integer> low,
                                Deque<String> stack, Set<String> onStack, List<Set<String>> found, int[] counter) {
        index.put(v, counter[0]);
        low.put(v, counter[0]++);
        stack.push(v);
        onStack.add(v);
        for (String w : edges.getOrDefault(v, Set.of())) {
            if (!index.containsKey(w)) {
                connect(w, edges, index, low, stack, onStack, found, counter);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (onStack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            Set<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                onStack.remove(w);
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                found.add(component);
            }
        }
    }
}
