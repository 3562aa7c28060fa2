package dev.rein.examples.code;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.eval.Environment;
import dev.rein.examples.ExampleSetupException;
import dev.rein.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A throw-away project under version control: a temporary directory with a tiny shell project
 * ({@code src/slug.sh} and its tests), {@code git init}-ed, committed on {@code main}, with the
 * agent working on the branch {@value #BRANCH}. A good result is committed there; anything else is
 * discarded with one command. Nothing outside the directory is touched, and nothing needs the
 * network.
 */
public final class GitWorkspace implements Environment {
    public static final String BRANCH = "agent/work";
    static final Duration GIT_TIMEOUT = Duration.ofSeconds(20);

    /** The project: {@code slugify} does not yet strip punctuation or collapse spaces. */
    static final Map<String, String> PROJECT = projectFiles();
    static final String BUGGY_LINE = "printf '%s' \"$1\" | tr '[:upper:]' '[:lower:]' | tr ' ' '-'";
    static final String FIXED_LINE = "printf '%s' \"$1\" | tr '[:upper:]' '[:lower:]' | sed -e 's/[^a-z0-9]\\{1,\\}/-/g' -e 's/^-//' -e 's/-$//'";

    private final Path dir;
    private final Map<String, String> extraFiles;

    public GitWorkspace() {
        this(Map.of());
    }

    /**
     * A workspace with additional (or replaced) files, e.g. a test that hangs.
     *
     * @throws IllegalArgumentException when a path would leave the project ({@code ../x}, an
     *                                  absolute path, {@code .git/...}): it is written nowhere
     */
    public GitWorkspace(Map<String, String> extraFiles) {
        Map<String, String> normal = new TreeMap<>();
        // the sandbox's one path rule, before anything is written: the files are joined to the workspace's directory
        extraFiles.forEach((path, text) -> normal.put(WorkspacePaths.projectFile(path), text));
        this.extraFiles = Map.copyOf(normal);
        try {
            this.dir = Files.createTempDirectory("rein-code-");
        } catch (IOException e) {
            throw ExampleSetupException.noTemporaryDirectory("the workspace", e);
        }
        reset();
    }

    public Path dir() {
        return dir;
    }

    @Override
    public synchronized void reset() {
        try {
            deleteContents();
            Map<String, String> files = new TreeMap<>(PROJECT);
            files.putAll(extraFiles);
            for (Map.Entry<String, String> file : files.entrySet()) {
                Path path = dir.resolve(file.getKey());
                Files.createDirectories(path.getParent());
                Files.writeString(path, file.getValue(), StandardCharsets.UTF_8);
            }
            git("init", "-q", "-b", "main");
            git("add", "-A");
            git("-c", "user.name=Rein example", "-c", "user.email=agent@example.invalid", "commit", "-q", "-m", "Initial project");
            git("checkout", "-q", "-b", BRANCH);
        } catch (IOException e) {
            throw new ExampleSetupException("cannot write the project into " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Commits every change on the work branch; returns the commit's one-line summary. */
    public synchronized String commit(String message) {
        git("add", "-A");
        git("-c", "user.name=Rein agent", "-c", "user.email=agent@example.invalid", "commit", "-q", "-m", message);
        return git("log", "--oneline", "-1").strip();
    }

    /** Throws away every uncommitted change, staged or not, and every new file (the sandbox's undo). */
    public synchronized void discard() {
        git("reset", "-q", "--hard", "HEAD");
        git("clean", "-q", "-fd");
    }

    /** The uncommitted change as a unified diff (empty when there is none). */
    public synchronized String diff() {
        return git("diff");
    }

    /**
     * The working tree's files (without .git), path to content. A file is listed only when
     * {@link WorkspacePaths} resolves it, so a symbolic link out of the workspace is never read.
     */
    public synchronized Map<String, String> files() {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                String rel = dir.relativize(p).toString().replace('\\', '/');
                Path real;
                try {
                    real = WorkspacePaths.resolve(dir, rel);
                } catch (IllegalArgumentException e) {
                    continue; // under .git, or a link out of the workspace
                }
                files.put(rel, Files.readString(real, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }

    /** True when the project's test scripts all pass now. */
    public boolean testsPass() {
        try {
            return TestRunner.run(dir, TestRunner.DEFAULT_TIMEOUT).passed();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** True when no file under tests/ differs from the committed project. */
    public boolean testsUnchanged() {
        Map<String, String> files = files();
        return PROJECT.keySet().stream().filter(p -> p.startsWith("tests/"))
                .allMatch(p -> PROJECT.get(p).equals(files.get(p)));
    }

    @Override
    public synchronized JsonNode snapshot() {
        ObjectNode state = Json.object();
        state.put("branch", git("rev-parse", "--abbrev-ref", "HEAD").strip());
        state.set("files", Json.mapper().valueToTree(new LinkedHashMap<>(files())));
        return state;
    }

    @Override
    public void close() {
        try {
            deleteContents();
            Files.deleteIfExists(dir);
        } catch (IOException | UncheckedIOException e) {
            // A leftover temporary directory is not worth failing for.
        }
    }

    String git(String... args) {
        List<String> command = new ArrayList<>();
        command.add("git");
        command.addAll(List.of(args));
        try {
            ProcessRunner.Outcome outcome = ProcessRunner.run(command, dir, GIT_TIMEOUT, 200_000);
            if (!outcome.ok()) {
                throw new ExampleSetupException("'git " + String.join(" ", args) + "' failed in " + dir + ": " + outcome.output().strip());
            }
            return outcome.output();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ExampleSetupException("interrupted while running git");
        }
    }

    private void deleteContents() throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                if (!p.equals(dir)) {
                    Files.delete(p);
                }
            }
        }
    }

    private static Map<String, String> projectFiles() {
        Map<String, String> files = new TreeMap<>();
        files.put("README.md", """
                # slug

                `slugify TEXT` turns a title into a URL slug: lower-case letters and digits, words joined by single
                hyphens, no leading or trailing hyphen. Run the tests with `sh tests/test_slug.sh`.
                """);
        files.put("src/slug.sh", """
                #!/bin/sh
                # slugify TEXT: a URL slug of TEXT (lower-case letters and digits joined by single hyphens).
                slugify() {
                  %s
                }
                """.formatted(BUGGY_LINE));
        files.put("tests/test_slug.sh", """
                #!/bin/sh
                . "$(dirname "$0")/../src/slug.sh"
                fail=0
                check() {
                  got=$(slugify "$1")
                  if [ "$got" = "$2" ]; then
                    echo "ok   slugify '$1' = '$2'"
                  else
                    echo "FAIL slugify '$1': expected '$2', got '$got'"
                    fail=1
                  fi
                }
                check "Hello World" "hello-world"
                check "Hello, World!" "hello-world"
                check "  Rein   agents  " "rein-agents"
                check "Version 2.0" "version-2-0"
                exit $fail
                """);
        return Map.copyOf(files);
    }
}
