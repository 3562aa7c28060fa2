package dev.rein.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * On the module path rein-core is a named module exporting its API only, and every other Rein jar is an automatic
 * module named by its {@code Automatic-Module-Name}. A module whose code uses one of rein-core's internal packages
 * then fails with {@code IllegalAccessError} unless rein-core exports that package to it by that name (an OpenRouter
 * error through rein-anthropic did, found in review). This keeps the three in step: the names the poms give, the
 * internal packages each module's code uses, and rein-core's qualified exports.
 */
class ModulePathExportsTest {
    private static final Pattern NAME = Pattern.compile("<rein\\.automaticModuleName>([^<]+)</rein\\.automaticModuleName>");
    private static final Pattern INTERNAL = Pattern.compile("\\bdev\\.rein\\.internal((?:\\.[a-z][a-z0-9]*)+)\\.(?:[A-Z]|\\*)");

    @Test
    void everyInternalPackageAModuleUsesIsExportedToItByTheNameItsJarCarriesAndToNoOneElse() throws IOException {
        Map<String, String> names = new TreeMap<>(); // module folder -> Automatic-Module-Name
        Map<String, Set<String>> uses = new TreeMap<>(); // internal package -> module names using it
        for (Path module : ModuleFolders.under(ModuleFolders.root())) {
            Matcher name = NAME.matcher(Files.readString(module.resolve("pom.xml")));
            assertThat(name.find()).as(module.getFileName() + "/pom.xml sets rein.automaticModuleName").isTrue();
            names.put(module.getFileName().toString(), name.group(1));
            if (module.getFileName().toString().equals("rein-core") || !Files.isDirectory(module.resolve("src/main/java"))) {
                continue;
            }
            try (Stream<Path> sources = Files.walk(module.resolve("src/main/java"))) {
                for (Path source : sources.filter(p -> p.toString().endsWith(".java")).toList()) {
                    Matcher used = INTERNAL.matcher(Files.readString(source));
                    while (used.find()) {
                        uses.computeIfAbsent("dev.rein.internal" + used.group(1), p -> new TreeSet<>()).add(name.group(1));
                    }
                }
            }
        }
        assertThat(names).containsKeys("rein-core", "rein-anthropic", "rein-openai", "rein-mcp");
        assertThat(uses).as("some module uses rein-core's internals (else this test checks nothing)").isNotEmpty();

        ModuleDescriptor core = coreDescriptor();
        Map<String, Set<String>> exported = core.exports().stream().filter(e -> e.source().startsWith("dev.rein.internal"))
                .collect(Collectors.toMap(ModuleDescriptor.Exports::source, e -> new TreeSet<>(e.targets())));
        List<String> wrong = new ArrayList<>();
        uses.forEach((pkg, users) -> {
            Set<String> targets = exported.getOrDefault(pkg, Set.of());
            for (String user : users) {
                if (!targets.contains(user)) {
                    wrong.add(pkg + " is used by " + user + " but not exported to it in rein-core's module-info.java");
                }
            }
        });
        exported.forEach((pkg, targets) -> {
            if (targets.isEmpty()) {
                wrong.add(pkg + " is exported to everyone: export it only to the modules that use it");
            }
            for (String target : targets) {
                if (!names.containsValue(target)) {
                    wrong.add(pkg + " is exported to " + target + ", which no module of the build is named");
                }
            }
        });
        assertThat(wrong).isEmpty();
    }

    /** rein-core's compiled module descriptor, from its jar or classes folder. */
    private static ModuleDescriptor coreDescriptor() throws IOException {
        Path location;
        try {
            location = Path.of(Agent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        if (Files.isDirectory(location)) {
            try (InputStream in = Files.newInputStream(location.resolve("module-info.class"))) {
                return ModuleDescriptor.read(in);
            }
        }
        try (FileSystem jar = FileSystems.newFileSystem(URI.create("jar:" + location.toUri()), Map.of());
             InputStream in = Files.newInputStream(jar.getPath("module-info.class"))) {
            return ModuleDescriptor.read(in);
        }
    }
}
