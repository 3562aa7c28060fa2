package dev.rein.testkit;

import dev.rein.context.OutputStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Optional;

/** An output store whose every write fails ("disk full"), for tests of what is kept when storing fails. */
public final class BrokenOutputStore implements OutputStore {
    @Override
    public String put(String content) {
        throw new UncheckedIOException(new IOException("disk full"));
    }

    @Override
    public Optional<String> get(String sha256) {
        return Optional.empty();
    }

    @Override
    public String location(String sha256) {
        return "nowhere";
    }
}
