package dev.rein.stall;

import dev.rein.ReinException;
import dev.rein.tool.Risk;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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

    private record Entry(ProposedCall call, QueryText query, String group) {}

    /**
     * Earlier watched calls equal in tool and skeleton (only such calls can be alike), in call
     * order, and the same calls by each token of their query: a call alike to one with entities
     * has all of them among its tokens, so a check looks only at the calls sharing its rarest
     * entity instead of at the whole run.
     */
    private static final class Group {
        final List<Entry> entries = new ArrayList<>();
        final Map<String, List<Entry>> byToken = new HashMap<>();
    }

    private final double similarity;
    private final int count;
    private final Map<String, Group> groups = new HashMap<>();
    /** The call recorded last, so that its check reuses the query instead of normalising it again. */
    private Entry lastRecorded;

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
            Entry entry = entry(call);
            Group group = groups.computeIfAbsent(entry.group(), g -> new Group());
            group.entries.add(entry);
            for (String token : entry.query().tokens()) {
                group.byToken.computeIfAbsent(token, t -> new ArrayList<>()).add(entry);
            }
            lastRecorded = entry;
        }
    }

    @Override
    public Optional<Map<String, Object>> checkCall(ProposedCall call) {
        if (!watched(call)) {
            return Optional.empty();
        }
        Entry entry = lastRecorded != null && lastRecorded.call() == call ? lastRecorded : entry(call);
        QueryText query = entry.query();
        if (query.normalised().isEmpty()) {
            return Optional.empty();
        }
        List<Entry> similar = new ArrayList<>();
        boolean reworded = false;
        for (Entry e : candidates(groups.get(entry.group()), query)) {
            if (e.call() == call || !alike(e.query(), query)) {
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

    private static Entry entry(ProposedCall call) {
        QueryText query = QueryText.of(call.arguments());
        return new Entry(call, query, group(call, query));
    }

    /** The earlier calls that can be alike to {@code query}, in call order. */
    private static List<Entry> candidates(Group group, QueryText query) {
        if (group == null) {
            return List.of();
        }
        List<Entry> fewest = group.entries;
        for (String entity : query.entities()) {
            List<Entry> sharing = group.byToken.getOrDefault(entity, List.of());
            if (sharing.size() < fewest.size()) {
                fewest = sharing;
            }
        }
        return fewest;
    }

    private static String abbreviate(String s) {
        return s.codePointCount(0, s.length()) <= 80 ? s : s.substring(0, s.offsetByCodePoints(0, 77)) + "...";
    }

    private boolean alike(QueryText a, QueryText b) {
        return a.sameEntities(b) && a.similarity(b, similarity) >= similarity;
    }
}
