package dev.rein.internal.text;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Why a file could not be written, in words: a file system exception's message is often the path alone. */
public final class FileProblems {
    private FileProblems() {}

    /** What {@code e} says went wrong, for a message that already names the file. */
    public static String why(IOException e) {
        if (e instanceof FileAlreadyExistsException exists && exists.getFile() != null && Files.exists(Path.of(exists.getFile()))
                && !Files.isDirectory(Path.of(exists.getFile()))) {
            return exists.getFile() + " is a file, not a directory"; // a folder on the way is a file
        } else if (e instanceof AccessDeniedException denied) {
            return "permission denied for " + denied.getFile();
        } else if (e instanceof NoSuchFileException missing) {
            String dangling = danglingLink(missing.getFile());
            return dangling != null ? dangling : "no such file or directory: " + missing.getFile();
        } else if (e instanceof FileSystemException fs && fs.getReason() != null) {
            String inTheWay = "Not a directory".equals(fs.getReason()) ? fileOnTheWay(fs.getFile()) : null;
            return inTheWay != null ? inTheWay + " is a file, not a directory" : fs.getReason() + ": " + fs.getFile();
        }
        return e.getMessage();
    }

    /**
     * {@code path}, or a folder on its way, when it is a symbolic link whose target does not exist, said so
     * (the file system says only "no such file" of a name that {@code ls} shows); null when none is.
     */
    public static String danglingLink(String path) {
        if (path == null) {
            return null;
        }
        for (Path p = Path.of(path); p != null; p = p.getParent()) {
            if (Files.isSymbolicLink(p) && !Files.exists(p)) {
                try {
                    Path target = Files.readSymbolicLink(p);
                    Path where = p.toAbsolutePath().resolveSibling(target).normalize();
                    return p + " is a symbolic link to " + target + (target.isAbsolute() ? "" : " (" + where + ")")
                            + ", which does not exist (the link's target is missing)";
                } catch (IOException | UnsupportedOperationException | SecurityException e) {
                    return p + " is a symbolic link whose target is missing";
                }
            }
        }
        return null;
    }

    /** The nearest existing folder of {@code path} (or the path itself) when it is a file after all, or null. */
    public static String fileOnTheWay(String path) {
        if (path == null) {
            return null;
        }
        for (Path p = Path.of(path); p != null; p = p.getParent()) {
            if (Files.exists(p)) {
                return Files.isDirectory(p) ? null : p.toString();
            }
        }
        return null;
    }
}
