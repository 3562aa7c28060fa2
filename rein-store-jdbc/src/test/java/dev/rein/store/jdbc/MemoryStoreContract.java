package dev.rein.store.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.memory.MemoryEntry;
import dev.rein.memory.MemoryScope;
import dev.rein.memory.MemorySource;
import dev.rein.memory.MemoryStore;
import dev.rein.memory.MemoryTerms;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** What every {@link MemoryStore} must do; each store's test supplies a fresh store. */
abstract class MemoryStoreContract {
    // tenants of their own per test: a server-backed store may be shared by the tests of a class
    private final String suffix = java.util.UUID.randomUUID().toString().substring(0, 8);
    final MemoryScope ACME = new MemoryScope("acme-" + suffix, "alice");
    final MemoryScope GLOBEX = new MemoryScope("globex-" + suffix, "alice");
    static final Instant NOW = Instant.parse("2026-12-01T12:00:00Z");

    protected abstract MemoryStore store();

    /** How many search terms the store still holds for an entry, or -1 when it has no separate index. */
    protected abstract int indexedTerms(String id);

    static MemoryEntry entry(String id, MemoryScope scope, String text, Instant expires) {
        return new MemoryEntry(id, scope, text, new MemorySource("run_1", "toolu_1_1", "orders-db:A-104"), scope.user(),
                NOW.minusSeconds(60), expires);
    }

    @Test
    void recallsByWordsWithProvenanceAndJapaneseText() {
        String id = MemoryStore.newId();
        store().remember(entry(id, ACME, "A-104 の配送先は大阪です", null));
        assertThat(store().recall(ACME, "大阪", 5, NOW)).singleElement().satisfies(e -> {
            assertThat(e.text()).isEqualTo("A-104 の配送先は大阪です");
            assertThat(e.source()).isEqualTo(new MemorySource("run_1", "toolu_1_1", "orders-db:A-104"));
            assertThat(e.createdBy()).isEqualTo("alice");
        });
        assertThat(store().recall(ACME, "a-104", 5, NOW)).hasSize(1);
        assertThat(store().recall(ACME, "東京", 5, NOW)).isEmpty();
    }

