package dev.rein.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.memory.MemoryEntry;
import dev.rein.memory.MemoryStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the JDBC memory stores do beyond {@link MemoryStoreContract}, on SQLite and PostgreSQL alike. */
abstract class JdbcMemoryStoreContract extends MemoryStoreContract {
    /** A connection of its own to the store's database, as a person editing rows outside Rein has. */
    protected abstract Connection otherConnection() throws SQLException;

    private void edit(String sql) throws SQLException {
        try (Connection c = otherConnection(); Statement st = c.createStatement()) {
            st.executeUpdate(sql);
        }
    }

    /**
     * Before: one row whose text was edited outside Rein into something an entry cannot hold (emptied, made
     * longer than 4,000 characters) made list and recall throw IllegalArgumentException ('a memory entry needs
     * text'), so no entry of that user could be listed or recalled, and 'rein memory list' failed.
     */
    @Test
    void rowsEditedOutsideReinAreLeftOutSayingWhyAndTheOthersAreListedAndRecalled() throws SQLException {
        String ok = MemoryStore.newId(), emptied = MemoryStore.newId(), tooLong = MemoryStore.newId();
        for (String id : List.of(ok, emptied, tooLong)) {
            store().remember(entry(id, ACME, "配送先は大阪 " + id, null));
        }
        edit("UPDATE rein_memory SET text = '  ' WHERE id = '" + emptied + "'");
        edit("UPDATE rein_memory SET text = '" + "長".repeat(4_001) + "' WHERE id = '" + tooLong + "'");

        List<String> problems = new ArrayList<>();
        assertThat(((JdbcMemoryStore) store()).list(ACME, problems::add)).extracting(MemoryEntry::id).containsExactly(ok);
        assertThat(problems).hasSize(2);
        assertThat(problems.get(0) + "\n" + problems.get(1))
                .contains("memory entry " + emptied + " of user alice in tenant " + ACME.tenant() + " in ")
                .contains("cannot be read (its text is empty)")
                .contains("memory entry " + tooLong + " ")
                .contains("(its text has 4001 characters, more than an entry holds (4000))")
                .contains("edited outside Rein")
                .contains("rein memory forget --tenant " + ACME.tenant() + " --user alice " + emptied);
        assertThat(store().list(ACME)).as("the listing without a reader of its problems leaves the rows out as well")
                .extracting(MemoryEntry::id).containsExactly(ok);
        assertThat(store().recall(ACME, "大阪", 5, NOW)).extracting(MemoryEntry::id).containsExactly(ok);
        assertThat(store().recall(ACME, "", 5, NOW)).extracting(MemoryEntry::id).containsExactly(ok);
        assertThat(store().forget(ACME, emptied)).as("such a row is forgotten as any other").isTrue();
        assertThat(store().forget(ACME, tooLong)).isTrue();
        assertThat(indexedTerms(tooLong)).isZero();
    }

    /**
     * Before: a tenant or user long enough that an index entry (the tenant, the user and a search term) was more than
     * PostgreSQL's index holds failed remember on PostgreSQL with its own words ('index row size ... exceeds btree version 4 maximum
     * 2704'), while SQLite stored it. Both now store a tenant and a user of up to 800 bytes of UTF-8 each and refuse a
     * longer one before anything is written, saying which, how long and what to do; reads of such a scope find nothing.
     */
    @Test
    void aTenantOrUserOfTheMostBytesIsStoredEverywhereAndALongerOneIsRefusedSayingWhy() {
        String longest = ACME.tenant() + "-" + "組".repeat((JdbcMemoryStore.LONGEST_SCOPE_BYTES - ACME.tenant().length() - 1) / 3);
        longest += "x".repeat(JdbcMemoryStore.LONGEST_SCOPE_BYTES - longest.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
        var widest = new dev.rein.memory.MemoryScope(longest, longest);
        // a term of the most characters, of 4-byte characters: the widest entry the terms' index holds
        String text = "配送先は大阪 " + "🙂".repeat(200);
        String id = MemoryStore.newId();
        store().remember(entry(id, widest, text, null));
        assertThat(store().recall(widest, "大阪", 5, NOW)).extracting(MemoryEntry::id).containsExactly(id);
        assertThat(store().forget(widest, id)).isTrue();

        for (var tooLong : List.of(new dev.rein.memory.MemoryScope(longest + "x", "alice"),
                new dev.rein.memory.MemoryScope(ACME.tenant(), "利用者".repeat(1_000)))) {
            boolean tenant = tooLong.tenant().length() > ACME.tenant().length() + 10;
            String value = tenant ? tooLong.tenant() : tooLong.user();
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store().remember(entry(MemoryStore.newId(), tooLong, text, null)))
                    .isInstanceOf(dev.rein.state.StoreException.class)
                    .hasMessageContaining("the " + (tenant ? "tenant" : "user") + " has "
                            + value.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + " bytes of UTF-8, more than the 800"
                            + " a tenant or user may have in this store (PostgreSQL cannot index a longer one)")
                    .hasMessageNotContaining(value);
            assertThat(store().list(tooLong)).isEmpty();
            assertThat(store().recall(tooLong, "大阪", 5, NOW)).isEmpty();
        }
    }

