package dev.rein.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every {@code Type.member(} the user docs name (README.md and docs/*.md, prose and samples alike) is a method a reader
 * can call on that Rein type (public, declared there or inherited), so a renamed, removed or hidden method shows here
 * rather than to a reader whose code does not compile.
 * Only types on this module's test class path are checked (rein-core, the providers, the test kit, rein-eval,
 * rein-temporal, rein-mcp, rein-otel, the JDBC stores, the Lucene retriever, the examples; not rein-cli, which
 * depends on this module); a simple name two packages share is left out, as it cannot be told apart.
 */
class DocApiNamesTest {
    /** {@code Agent.builder(}, {@code Agent.Builder.runIds(}: a type, an optional nested type, a member. */
    private static final Pattern REFERENCE =
            Pattern.compile("\\b([A-Z][A-Za-z0-9]+)(?:\\.([A-Z][A-Za-z0-9]+))?\\.([a-z][A-Za-z0-9_]*)\\(");

    /**
     * References to parts of Rein a reader cannot call, named on purpose: docs/architecture.md explains the loop's
     * package-private step function. Each is listed by page, so the same name anywhere else is still checked.
     */
    private static final Set<String> INTERNALS = Set.of("docs/architecture.md: Run.decide(", "docs/architecture.md: Step.decide(");

    @Test
    void everyTypeMemberTheDocsNameExists() throws IOException {
        Map<String, List<String>> types = reinTypesOnTheClassPath();
        Path root = Path.of("..").toAbsolutePath().normalize();
        List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        TreeSet<String> missing = new TreeSet<>();
        TreeSet<String> internalsNamed = new TreeSet<>();
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
                    type = m.group(2) != null && isConstantName(m.group(2))
                            ? constantType(Class.forName(candidates.get(0), false, getClass().getClassLoader()), m.group(2))
                            : Class.forName(name, false, getClass().getClassLoader());
                } catch (ClassNotFoundException e) {
                    missing.add(root.relativize(page) + ": " + m.group() + " (no nested type " + name + ")");
                    continue;
                } catch (NoSuchFieldException e) {
                    missing.add(root.relativize(page) + ": " + m.group() + " (no public constant " + m.group(2) + " on "
                            + candidates.get(0) + ")");
                    continue;
                }
                checked++;
                String why = notCallable(type, m.group(3));
                String reference = root.relativize(page) + ": " + m.group();
                if (why != null && INTERNALS.contains(reference)) {
                    internalsNamed.add(reference);
                } else if (why != null) {
                    missing.add(reference + " (" + why + ")");
                }
            }
        }
        assertThat(checked).as("references checked").isGreaterThan(100);
        assertThat(missing).as("API names in the docs that a reader cannot call").isEmpty();
        assertThat(internalsNamed).as("INTERNALS still named by their page and still out of a reader's reach")
                .containsExactlyInAnyOrderElementsOf(INTERNALS);
    }

    /** Before: a method of any visibility counted, so a public method made private still passed. */
    @Test
    void onlyWhatAReaderCanCallCounts() {
        assertThat(notCallable(VisibilityFixture.class, "open")).isNull();
        assertThat(notCallable(VisibilityFixture.class, "forSubclasses")).isNull();
        assertThat(notCallable(VisibilityFixture.class, "hidden")).endsWith("VisibilityFixture.hidden is private, not public");
        assertThat(notCallable(VisibilityFixture.class, "packaged")).endsWith(".packaged is package-private, not public");
        assertThat(notCallable(VisibilityFixture.Closed.class, "forSubclasses")).endsWith(" is protected, not public");
        assertThat(notCallable(VisibilityFixture.Hidden.class, "open")).endsWith("VisibilityFixture$Hidden is not public");
        assertThat(notCallable(VisibilityFixture.class, "absent")).endsWith("VisibilityFixture has no absent");
    }

    /** Before: {@code OpenAiPrices.TABLE.find(} was taken for a nested type {@code TABLE} and reported missing. */
    @Test
    void aConstantsMemberIsLookedUpOnTheConstantsType() throws NoSuchFieldException {
        assertThat(isConstantName("TABLE")).isTrue();
        assertThat(isConstantName("Builder")).isFalse();
        assertThat(notCallable(constantType(dev.rein.openai.OpenAiPrices.class, "TABLE"), "find")).isNull();
    }

    /**
     * Why a reader cannot call {@code name} on {@code type}, or null when they can: the type and every type it is nested
     * in are public (in a package that is not {@code internal}), and a method of that name declared on it or inherited
     * is public, or protected on a type an application may extend. A member of any other visibility does not count: a
     * public method made private, or a nested type made package-private, would otherwise still pass here while the
     * reader's code no longer compiles.
     */
    static String notCallable(Class<?> type, String name) {
        for (Class<?> t = type; t != null; t = t.getEnclosingClass()) {
            if (!Modifier.isPublic(t.getModifiers())) {
                return type.getName() + " is not public";
            }
        }
        if (type.getPackageName().contains(".internal")) {
            return type.getName() + " is internal (its package is not exported)";
        }
        List<Method> named = new ArrayList<>();
        List<Class<?>> todo = new ArrayList<>(List.of(type));
        while (!todo.isEmpty()) {
            Class<?> c = todo.remove(todo.size() - 1);
            Arrays.stream(c.getDeclaredMethods()).filter(m -> m.getName().equals(name) && !m.isSynthetic()).forEach(named::add);
            if (c.getSuperclass() != null) {
                todo.add(c.getSuperclass());
            }
            todo.addAll(List.of(c.getInterfaces()));
        }
        if (named.isEmpty()) {
            return type.getName() + " has no " + name;
        }
        boolean extendable = !Modifier.isFinal(type.getModifiers()) && !type.isSealed() && !type.isRecord() && !type.isEnum();
        if (named.stream().anyMatch(m -> Modifier.isPublic(m.getModifiers())
                || (extendable && Modifier.isProtected(m.getModifiers())))) {
            return null;
        }
        return type.getName() + "." + name + " is " + named.stream().map(m -> visibility(m.getModifiers())).distinct()
                .sorted().collect(Collectors.joining(" / ")) + ", not public";
    }

    /** {@code TABLE} of {@code OpenAiPrices.TABLE.find(}: a constant, whose member is its type's, not a nested type. */
    static boolean isConstantName(String name) {
        return name.length() > 1 && name.equals(name.toUpperCase(java.util.Locale.ROOT));
    }

    /** The type of {@code owner}'s public static field {@code name}. */
    static Class<?> constantType(Class<?> owner, String name) throws NoSuchFieldException {
        java.lang.reflect.Field field = owner.getField(name);
        if (!Modifier.isStatic(field.getModifiers())) {
            throw new NoSuchFieldException(name);
        }
        return field.getType();
    }

    private static String visibility(int modifiers) {
        return Modifier.isPrivate(modifiers) ? "private" : Modifier.isProtected(modifiers) ? "protected" : "package-private";
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
