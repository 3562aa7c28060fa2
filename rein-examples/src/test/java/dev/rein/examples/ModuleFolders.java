package dev.rein.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** The checkout's module folders, for the tests that check every module (its exports, its place in the build). */
final class ModuleFolders {
    private ModuleFolders() {}

    /** The checkout's root: the tests run in rein-examples, one folder below it. */
    static Path root() {
        return Path.of("..").toAbsolutePath().normalize();
    }

    /** Every {@code rein-*} folder of {@code root} with a pom.xml, sorted by name. */
    static List<Path> under(Path root) throws IOException {
        try (Stream<Path> children = Files.list(root)) {
            return children.filter(m -> Files.isRegularFile(m.resolve("pom.xml")))
                    .filter(m -> m.getFileName().toString().startsWith("rein-"))
                    .sorted()
                    .toList();
        }
    }
}