    /**
     * An earlier Rein stored a tenant of any length on SQLite (and on PostgreSQL what its index held): such a scope's
     * entries are still listed, recalled and forgotten, as docs/memory.md says; only a new entry for it is refused.
     */
    @Test
    void entriesAnEarlierReinStoredUnderALongerTenantAreStillReadAndForgotten() throws SQLException {
        var older = new dev.rein.memory.MemoryScope(ACME.tenant() + "-" + "組".repeat(300), "alice");
        String id = MemoryStore.newId();
        store().remember(entry(id, ACME, "配送先は大阪", null));
        // the rows as an earlier Rein wrote them, without the limit
        edit("UPDATE rein_memory SET tenant = '" + older.tenant() + "' WHERE id = '" + id + "'");
        edit("UPDATE rein_memory_terms SET tenant = '" + older.tenant() + "' WHERE entry_id = '" + id + "'");

        assertThat(store().list(older)).extracting(MemoryEntry::id).containsExactly(id);
        assertThat(store().recall(older, "大阪", 5, NOW)).extracting(MemoryEntry::id).containsExactly(id);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store().remember(entry(MemoryStore.newId(), older, "配送先は京都", null)))
                .isInstanceOf(dev.rein.state.StoreException.class).hasMessageContaining("more than the 800 a tenant or user may have");
        assertThat(store().forget(older, id)).isTrue();
        assertThat(store().list(older)).isEmpty();
        assertThat(indexedTerms(id)).isZero();
    }

    /**
     * Before: recall's SQL limit counted the rows it then left out as unreadable, so a recall of 2 whose two
     * best (or newest) rows had been edited outside Rein returned nothing, though readable entries matched,
     * and each recall warned once per such row however often they were read.
     */
    @Test
    void rowsLeftOutOfARecallDoNotCountAgainstItsLimit() throws SQLException {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String id = MemoryStore.newId();
            ids.add(id);
            // the later an entry, the newer: ids.get(4) is recalled first
            store().remember(new MemoryEntry(id, ACME, "配送先は大阪 " + i, new dev.rein.memory.MemorySource("run_1", null,
                    "conversation"), ACME.user(), NOW.minusSeconds(60 - i), null));
        }
        edit("UPDATE rein_memory SET text = '' WHERE id IN ('" + ids.get(4) + "', '" + ids.get(3) + "', '" + ids.get(1) + "')");

        assertThat(store().recall(ACME, "大阪", 2, NOW)).extracting(MemoryEntry::id).containsExactly(ids.get(2), ids.get(0));
        assertThat(store().recall(ACME, "", 2, NOW)).extracting(MemoryEntry::id).containsExactly(ids.get(2), ids.get(0));
        assertThat(store().recall(ACME, "", 1, NOW)).extracting(MemoryEntry::id).containsExactly(ids.get(2));
        assertThat(store().recall(ACME, "大阪", 5, NOW)).extracting(MemoryEntry::id).containsExactly(ids.get(2), ids.get(0));
        assertThat(store().recall(ACME, "大阪", 0, NOW)).isEmpty();
    }

    /**
     * Before: SQLite kept a tenant, a user or an observation id longer than 200 characters (an OpenID Connect
     * subject may have 255) and PostgreSQL refused them ('value too long for type character varying(200)'), so
     * such a user could remember nothing there.
     */
    @Test
    void longTenantUserAndObservationIdsAreStoredOnEveryDatabase() {
        dev.rein.memory.MemoryScope scope = new dev.rein.memory.MemoryScope(ACME.tenant() + "-" + "t".repeat(250),
                "auth0|" + "u".repeat(250));
        String id = MemoryStore.newId();
        MemoryEntry e = new MemoryEntry(id, scope, "配送先は大阪", new dev.rein.memory.MemorySource("run_" + "r".repeat(250),
                "call_" + "c".repeat(250), "orders-db"), scope.user(), NOW, null);
        store().remember(e);
        assertThat(store().recall(scope, "大阪", 5, NOW)).singleElement().satisfies(found -> {
            assertThat(found.scope()).isEqualTo(scope);
            assertThat(found.source()).isEqualTo(e.source());
            assertThat(found.createdBy()).isEqualTo(scope.user());
        });
        assertThat(store().forget(scope, id)).isTrue();
    }

    @Test
    void listGivenNoConsumerForTheRowsLeftOutIsRefusedUpFront() {
        // before: a NullPointerException after the read, and none at all for a scope holding no row
        store().remember(entry(MemoryStore.newId(), ACME, "配送先は大阪", null));
        for (dev.rein.memory.MemoryScope scope : List.of(ACME, GLOBEX)) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> ((JdbcMemoryStore) store()).list(scope, null))
                    .isInstanceOf(dev.rein.ReinException.class)
                    .hasMessageStartingWith("MemoryStore.list was given no unlisted (null): pass where to say each row left out");
        }
    }
}
