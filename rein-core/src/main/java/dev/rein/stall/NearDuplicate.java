package dev.rein.stall;

import dev.rein.ReinException;
import dev.rein.tool.Risk;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The same read tool asked nearly the same query again and again: the string arguments normalise
 * to queries at least {@code similarity} alike (see {@link QueryText}: case, punctuation,
 * whitespace, word order and small edit distance do not count) while the other arguments are
 * equal. Fires when {@code count} such calls are made, at least one of them worded differently
 * (identical calls are {@link ExactRepeat}'s business). Only tools with risk READ are watched,
 * polling tools excepted: rewriting a document slightly is editing, not searching.
 *
 * <p>Evidence: {@code tool}, {@code count}, {@code queries} (the earlier wordings).
 */
public final class NearDuplicate implements StallDetector {
    public static final String NAME = "near_duplicate";
    public static final double DEFAULT_SIMILARITY = 0.9;
    public static final int DEFAULT_COUNT = 3;

    /** A recorded (or checked) call: its query, group, place among the recorded calls ({@code seq}) and query length. */
    private static final class Entry {
        final ProposedCall call;
        final QueryText query;
        final String group;
        final int seq;
        /** The normalised query's length in code points. */
        final int length;
        /**
         * How many code points of the normalised query fall in each of {@link #BUCKETS} buckets (by the code point's
         * value), made when first compared (see {@link #tooFarApart}): most calls are never compared with one alike.
         */
        private int[] characters;

        Entry(ProposedCall call, QueryText query, String group, int seq) {
            this.call = call;
            this.query = query;
            this.group = group;
            this.seq = seq;
            this.length = query.normalised().codePointCount(0, query.normalised().length());
        }

        ProposedCall call() {
            return call;
        }

        QueryText query() {
            return query;
        }

        String group() {
            return group;
        }

        int seq() {
            return seq;
        }

        int[] characters() {
            if (characters == null) {
                int[] counts = new int[BUCKETS];
                String normalised = query.normalised();
                for (int i = 0; i < normalised.length(); ) {
                    int cp = normalised.codePointAt(i);
                    counts[cp & (BUCKETS - 1)]++;
                    i += Character.charCount(cp);
                }
                characters = counts;
            }
            return characters;
        }
    }

    private static final int BUCKETS = 64;
    /** Candidates so few that the index of lengths is not consulted. */
    private static final int FEW = 16;

    /**
     * Earlier watched calls equal in tool and skeleton (only such calls can be alike), in call
     * order, and the same calls by each token of their query: a call alike to one with entities
     * has all of them among its tokens, so a check looks only at the calls sharing its rarest
     * entity instead of at the whole run.
     */
    private static final class Group {
        final List<Entry> entries = new ArrayList<>();
        final Map<String, List<Entry>> byToken = new HashMap<>();
        /**
         * The same calls by the length of their normalised query: two queries whose lengths differ by more than
         * {@code 1 - similarity} of the longer cannot be alike, so a query without entities is compared only with the
         * calls of lengths near its own instead of with every earlier call of the group (perf9). Made when first
         * needed (a check left with more than {@link #FEW} candidates), kept up from then on: most groups never need it.
         */
        NavigableMap<Integer, List<Entry>> byLength;

        NavigableMap<Integer, List<Entry>> byLength() {
            if (byLength == null) {
                byLength = new TreeMap<>();
                entries.forEach(this::indexLength);
            }
            return byLength;
        }

        void indexLength(Entry entry) {
            byLength.computeIfAbsent(entry.length, l -> new ArrayList<>()).add(entry);
        }
    }

    private final double similarity;
    private final int count;
    private final Map<String, Group> groups = new HashMap<>();
    /** The call recorded last, so that its check reuses the query instead of normalising it again. */
    private Entry lastRecorded;
    /** Calls recorded so far: the next entry's {@code seq}. */
    private int recorded;

    public NearDuplicate(double similarity, int count) {
        if (!(similarity > 0 && similarity <= 1)) {
            throw new ReinException("near-duplicate similarity must be in (0, 1], was " + similarity
                    + ": give how alike two queries must be to count as rewordings, 1 for identical (the default is "
                    + DEFAULT_SIMILARITY + ")");
        }
        if (count < 2) {
            throw new ReinException("near-duplicate count must be at least 2, was " + count
                    + ": give at which rewording of one read query to intervene (the default is " + DEFAULT_COUNT
                    + "), or turn the detector off with StallPolicy.Builder.without(\"" + NAME + "\")");
        }
        this.similarity = similarity;
        this.count = count;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String defaultMessage() {
        return "[rein] This '{tool}' query is a rewording of {earlier} earlier ones ({queries}). Rewording the same"
                + " query will not find anything new, so it was not run. Ask something genuinely different, use"
                + " another source, or work with what you already have.";
    }

    private static boolean watched(ProposedCall call) {
        return call.risk() == Risk.READ && !call.polling();
    }

    private static String group(ProposedCall call, QueryText query) {
        return call.tool() + "\n" + query.skeleton();
    }

    @Override
    public void recordCall(ProposedCall call) {
        if (watched(call)) {
            Entry entry = entry(call, recorded++);
            Group group = groups.computeIfAbsent(entry.group(), g -> new Group());
            group.entries.add(entry);
            for (String token : entry.query().tokens()) {
                group.byToken.computeIfAbsent(token, t -> new ArrayList<>()).add(entry);
            }
            if (group.byLength != null) {
                group.indexLength(entry);
            }
            lastRecorded = entry;
        }
    }

    @Override
    public Optional<Map<String, Object>> checkCall(ProposedCall call) {
        if (!watched(call)) {
            return Optional.empty();
        }
        Entry entry = lastRecorded != null && lastRecorded.call() == call ? lastRecorded : entry(call, -1);
        QueryText query = entry.query();
        if (query.normalised().isEmpty()) {
            return Optional.empty();
        }
        List<Entry> similar = new ArrayList<>();
        boolean reworded = false;
        for (Entry e : candidates(groups.get(entry.group()), entry)) {
            if (e.call() == call || tooFarApart(e, entry) || !alike(e.query(), query)) {
                continue;
            }
            similar.add(e);
            reworded |= !e.call().key().equals(call.key());
        }
        if (similar.size() + 1 < count || !reworded) {
            return Optional.empty();
        }
        Map<String, Object> evidence = new LinkedHashMap<>();
        evidence.put("tool", call.tool());
        evidence.put("count", similar.size() + 1);
        evidence.put("earlier", similar.size());
        evidence.put("queries", String.join(" | ", similar.stream().map(e -> "\"" + abbreviate(e.query().original()) + "\"").toList()));
        return Optional.of(evidence);
    }

    private static Entry entry(ProposedCall call, int seq) {
        QueryText query = QueryText.of(call.arguments());
        return new Entry(call, query, group(call, query), seq);
    }

    /**
     * Whether the edit distance of the two queries is surely too large for them to be alike, without computing it. Each
     * edit (insertion, deletion, substitution) removes at most one of the code points one query has in excess of the
     * other, so the distance is at least the larger excess; counted by bucket it can only come out smaller, so it stays
     * a lower bound. Compared exactly as {@link QueryText#similarity(QueryText, double)} compares the distance, so a
     * pair this rules out is one the similarity rules out too (the findings are unchanged: NearDuplicatePropertiesTest),
     * and most pairs of different queries of near length are ruled out here instead of by an edit distance, which was
     * three quarters of a long run's checks (perf9).
     */
    private boolean tooFarApart(Entry a, Entry b) {
        int excessA = 0;
        int excessB = 0;
        for (int i = 0; i < BUCKETS; i++) {
            int d = a.characters()[i] - b.characters()[i];
            if (d > 0) {
                excessA += d;
            } else {
                excessB -= d;
            }
        }
        int longer = Math.max(a.length, b.length);
        return longer > 0 && 1.0 - (double) Math.max(excessA, excessB) / longer < similarity;
    }

    /**
     * The earlier calls that can be alike to {@code entry}'s query, in call order: those sharing its rarest entity, or
     * those of a length near its own, whichever are fewer (every call alike to it is among both).
     */
    private List<Entry> candidates(Group group, Entry entry) {
        if (group == null) {
            return List.of();
        }
        List<Entry> fewest = group.entries;
        for (String entity : entry.query().entities()) {
            List<Entry> sharing = group.byToken.getOrDefault(entity, List.of());
            if (sharing.size() < fewest.size()) {
                fewest = sharing;
            }
        }
        if (fewest.size() <= FEW) {
            return fewest; // looking the lengths up would cost more than the comparisons it spares
        }
        // Alike needs 1 - |a - b| / max(a, b) >= similarity (QueryText.similarity's bound): b between similarity * a and
        // a / similarity. One more on each side, so that the doubles' rounding there is left to the exact check.
        int length = entry.length;
        long lowest = (long) Math.floor(similarity * length) - 1;
        // capped as a double: a tiny similarity's quotient passes Long.MAX_VALUE, whose + 1 would wrap to no window at all
        int highest = (int) Math.min(Integer.MAX_VALUE, Math.ceil(length / similarity) + 1);
        NavigableMap<Integer, List<Entry>> near = group.byLength().subMap((int) Math.max(0, lowest), true, highest, true);
        int count = 0;
        for (List<Entry> sameLength : near.values()) {
            count += sameLength.size();
            if (count >= fewest.size()) {
                return fewest;
            }
        }
        List<Entry> byLength = new ArrayList<>(count);
        near.values().forEach(byLength::addAll);
        byLength.sort(Comparator.comparingInt(Entry::seq)); // call order, as the evidence lists them
        return byLength;
    }

    /** How many earlier calls a check of {@code call} compares it with: for tests of the work per check. */
    int candidatesFor(ProposedCall call) {
        Entry entry = lastRecorded != null && lastRecorded.call() == call ? lastRecorded : entry(call, -1);
        return candidates(groups.get(entry.group()), entry).size();
    }

    private static String abbreviate(String s) {
        return s.codePointCount(0, s.length()) <= 80 ? s : s.substring(0, s.offsetByCodePoints(0, 77)) + "...";
    }

    private boolean alike(QueryText a, QueryText b) {
        return a.sameEntities(b) && a.similarity(b, similarity) >= similarity;
    }
}
