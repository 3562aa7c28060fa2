package dev.rein.examples.code;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * The one place where a path named by the model becomes a file of the workspace. Every tool and
 * check goes through it, so none can be fooled by a spelling the others reject: the path is
 * normalised ({@code ././tests/x}, {@code src//../tests/x} and {@code tests/x} are one path) before
 * any decision, and the file's real location (symbolic links followed) must stay inside the
 * workspace and outside {@code .git}.
 */
final class WorkspacePaths {
    private WorkspacePaths() {}

    /**
     * {@code relative} normalised to the workspace-relative form every check compares, with forward
     * slashes ({@code src/slug.sh}); refuses absolute paths, {@code ..} above the root and the like.
     */
    static String normalize(String relative) {
        String given = relative == null ? "" : relative.strip();
        if (given.isEmpty() || given.startsWith("/") || given.contains("\\") || given.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("'" + relative + "' is not a relative path inside the project");
        }
        Path normal;
        try {
            normal = Path.of(given).normalize();
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("'" + relative + "' is not a relative path inside the project");
        }
        String text = normal.toString().replace('\\', '/');
        if (normal.isAbsolute() || text.isEmpty() || text.equals("..") || text.startsWith("../")) {
            throw new IllegalArgumentException("'" + relative + "' is outside the project's files");
        }
        return text;
    }

    /**
     * {@code relative} normalised as a file the project may hold (not under {@code .git}): the rule
     * for files put into a new workspace, which does not exist yet to resolve links in.
     */
    static String projectFile(String relative) {
        String normal = normalize(relative);
        if (inGit(normal)) {
            throw new IllegalArgumentException("'" + relative + "' is outside the project's files");
        }
        return normal;
    }

    /** The real file {@code relative} names inside the workspace at {@code root}; refuses anything that would leave it. */
    static Path resolve(Path root, String relative) throws IOException {
        Path realRoot = root.toRealPath();
        String normal = normalize(relative);
        if (inGit(normal)) {
            throw new IllegalArgumentException("'" + relative + "' is outside the project's files");
        }
        Path path = realRoot.resolve(normal);
        if (!Files.isRegularFile(path)) {
            throw new IllegalArgumentException("no file '" + relative + "'; list_files shows the project's files");
        }
        Path real = path.toRealPath();
        if (!real.startsWith(realRoot) || inGit(realRoot.relativize(real).toString().replace('\\', '/'))) {
            throw new IllegalArgumentException("'" + relative + "' links outside the project");
        }
        return real;
    }

    /**
     * True when {@code relative} names something under {@code dir} of the workspace: by its
     * normalised spelling, or by where it really is (a link into {@code dir} counts).
     */
    static boolean isUnder(Path root, String relative, String dir) {
        String normal = normalize(relative);
        if (normal.equals(dir) || normal.startsWith(dir + "/")) {
            return true;
        }
        try {
            Path realRoot = root.toRealPath();
            Path real = realRoot.resolve(normal).toRealPath();
            String where = realRoot.relativize(real).toString().replace('\\', '/');
            return real.startsWith(realRoot) && (where.equals(dir) || where.startsWith(dir + "/"));
        } catch (IOException e) {
            return false; // nothing there yet: the spelling decided
        }
    }

    private static boolean inGit(String normal) {
        return normal.equals(".git") || normal.startsWith(".git/");
    }
}
