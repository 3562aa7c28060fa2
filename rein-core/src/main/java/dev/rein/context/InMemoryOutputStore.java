package dev.rein.context;

import dev.rein.json.Hashing;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** An {@link OutputStore} in memory. */
public final class InMemoryOutputStore implements OutputStore {
    private final Map<String, String> contents = new ConcurrentHashMap<>();

    @Override
    public String put(String content) {
        String hash = Hashing.sha256(content);
        contents.putIfAbsent(hash, content);
        return hash;
    }

    @Override
    public Optional<String> get(String sha256) {
        return Optional.ofNullable(contents.get(sha256));
    }

    @Override
    public String location(String sha256) {
        return "memory";
    }

    /** How many outputs are stored. */
    public int size() {
        return contents.size();
    }
}