    /**
     * Before: an id longer than 64 characters was refused by the PostgreSQL store alone ('value too long for type
     * character varying(64)', its column's width), while SQLite and the in-memory store took it: an application
     * that worked on SQLite failed once moved to PostgreSQL.
     */
    @Test
    void anIdOfTheMostCharactersIsStoredEverywhereAndALongerOneIsRefusedBeforeAnyStoreSeesIt() {
        String longest = "mem_顧客🙂" + "x".repeat(MemoryEntry.MAX_ID_CHARS - 7);
        assertThat(longest.codePointCount(0, longest.length())).isEqualTo(MemoryEntry.MAX_ID_CHARS);
        store().remember(entry(longest, ACME, "配送先は大阪", null));
        assertThat(store().list(ACME)).extracting(MemoryEntry::id).containsExactly(longest);
        assertThat(store().forget(ACME, longest)).isTrue();

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> entry(longest + "x", ACME, "配送先は大阪", null))
                .isInstanceOf(dev.rein.ReinException.class)
                .hasMessage("a memory entry's id has at most " + MemoryEntry.MAX_ID_CHARS + " characters, this one has "
                        + (MemoryEntry.MAX_ID_CHARS + 1) + "; give it a shorter id, such as MemoryStore.newId()");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> entry(" ", ACME, "配送先は大阪", null))
                .isInstanceOf(dev.rein.ReinException.class).hasMessageContaining("needs an id");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> entry("mem_\u0000", ACME, "配送先は大阪", null))
                .isInstanceOf(dev.rein.ReinException.class).hasMessageContaining("NUL character");
        assertThat(store().list(ACME)).isEmpty();
    }

    /**
     * Before: a NUL character (U+0000) in an entry's source, tenant, user or author was refused by the PostgreSQL store
     * alone at remember ('invalid byte sequence for encoding "UTF8": 0x00'), while SQLite and the in-memory store took it;
     * the entry's text was already refused on every store.
     */
    @Test
    void aNulCharacterInAnyOfAnEntrysWordsIsRefusedBeforeAnyStoreSeesIt() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new MemoryEntry(MemoryStore.newId(), ACME, "配送先は大阪",
                        MemorySource.application("crm\u0000export"), "alice", NOW, null))
                .isInstanceOf(dev.rein.ReinException.class)
                .hasMessage("a memory entry's source cannot hold the NUL character (U+0000), at character 3; give it without it");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> entry(MemoryStore.newId(), new MemoryScope(ACME.tenant(), "ali\u0000ce"),
                "配送先は大阪", null)).isInstanceOf(dev.rein.ReinException.class).hasMessageContaining("user cannot hold the NUL");
        assertThat(store().list(ACME)).isEmpty();
    }

    /**
     * Half a surrogate pair has no UTF-8 form: the JDBC drivers wrote it as '?', so the entry read back was not the one
     * remembered, and a scope holding one read the entries of the scope with '?' in its place.
     */
    @Test
    void halfASurrogatePairIsRefusedInAnEntryAndAScopeHoldingOneReadsNothingOfAnotherScope() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store().remember(entry(MemoryStore.newId(), ACME,
                        "顧客は絵文字 \ud83d を途中で切った", null)))
                .isInstanceOf(dev.rein.ReinException.class).hasMessageContaining("text")
                .hasMessageContaining("half a UTF-16 surrogate pair (U+D83D alone, at character 7");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store().remember(entry(MemoryStore.newId(),
                        new MemoryScope(ACME.tenant(), "bob\udc00"), "メール希望", null)))
                .isInstanceOf(dev.rein.ReinException.class).hasMessageContaining("user").hasMessageContaining("U+DC00");
        MemoryScope question = new MemoryScope(ACME.tenant(), "bob?");
        String id = MemoryStore.newId();
        store().remember(entry(id, question, "bob? はメール希望 🚚", null));
        MemoryScope half = new MemoryScope(ACME.tenant(), "bob\ud83d");
        assertThat(store().list(half)).isEmpty();
        assertThat(store().recall(half, "メール", 5, NOW)).isEmpty();
        assertThat(store().recall(half, null, 5, NOW)).isEmpty();
        assertThat(store().forget(half, id)).isFalse();
        assertThat(store().list(question)).extracting(MemoryEntry::text).containsExactly("bob? はメール希望 🚚");
    }

    /** Probe: mixed-script text ranks by shared words, full-width and half-width forms alike (NFKC), newest first on a tie. */
    @Test
    void mixedScriptTextRanksTheEntrySharingTheMostWordsFirst() {
        store().remember(new MemoryEntry("mem_mix1", ACME, "注文 A-104 の配送先は大阪の倉庫です", new MemorySource("run_1", null, "crm"),
                "alice", NOW.minusSeconds(300), null));
        store().remember(new MemoryEntry("mem_mix2", ACME, "注文 A-105 の請求書は東京宛て", new MemorySource("run_1", null, "crm"),
                "alice", NOW.minusSeconds(200), null));
        store().remember(new MemoryEntry("mem_mix3", ACME, "iPhone 15 の返品は30日以内", new MemorySource("run_1", null, "crm"),
                "alice", NOW.minusSeconds(100), null));
        assertThat(store().recall(ACME, "Ａ－１０４ の配送先", 3, NOW)).first().extracting(MemoryEntry::id).isEqualTo("mem_mix1");
        assertThat(store().recall(ACME, "ｉＰｈｏｎｅ 返品", 3, NOW)).first().extracting(MemoryEntry::id).isEqualTo("mem_mix3");
        assertThat(store().recall(ACME, "大阪 倉庫 配送先", 1, NOW)).extracting(MemoryEntry::id).containsExactly("mem_mix1");
    }

    @Test
    void aTenantNeverSeesAnotherTenantsEntries() {
        String id = MemoryStore.newId();
        store().remember(entry(id, ACME, "launch code 1234", null));
        assertThat(store().recall(GLOBEX, "launch code 1234", 5, NOW)).isEmpty();
        assertThat(store().recall(GLOBEX, "", 5, NOW)).isEmpty();
        assertThat(store().list(GLOBEX)).isEmpty();
        assertThat(store().forget(GLOBEX, id)).isFalse();
        assertThat(store().list(ACME)).hasSize(1);
    }

    @Test
    void forgetRemovesTheRowAndItsIndexEntries() {
        String id = MemoryStore.newId();
        store().remember(entry(id, ACME, "my phone is 090-1234-5678", null));
        assertThat(indexedTerms(id)).isNotZero();
        assertThat(store().forget(ACME, id)).isTrue();
        assertThat(store().list(ACME)).isEmpty();
        assertThat(store().recall(ACME, "phone", 5, NOW)).isEmpty();
        assertThat(indexedTerms(id)).isIn(0, -1);
        assertThat(store().forget(ACME, id)).isFalse();
    }

    @Test
    void expiredEntriesAreListedButNotRecalled() {
        String id = MemoryStore.newId();
        store().remember(entry(id, ACME, "door code 4321", NOW.minusSeconds(1)));
        assertThat(store().recall(ACME, "door code", 5, NOW)).isEmpty();
        assertThat(store().list(ACME)).extracting(MemoryEntry::id).containsExactly(id);
        assertThat(store().list(ACME).get(0).expiresAt()).isEqualTo(NOW.minusSeconds(1));
    }

    @Test
    void wordsLongerThanTwoHundredCharactersAreRememberedAndRecalled() {
        String stem = "x".repeat(250);
        String id = MemoryStore.newId();
        store().remember(entry(id, ACME, "token " + stem + "a and " + stem + "b", null));
        assertThat(store().recall(ACME, stem + "b", 5, NOW)).extracting(MemoryEntry::id).containsExactly(id);
    }

    @Test
    void aVeryLongQueryStillRecalls() {
        String id = MemoryStore.newId();
        store().remember(entry(id, ACME, "the customer prefers email", null));
        StringBuilder query = new StringBuilder("email");
        for (int i = 0; i < 70_000; i++) {
            query.append(" w").append(i);
        }
        assertThat(store().recall(ACME, query.toString(), 5, NOW)).extracting(MemoryEntry::id).containsExactly(id);
    }

    @Test
    void aLongSourceIsKeptWhole() {
        // a fact's source is what its tool said: a long URL, or the passages of a document search
        String source = "https://docs.example.com/search?q=" + "返品".repeat(600);
        String id = MemoryStore.newId();
        store().remember(new MemoryEntry(id, ACME, "returns within 30 days", new MemorySource("run_1", "toolu_1_1", source),
                ACME.user(), NOW, null));
        assertThat(store().recall(ACME, "returns", 5, NOW)).singleElement()
                .satisfies(e -> assertThat(e.source().source()).isEqualTo(source));
    }

    @Test
    void aUserNeverSeesAnotherUsersEntriesInTheSameTenant() {
        MemoryScope bob = new MemoryScope(ACME.tenant(), "bob");
        String id = MemoryStore.newId();
        store().remember(entry(id, ACME, "alice's card ends in 4242", null));
        assertThat(store().recall(bob, "card 4242", 5, NOW)).isEmpty();
        assertThat(store().recall(bob, "", 5, NOW)).isEmpty();
        assertThat(store().list(bob)).isEmpty();
        assertThat(store().forget(bob, id)).isFalse();
        assertThat(indexedTerms(id)).isNotZero();
        assertThat(store().recall(ACME, "card", 5, NOW)).extracting(MemoryEntry::id).containsExactly(id);
    }

    @Test
    void anEntryIsRecalledUntilTheInstantItExpires() {
        String id = MemoryStore.newId();
        store().remember(entry(id, ACME, "temporary door code 7788", NOW.plusSeconds(1)));
        assertThat(store().recall(ACME, "door code", 5, NOW)).extracting(MemoryEntry::id).containsExactly(id);
        assertThat(store().recall(ACME, "door code", 5, NOW.plusSeconds(1))).isEmpty();
    }

    /**
     * Before: the JDBC stores kept the instants in milliseconds, so an entry read back was not the one remembered (its
     * microseconds gone), and an entry expiring within a millisecond was still recalled by InMemoryMemoryStore but not
     * by them. An entry holds its instants in milliseconds, so every store reads back the entry it was given and ends
     * its recall at the same instant.
     */
    @Test
    void anEntryIsReadBackAsRememberedAndExpiresAtTheSameInstantOnEveryStore() {
        String id = MemoryStore.newId();
        MemoryEntry remembered = new MemoryEntry(id, ACME, "gate code 4411", new MemorySource("run_1", "toolu_1_1", "crm"), "alice",
                NOW.plusNanos(123_456_789), NOW.plusSeconds(1).plusNanos(500_000));
        assertThat(remembered.createdAt()).isEqualTo(NOW.plusMillis(123));
        assertThat(remembered.expiresAt()).isEqualTo(NOW.plusSeconds(1));
        store().remember(remembered);
        assertThat(store().list(ACME)).containsExactly(remembered);
        assertThat(store().recall(ACME, "gate code", 5, NOW.plusSeconds(1).minusNanos(1))).containsExactly(remembered);
        assertThat(store().recall(ACME, "gate code", 5, NOW.plusSeconds(1).plusNanos(200_000))).isEmpty();
    }

    /**
     * Before: an entry expiring at Instant.MAX (an application's "never") was kept by InMemoryMemoryStore, and the JDBC
     * stores failed at remember with Java's 'ArithmeticException: long overflow'. It is refused when the entry is made,
     * saying to give null for never; the latest instant a store keeps is taken everywhere.
     */
    @Test
    void anInstantNoStoreCanKeepIsRefusedWhenTheEntryIsMadeAndTheLatestOneIsKeptEverywhere() {
        Instant latest = Instant.ofEpochMilli(Long.MAX_VALUE);
        String id = MemoryStore.newId();
        store().remember(entry(id, ACME, "forever code 1234", latest));
        assertThat(store().recall(ACME, "forever code", 5, NOW)).extracting(MemoryEntry::expiresAt).containsExactly(latest);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> entry(MemoryStore.newId(), ACME, "never", Instant.MAX))
                .isInstanceOf(dev.rein.ReinException.class)
                .hasMessage("a memory entry's expiresAt (" + Instant.MAX + ") is later than any store can keep (" + latest
                        + "); give null for an entry that never expires");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new MemoryEntry(id, ACME, "t", new MemorySource("run_1", null, "crm"),
                "alice", Instant.MIN, null)).isInstanceOf(dev.rein.ReinException.class).hasMessageContaining("createdAt");
    }

    /** A recall at Instant.MAX (past every expiry) recalls only what never expires, on every store; the SQL ones overflowed. */
    @Test
    void aRecallAtTheLatestInstantRecallsOnlyWhatNeverExpires() {
        store().remember(entry(MemoryStore.newId(), ACME, "always 東京", null));
        store().remember(entry(MemoryStore.newId(), ACME, "soon 東京", NOW.plusSeconds(60)));
        assertThat(store().recall(ACME, "東京", 5, Instant.MAX)).extracting(MemoryEntry::text).containsExactly("always 東京");
    }

    @Test
    void aNegativeRecallLimitIsRefusedSayingSoOnEveryStore() {
        store().remember(entry(MemoryStore.newId(), ACME, "one two", null));
        store().remember(entry(MemoryStore.newId(), ACME, "one three", null));
        assertThat(store().recall(ACME, "one", 0, NOW)).isEmpty();
        assertThat(store().recall(ACME, "one", 1, NOW)).hasSize(1);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store().recall(ACME, "one", -1, NOW))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit").hasMessageContaining("-1");
    }

    /**
     * A scope with a NUL character (no entry can have one) reads nothing, on every store alike: not the entries of
     * the scope its part before the NUL names (a driver that cut the parameter there would read another user's memory).
     */
    @Test
    void aScopeWithANulCharacterReadsAndForgetsNothingOfAnotherScope() {
        String id = MemoryStore.newId();
        store().remember(entry(id, ACME, "A-104 の配送先は大阪です", null));
        for (MemoryScope nul : java.util.List.of(new MemoryScope(ACME.tenant(), ACME.user() + "\u0000x"),
                new MemoryScope(ACME.tenant() + "\u0000x", ACME.user()))) {
            assertThat(store().list(nul)).isEmpty();
            assertThat(store().recall(nul, "配送先", 5, NOW)).isEmpty();
            assertThat(store().forget(nul, id)).isFalse();
        }
        assertThat(store().list(ACME)).singleElement().satisfies(e -> assertThat(e.text()).isEqualTo("A-104 の配送先は大阪です"));
    }

    @Test
    void textWithANulCharacterIsRefusedAlikeByEveryStoreSayingWhy() {
        // PostgreSQL's text cannot hold U+0000; a store that took it on SQLite and failed on PostgreSQL would differ
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store().remember(entry(MemoryStore.newId(), ACME,
                        "before\u0000after", null)))
                .isInstanceOf(dev.rein.ReinException.class).hasMessageContaining("U+0000");
        assertThat(store().list(ACME)).isEmpty();
    }

    /**
     * Before: a JDBC store refused an id it already held with the database's words alone ('[SQLITE_CONSTRAINT_PRIMARYKEY]
     * A PRIMARY KEY constraint failed (UNIQUE constraint failed: rein_memory.id)', or PostgreSQL's 'duplicate key value
     * violates unique constraint "rein_memory_pkey"'), where the in-memory store says the entry already exists.
     */
    @Test
    void rememberingAnIdTheStoreHoldsIsRefusedSayingSoAndTheEntryIsKept() {
        String id = MemoryStore.newId();
        store().remember(entry(id, ACME, "配送先は大阪", null));
        for (MemoryScope scope : java.util.List.of(ACME, GLOBEX)) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store().remember(entry(id, scope, "配送先は東京", null)))
                    .isInstanceOf(dev.rein.state.StoreException.class).hasMessageContaining("memory entry " + id + " already exists")
                    .hasMessageContaining("give each new entry a new id, such as MemoryStore.newId()");
        }
        assertThat(store().list(ACME)).singleElement().satisfies(e -> assertThat(e.text()).isEqualTo("配送先は大阪"));
        assertThat(store().list(GLOBEX)).isEmpty();
        assertThat(store().recall(ACME, "東京", 5, NOW)).isEmpty();
    }

    @Test
    void koreanWordsWithTheirParticlesAndThaiWrittenWithoutSpacesAreRecalledByTheirWords() {
        // Korean writes a word's particle onto it (회의실은: "the meeting room" + topic particle); Thai has no spaces
        String room = MemoryStore.newId();
        String thai = MemoryStore.newId();
        store().remember(entry(room, ACME, "회의실은 3층에 있습니다", null));
        store().remember(entry(thai, ACME, "ห้องประชุมอยู่ชั้นสาม", null));
        assertThat(store().recall(ACME, "회의실", 5, NOW)).extracting(MemoryEntry::id).containsExactly(room);
        assertThat(store().recall(ACME, "회의실은 어디?", 5, NOW)).extracting(MemoryEntry::id).containsExactly(room);
        assertThat(store().recall(ACME, "ห้องประชุม", 5, NOW)).extracting(MemoryEntry::id).containsExactly(thai);
        assertThat(store().recall(ACME, "주차장", 5, NOW)).isEmpty();
        // a Korean word written on digits or Latin letters (3층, "third floor") is a term as a whole, as it was
        assertThat(MemoryTerms.of("회의실은 3층")).contains("회의실은", "3층");
        assertThat(MemoryTerms.ofQuery("3층")).contains("3층");
        assertThat(MemoryTerms.ofQuery("api를 쓰다")).contains("api를", "쓰다");
    }

    @Test
    void aOneCharacterJapaneseWordRecallsTheEntriesThatHoldIt() {
        // 青 and 猫 are whole words; an entry holds them inside longer runs of kanji and kana
        String blue = MemoryStore.newId();
        String cat = MemoryStore.newId();
        store().remember(entry(blue, ACME, "好きな色は青です", null));
        store().remember(entry(cat, ACME, "猫を二匹飼っている", null));
        assertThat(store().recall(ACME, "青", 5, NOW)).extracting(MemoryEntry::id).containsExactly(blue);
        assertThat(store().recall(ACME, "猫", 5, NOW)).extracting(MemoryEntry::id).containsExactly(cat);
        assertThat(store().recall(ACME, "猫 or 青?", 5, NOW)).extracting(MemoryEntry::id).containsExactlyInAnyOrder(blue, cat);
        // a two-character word and a sentence still match by two-character terms, not by single shared kana
        assertThat(store().recall(ACME, "色", 5, NOW)).extracting(MemoryEntry::id).containsExactly(blue);
        assertThat(store().recall(ACME, "二匹", 5, NOW)).extracting(MemoryEntry::id).containsExactly(cat);
        assertThat(store().recall(ACME, "犬はいますか", 5, NOW)).isEmpty();
    }

    /**
     * Before: the in-memory store answered a null scope as a scope with no entries (recall and list empty, forget false) and
     * recalled at no time, while the JDBC store threw a bare NullPointerException for each; a null entry was a
     * NullPointerException on both.
     */
    @Test
    void aMissingArgumentIsRefusedAlikeByEveryStoreSayingWhatToPass() {
        String id = MemoryStore.newId();
        store().remember(entry(id, ACME, "配送先は大阪", null));
        String scopeAdvice = "pass whose memory it is: MemoryScope.of(principal), or new MemoryScope(tenant, user)";
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store().recall(null, "大阪", 5, NOW))
                .isExactlyInstanceOf(dev.rein.ReinException.class)
                .hasMessage("MemoryStore.recall was given no scope (null): " + scopeAdvice);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store().list(null)).isExactlyInstanceOf(dev.rein.ReinException.class)
                .hasMessage("MemoryStore.list was given no scope (null): " + scopeAdvice);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store().forget(null, id)).isExactlyInstanceOf(dev.rein.ReinException.class)
                .hasMessage("MemoryStore.forget was given no scope (null): " + scopeAdvice);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store().forget(ACME, null)).isExactlyInstanceOf(dev.rein.ReinException.class)
                .hasMessageStartingWith("MemoryStore.forget was given no id (null): ");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store().recall(ACME, "大阪", 5, null))
                .isExactlyInstanceOf(dev.rein.ReinException.class)
                .hasMessageStartingWith("MemoryStore.recall was given no now (null): ").hasMessageContaining("Instant.now()");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store().remember(null)).isExactlyInstanceOf(dev.rein.ReinException.class)
                .hasMessageStartingWith("MemoryStore.remember was given no entry (null): ");
        assertThat(store().recall(ACME, null, 5, NOW)).as("a null query recalls the newest entries, as a blank one does")
                .extracting(MemoryEntry::id).containsExactly(id);
        assertThat(store().list(ACME)).extracting(MemoryEntry::id).containsExactly(id);
    }

    /**
     * Before: PostgreSQL refused a NUL character in a forget's id or in a scope's tenant or user with its own words
     * ('invalid byte sequence for encoding "UTF8": 0x00'), where SQLite and the in-memory store answered that there is no
     * such entry; a forget tool call whose id held one told the model of a database error.
     */
    @Test
    void aNulCharacterInAForgetsIdOrInAScopeFindsNothingOnEveryStore() {
        String id = MemoryStore.newId();
        store().remember(entry(id, ACME, "配送先は大阪", null));
        assertThat(store().forget(ACME, id + "\u0000")).isFalse();
        MemoryScope nul = new MemoryScope(ACME.tenant() + "\u0000", "alice");
        assertThat(store().recall(nul, "大阪", 5, NOW)).isEmpty();
        assertThat(store().recall(nul, "", 5, NOW)).isEmpty();
        assertThat(store().list(nul)).isEmpty();
        assertThat(store().forget(nul, id)).isFalse();
        assertThat(store().list(ACME)).extracting(MemoryEntry::id).containsExactly(id);
    }
}
