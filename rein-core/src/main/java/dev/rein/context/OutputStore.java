package dev.rein.context;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Keeps full tool outputs out of band, addressed by their SHA-256, so truncating or clearing what
 * the model sees loses nothing. Implementations are thread-safe (parallel tool calls store
 * concurrently) and idempotent (storing the same content twice keeps one copy).
 */
public interface OutputStore {

    /**
     * Stores {@code content} and returns its SHA-256 (lowercase hex).
     *
     * @throws java.io.UncheckedIOException when the content cannot be stored
     */
    String put(String content);

    /** The content stored under {@code sha256}, if any. */
    Optional<String> get(String sha256);

    /** Where {@code sha256} is kept, for the trace: a file path, or "memory". */
    String location(String sha256);

    /** A store in this process's memory (lost when the process ends). */
    static OutputStore inMemory() {
        return new InMemoryOutputStore();
    }

    /** A store writing one UTF-8 file per output under {@code directory} (created if missing). */
    static OutputStore directory(Path directory) {
        return new DirectoryOutputStore(directory);
    }
}
