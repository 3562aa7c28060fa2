package dev.rein.context;

import dev.rein.json.Hashing;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An {@link OutputStore} on disk: {@code <directory>/<first two hex digits>/<sha256>.txt}, UTF-8.
 * Each file is written to a temporary name and moved into place, so a reader or a crash never sees
 * half a file.
 */
public final class DirectoryOutputStore implements OutputStore {
    private static final Pattern HASH = Pattern.compile("[0-9a-f]{64}");

    private final Path directory;

    public DirectoryOutputStore(Path directory) {
        this.directory = directory.toAbsolutePath();
    }

    @Override
    public String put(String content) {
        String hash = Hashing.sha256(content);
        Path file = file(hash);
        if (Files.exists(file)) {
            return hash;
        }
        try {
            Files.createDirectories(file.getParent());
            Path temp = Files.createTempFile(file.getParent(), hash, ".tmp");
            try {
                Files.writeString(temp, content, StandardCharsets.UTF_8);
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(temp);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot store tool output in " + directory + ": " + e.getMessage(), e);
        }
        return hash;
    }

    @Override
    public Optional<String> get(String sha256) {
        if (!HASH.matcher(sha256).matches()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Files.readString(file(sha256), StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read stored tool output " + sha256 + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String location(String sha256) {
        return file(sha256).toString();
    }

    private Path file(String hash) {
        return directory.resolve(hash.substring(0, 2)).resolve(hash + ".txt");
    }
}
