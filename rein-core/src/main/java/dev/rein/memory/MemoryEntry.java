package dev.rein.memory;

import dev.rein.ReinException;
import dev.rein.internal.text.LoneSurrogates;
import dev.rein.security.UntrustedData;
import java.time.Instant;

/**
 * One long-term memory entry.
 *
 * @param id        the store's id, {@code mem_...}: not blank, at most {@value #MAX_ID_CHARS} characters, no U+0000
 *                  (nor half a surrogate pair, in any of the entry's strings)
 * @param scope     whose memory it is (tenant and user)
 * @param text      what is remembered: not blank, at most {@value #MAX_TEXT_CHARS} characters, no U+0000
 * @param source    where it came from (run, observation, the observation's source)
 * @param createdBy who wrote it: the user on whose behalf a run remembered it, or the application
 * @param createdAt when it was written, held to the millisecond (a finer part is dropped, as every store keeps it)
 * @param expiresAt when it stops being recalled and may be purged, or null for never; held to the millisecond too, so
 *                  every store stops recalling it at the same instant (both instants within the milliseconds since
 *                  1970 a {@code long} holds: {@code Instant.MAX} is refused, give null for never)
 * @throws ReinException when a part is null (but {@code expiresAt}), or the id or text is blank, too long or holds U+0000,
 *                       or a string of it holds half a UTF-16 surrogate pair
 */
public record MemoryEntry(String id, MemoryScope scope, String text, MemorySource source, String createdBy,
                          Instant createdAt, Instant expiresAt) {
    /** The most characters (Unicode code points) one entry may hold. */
    public static final int MAX_TEXT_CHARS = 4_000;
    /**
     * The most characters (Unicode code points) an entry's id may have, on every store alike: the width of the
     * id column of the JDBC store's tables (PostgreSQL enforces it; SQLite and the in-memory store would not).
     */
    public static final int MAX_ID_CHARS = 64;

    public MemoryEntry {
        given(id, "id", "give it one, such as MemoryStore.newId()");
        given(scope, "scope", "give whose memory it is, e.g. MemoryScope.of(principal)");
        given(text, "text", "give the statement to remember");
        given(source, "source", "give where it came from, e.g. MemorySource.application(\"crm\")");
        given(createdBy, "createdBy", "give who wrote it: the user, or the application's name");
        given(createdAt, "createdAt", "give when it was written, e.g. Instant.now()");
        // held in milliseconds, as the JDBC store keeps them: every store reads back the entry it was given, and
        // ends its recall at the same instant (the SQL store compares milliseconds)
        keepable("createdAt", createdAt, "give when it was written, e.g. Instant.now()");
        keepable("expiresAt", expiresAt, "give null for an entry that never expires");
        createdAt = createdAt.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        expiresAt = expiresAt == null ? null : expiresAt.truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        if (id.isBlank()) {
            throw new ReinException("a memory entry needs an id; give it one, such as MemoryStore.newId()");
        }
        int idCharacters = id.codePointCount(0, id.length());
        if (idCharacters > MAX_ID_CHARS) {
            // refused here, so that every store takes the same ids (PostgreSQL's column would refuse it, SQLite's not)
            throw new ReinException("a memory entry's id has at most " + MAX_ID_CHARS + " characters, this one has "
                    + idCharacters + "; give it a shorter id, such as MemoryStore.newId()");
        }
        // PostgreSQL's text cannot hold NUL, SQLite's can: refused here, so that every store takes the same entries
        refuseNul("id", id, "give it an id without it, such as MemoryStore.newId()");
        for (String[] field : new String[][] {{"tenant", scope.tenant()}, {"user", scope.user()}, {"source", source.source()},
                {"source run", source.runId()}, {"source observation", source.observation()}, {"createdBy", createdBy}}) {
            refuseNul(field[0], field[1], "give it without it");
        }
        if (text.isBlank()) {
            throw new ReinException("a memory entry needs text; give the statement to remember");
        }
        refuseNul("text", text, "remember the statement without it");
        // counted as the remember tool's schema counts them (maxLength: code points), so an emoji is one
        int characters = text.codePointCount(0, text.length());
        if (characters > MAX_TEXT_CHARS) {
            throw new ReinException("a memory entry holds at most " + MAX_TEXT_CHARS + " characters, this one has "
                    + characters + "; remember a shorter statement");
        }
    }

    /** Refuses an instant outside the milliseconds since 1970 a long holds (null passes), which no SQL store keeps. */
    private static void keepable(String what, Instant value, String advice) {
        if (value != null && (value.isAfter(LATEST) || value.isBefore(EARLIEST))) {
            throw new ReinException("a memory entry's " + what + " (" + value + ") is " + (value.isAfter(LATEST)
                    ? "later than any store can keep (" + LATEST : "earlier than any store can keep (" + EARLIEST) + "); " + advice);
        }
    }

    private static final Instant LATEST = Instant.ofEpochMilli(Long.MAX_VALUE);
    private static final Instant EARLIEST = Instant.ofEpochMilli(Long.MIN_VALUE);

    private static void given(Object value, String what, String advice) {
        if (value == null) {
            throw new ReinException("a memory entry was given no " + what + " (null); " + advice);
        }
    }

    /**
     * Refuses a NUL character in {@code value} (null passes), and half a UTF-16 surrogate pair, which has no UTF-8 form
     * (the JDBC drivers would store it as '?'), naming where it is in characters as the limits count them (code points).
     */
    private static void refuseNul(String what, String value, String advice) {
        int at = value == null ? -1 : value.indexOf('\u0000');
        if (at >= 0) {
            throw new ReinException("a memory entry's " + what + " cannot hold the NUL character (U+0000), at character "
                    + value.codePointCount(0, at) + "; " + advice);
        }
        int half = value == null ? -1 : LoneSurrogates.first(value);
        if (half >= 0) {
            throw new ReinException("a memory entry's " + what + " cannot hold " + LoneSurrogates.describe(value, half)
                    + ", which no store can keep; " + advice);
        }
    }

    /** Whether the entry is still recalled at {@code now}. */
    public boolean liveAt(Instant now) {
        return expiresAt == null || now.isBefore(expiresAt);
    }

    /**
     * The entry as the model sees it: wrapped as untrusted data, its provenance in the wrapper, so
     * that an instruction written into a memory reads as data.
     */
    public String asUntrustedData() {
        return UntrustedData.wrapRetrieved(text, "memory " + id + " · " + provenance());
    }

    /** Where the entry came from, who wrote it and when, in one line. */
    public String provenance() {
        return "from " + source.describe() + " · remembered by " + createdBy + " at " + createdAt
                + (expiresAt == null ? "" : " · expires " + expiresAt);
    }
}
