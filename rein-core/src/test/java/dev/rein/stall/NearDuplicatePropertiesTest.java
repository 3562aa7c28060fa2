package dev.rein.stall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * NearDuplicate looks only at the earlier calls sharing a query's rarest entity; these properties
 * compare its findings with the implementation that looked at every earlier call of the group
 * (kept below as {@link Reference}, over the regex QueryText it had then) on runs with many
 * rewordings, entities and Japanese text.
 */
class NearDuplicatePropertiesTest {
    private static final Tool SEARCH = Tool.builder("search").description("s").risk(Risk.READ).handler((a, c) -> "").build();
    private static final Tool READ = Tool.builder("read").description("r").risk(Risk.READ).handler((a, c) -> "").build();
    private static final Tool WRITE = Tool.builder("write").description("w").risk(Risk.WRITE).handler((a, c) -> "").build();

    record Call(String tool, String query, int page) {}

    @Property(tries = 1000)
    void findingsAreThoseOfTheScanOfEveryEarlierCall(@ForAll("runs") List<Call> run, @ForAll("similarities") double similarity,
                                                    @ForAll("counts") int count) {
        NearDuplicate fast = new NearDuplicate(similarity, count);
        Reference reference = new Reference(similarity, count);
        for (int i = 0; i < run.size(); i++) {
            Call c = run.get(i);
            Tool tool = switch (c.tool()) {
                case "read" -> READ;
                case "write" -> WRITE;
                default -> SEARCH;
            };
            var args = Json.object().put("q", c.query());
            if (c.page() > 0) {
                args.put("page", c.page());
            }
            ProposedCall call = ProposedCall.of("toolu_" + i, c.tool(), args, tool, i + 1);
            fast.recordCall(call);
            reference.recordCall(call);
            assertThat(fast.checkCall(call)).as("call %d", i).isEqualTo(reference.checkCall(call));
        }
    }

    /**
     * Queries without entities (no digit, no capital, no other script): NearDuplicate then looks only at the calls of a
     * length near the query's (perf9), the bound on the edge of the similarity included.
     */
    @Property(tries = 1000)
    void findingsWithoutEntitiesAreThoseOfTheScanOfEveryEarlierCall(@ForAll("plainRuns") List<Call> run,
                                                                   @ForAll("finerSimilarities") double similarity,
                                                                   @ForAll("counts") int count) {
        findingsAreThoseOfTheScanOfEveryEarlierCall(run, similarity, count);
    }

    @Provide
    Arbitrary<List<Call>> plainRuns() {
        Arbitrary<String> words = Arbitraries.of("a", "ab", "abc", "abcd", "weather", "whether", "wether", "forecast", "tokyo",
                "in", "the", "of", "report", "reports", "x", "xy", "xyz", "?", "");
        Arbitrary<String> queries = words.list().ofMinSize(1).ofMaxSize(6).map(l -> String.join(" ", l));
        return Combinators.combine(Arbitraries.of("search", "search", "search", "read"), queries, Arbitraries.integers().between(0, 1))
                .as(Call::new).list().ofMaxSize(60);
    }

    @Provide
    Arbitrary<Double> finerSimilarities() {
        return Arbitraries.of(0.1, 0.5, 0.6, 2.0 / 3, 0.75, 0.8, 0.9, 0.95, 0.99, 1.0);
    }

    @Provide
    Arbitrary<List<Call>> runs() {
        Arbitrary<String> words = Arbitraries.of("weather", "Weather", "tokyo", "Tokyo", "TOKYO", "in", "the", "2020", "2021",
                "Jon", "Jan", "Smith", "smith", "東京", "の", "天気", "２０２０", "item", "1", "2", "1-0", "2-0", "?", "!", "");
        Arbitrary<String> queries = words.list().ofMinSize(1).ofMaxSize(5).map(l -> String.join(" ", l));
        return Combinators.combine(Arbitraries.of("search", "search", "read", "write"), queries, Arbitraries.integers().between(0, 2))
                .as(Call::new).list().ofMaxSize(25);
    }

    @Provide
    Arbitrary<Double> similarities() {
        return Arbitraries.of(0.5, 0.75, 0.9, 1.0);
    }

    @Provide
    Arbitrary<Integer> counts() {
        return Arbitraries.of(2, 3);
    }

    /** NearDuplicate as it was before the token index, over the QueryText of regular expressions. */
    static final class Reference {
        private record Entry(ProposedCall call, QueryText query) {}

        private final double similarity;
        private final int count;
        private final Map<String, List<Entry>> entries = new HashMap<>();

        Reference(double similarity, int count) {
            this.similarity = similarity;
            this.count = count;
        }

        private static boolean watched(ProposedCall call) {
            return call.risk() == Risk.READ && !call.polling();
        }

        private static String group(ProposedCall call, QueryText query) {
            return call.tool() + "\n" + query.skeleton();
        }

        void recordCall(ProposedCall call) {
            if (watched(call)) {
                Entry entry = new Entry(call, QueryTextPropertiesTest.Reference.of(call.arguments()));
                entries.computeIfAbsent(group(call, entry.query()), g -> new ArrayList<>()).add(entry);
            }
        }

        Optional<Map<String, Object>> checkCall(ProposedCall call) {
            if (!watched(call)) {
                return Optional.empty();
            }
            QueryText query = QueryTextPropertiesTest.Reference.of(call.arguments());
            if (query.normalised().isEmpty()) {
                return Optional.empty();
            }
            List<Entry> similar = new ArrayList<>();
            boolean reworded = false;
            for (Entry e : entries.getOrDefault(group(call, query), List.of())) {
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
            evidence.put("queries", String.join(" | ", similar.stream().map(e -> "\"" + e.query().original() + "\"").toList()));
            return Optional.of(evidence);
        }

        private boolean alike(QueryText a, QueryText b) {
            return a.sameEntities(b) && a.similarity(b, similarity) >= similarity;
        }
    }
}
