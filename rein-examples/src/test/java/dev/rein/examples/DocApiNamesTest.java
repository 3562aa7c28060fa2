package dev.rein.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Member;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every {@code Type.member(} the user docs name (README.md and docs/*.md, prose and samples alike) exists on
 * that Rein type (or a supertype), so a renamed or removed method shows here rather than to a reader whose code does not compile.
 * Only types on this module's class path are checked (rein-core, the providers, the test kit, rein-eval,
 * rein-temporal, the examples); a simple name two packages share is left out, as it cannot be told apart.
 */
class DocApiNamesTest {
    /** {@code Agent.builder(}, {@code Agent.Builder.runIds(}: a type, an optional nested type, a member. */
    private static final Pattern REFERENCE =
            Pattern.compile("\\b([A-Z][A-Za-z0-9]+)(?:\\.([A-Z][A-Za-z0-9]+))?\\.([a-z][A-Za-z0-9_]*)\\(");

    @Test
    void everyTypeMemberTheDocsNameExists() throws IOException {
        Map<String, List<String>> types = reinTypesOnTheClassPath();
        Path root = Path.of("..").toAbsolutePath().normalize();
        List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        TreeSet<String> missing = new TreeSet<>();
        int checked = 0;
        for (Path page : pages) {
            Matcher m = REFERENCE.matcher(Files.readString(page, StandardCharsets.UTF_8));
            while (m.find()) {
                List<String> candidates = types.get(m.group(1));
                if (candidates == null || candidates.size() != 1) {
                    continue; // not a Rein type here (a JDK or SDK type, another module's), or ambiguous
                }
                String name = candidates.get(0) + (m.group(2) == null ? "" : "$" + m.group(2));
                Class<?> type;
                try {
                    type = Class.forName(name, false, getClass().getClassLoader());
                } catch (ClassNotFoundException e) {
                    missing.add(root.relativize(page) + ": " + m.group() + " (no nested type " + name + ")");
                    continue;
                }
                checked++;
                if (!hasMember(type, m.group(3))) {
                    missing.add(root.relativize(page) + ": " + m.group() + " (" + type.getName() + " has no "
                            + m.group(3) + ")");
                }
            }
        }
        assertThat(checked).as("references checked").isGreaterThan(100);
        assertThat(missing).as("API names in the docs that the code does not have").isEmpty();
    }

    /**
     * A method, field or nested type of that name on the type or a supertype, of any visibility: the docs name
     * public API, and docs/architecture.md also the package-private parts of the loop it explains.
     */
    private static boolean hasMember(Class<?> type, String name) {
        List<Class<?>> todo = new ArrayList<>(List.of(type));
        while (!todo.isEmpty()) {
            Class<?> c = todo.remove(todo.size() - 1);
            Stream<Member> members = Stream.concat(Arrays.stream(c.getDeclaredMethods()), Arrays.stream(c.getDeclaredFields()));
            if (members.anyMatch(member -> member.getName().equals(name))
                    || Arrays.stream(c.getDeclaredClasses()).anyMatch(nested -> nested.getSimpleName().equals(name))) {
                return true;
            }
            if (c.getSuperclass() != null) {
                todo.add(c.getSuperclass());
            }
            todo.addAll(List.of(c.getInterfaces()));
        }
        return false;
    }

    /** Simple name to the binary names of the top-level {@code dev.rein} classes on the class path. */
    private static Map<String, List<String>> reinTypesOnTheClassPath() throws IOException {
        Map<String, List<String>> types = new HashMap<>();
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            Path path = Path.of(entry);
            List<String> files = new ArrayList<>();
            if (Files.isDirectory(path)) {
                try (Stream<Path> walk = Files.walk(path)) {
                    walk.filter(Files::isRegularFile).forEach(p -> files.add(path.relativize(p).toString().replace('\\', '/')));
                }
            } else if (entry.endsWith(".jar") && Files.isRegularFile(path)) {
                try (JarFile jar = new JarFile(path.toFile())) {
                    jar.stream().forEach(e -> files.add(e.getName()));
                }
            }
            for (String file : files) {
                if (file.startsWith("dev/rein/") && file.endsWith(".class") && !file.contains("$")) {
                    String binary = file.substring(0, file.length() - ".class".length()).replace('/', '.');
                    List<String> names = types.computeIfAbsent(binary.substring(binary.lastIndexOf('.') + 1), k -> new ArrayList<>());
                    if (!names.contains(binary)) {
                        names.add(binary);
                    }
                }
            }
        }
        return types;
    }
}
