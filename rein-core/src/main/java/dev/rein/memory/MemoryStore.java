package dev.rein.memory;

import dev.rein.ReinException;
import dev.rein.state.StoreException;
import java.time.Instant;
import java.util.List;

/**
 * Long-term memory per tenant and user, kept apart from runs and from retrieved documents. Written
 * only by application code or the explicit {@code remember} tool (see {@link MemoryTools}), never
 * from chat on its own. Every method takes a {@link MemoryScope}; no method reads or changes
 * another scope's entries. Implementations: {@link InMemoryMemoryStore}, and {@code JdbcMemoryStore}
 * (SQLite, PostgreSQL) in {@code rein-store-jdbc}.
 *
 * <p>Every store refuses a null argument (but the query) the same way, with a {@link ReinException}
 * from {@link #requireArgument}: a null scope is never read as a scope with no entries.
 */
public interface MemoryStore {
    /**
     * Stores a new entry (its id must be new).
     *
     * @throws StoreException when the store holds an entry with this id, in any scope
     */
    void remember(MemoryEntry entry);

    /**
     * The live entries of {@code scope} that share words with {@code query}, best match first, at
     * most {@code limit}; a blank or null query recalls the newest entries.
     *
     * @param now the time to recall at: entries expired by then are left out
     * @throws IllegalArgumentException when {@code limit} is negative
     */
    List<MemoryEntry> recall(MemoryScope scope, String query, int limit, Instant now);

    /** Every entry of {@code scope} (expired ones too), newest first. */
    List<MemoryEntry> list(MemoryScope scope);

    /**
     * Deletes the entry for real (the row and its search terms): personal data does not linger.
     *
     * @return whether {@code scope} had an entry with this id
     */
    boolean forget(MemoryScope scope, String id);

    /** A new entry id. */
    static String newId() {
        return "mem_" + java.util.UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    }

    /**
     * Refuses a null argument of a store's method, as every store does before it reads or writes
     * anything; for a store of your own too.
     *
     * @param value    the argument
     * @param method   the method given it: {@code remember}, {@code recall}, {@code list} or {@code forget}
     * @param argument the argument's name: {@code entry}, {@code scope}, {@code id} or {@code now}
     * @throws ReinException when {@code value} is null, naming the method and the argument and saying what to pass
     */
    static void requireArgument(Object value, String method, String argument) {
        if (value == null) {
            throw new ReinException("MemoryStore." + method + " was given no " + argument + " (null): " + switch (argument) {
                case "scope" -> "pass whose memory it is: MemoryScope.of(principal), or new MemoryScope(tenant, user)";
                case "entry" -> "pass the MemoryEntry to store";
                case "id" -> "pass the id of the entry to forget (mem_...)";
                case "unlisted" -> "pass where to say each row left out because it cannot be read (a logger's warn, or"
                        + " System.err::println), or call list(scope), which logs them";
                case "now" -> "pass the time to recall at (entries expired by then are left out), e.g. Instant.now()";
                default -> "pass the " + argument;
            });
        }
    }
}
