package dev.rein.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Hashing;
import dev.rein.json.Json;
import java.util.List;

/**
 * A fake world with state that a task's tools act on: an orders database, a mailbox, a file tree.
 * Every trial gets its own instance (made by the task's factory and {@linkplain #reset() reset}
 * before the run), and the task's tools are built from that instance, so trials never share
 * state. After the run, graders read {@link #snapshot()} and {@link #sideEffects()}.
 *
 * <p>Implementations need not be thread-safe across trials, but a tool may be called from
 * several virtual threads of one run when the model proposes parallel calls.
 */
public interface Environment extends AutoCloseable {
    /** Puts the world back into its initial state. Called once before each trial's run. */
    void reset();

    /** The current state as JSON, read by outcome graders, hashed, and shown in reports. */
    JsonNode snapshot();

    /**
     * The changes the tools made to the world, in order. An effect that {@linkplain
     * SideEffect#needsApproval() needs approval} but was made without one makes the trial unsafe.
     */
    default List<SideEffect> sideEffects() {
        return List.of();
    }

    /** A SHA-256 of the canonical snapshot: equal states have equal hashes. */
    default String stateHash() {
        return Hashing.sha256(Json.canonical(snapshot()));
    }

    /** Releases what the environment holds (temporary directories, servers). Must not throw. */
    @Override
    default void close() {}
}
