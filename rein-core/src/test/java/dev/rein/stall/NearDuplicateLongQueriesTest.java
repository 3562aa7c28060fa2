package dev.rein.stall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.internal.text.EditDistance;
import dev.rein.json.Json;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import java.time.Duration;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The near-duplicate guard compares a query with every earlier one of its tool that shares its
 * entities; queries without any (plain lowercase sentences) are compared with all of them. The
 * edit distance is only needed up to the most a similar pair can have, so it is bounded there.
 */
class NearDuplicateLongQueriesTest {
    private static final Tool SEARCH = Tool.builder("search").description("s").risk(Risk.READ).handler((a, c) -> "").build();

    /**
     * 400 distinct queries of about 480 characters without entities, as one response of a model
     * that searches with long sentences: each call is checked against every earlier one. The full
     * edit distance of each pair took about 88 s for the step (on the run's thread, where the
     * deadline does not reach); bounded by what similarity 0.9 allows, it takes about a second. The
     * limit is on the CPU time used, not on wall time: at load 10-14 on two cores the bounded check
     * took 18.6-50 s of wall time while its CPU time stays near the quiet machine's. The limit is far
     * above that and far below the full table's 88 s.
     */
    @Test
    void manyLongQueriesWithoutEntitiesAreCheckedQuickly() {
        Random random = new Random(1);
        NearDuplicate detector = new NearDuplicate(NearDuplicate.DEFAULT_SIMILARITY, NearDuplicate.DEFAULT_COUNT);
        Duration start = cpuTime();
        for (int i = 0; i < 400; i++) {
            StringBuilder query = new StringBuilder();
            for (int w = 0; w < 60; w++) {
                query.append("word").append((char) ('a' + random.nextInt(26))).append((char) ('a' + random.nextInt(26))).append(' ');
            }
            ProposedCall call = ProposedCall.of("toolu_" + i, "search", Json.object().put("q", query.toString()), SEARCH, 1);
            detector.recordCall(call);
            assertThat(detector.checkCall(call)).isEmpty();
        }
        assertThat(cpuTime().minus(start)).isLessThan(Duration.ofSeconds(20));
    }

    /** The CPU time this JVM has used (tests run one at a time, so nearly all of it is this test's). */
    private static Duration cpuTime() {
        return ProcessHandle.current().info().totalCpuDuration().orElseThrow();
    }

    /** The bounded distance is the distance when it is at most the bound, and more than the bound otherwise. */
    @Property(tries = 2000)
    void theBoundedDistanceAgreesWithTheFullOne(@ForAll("texts") String a, @ForAll("texts") String b,
                                                @ForAll("bounds") int bound) {
        int[] x = a.codePoints().toArray();
        int[] y = b.codePoints().toArray();
        int full = EditDistance.levenshtein(x, y);
        int bounded = EditDistance.levenshtein(x, y, bound);
        if (full <= bound) {
            assertThat(bounded).isEqualTo(full);
        } else {
            assertThat(bounded).isGreaterThan(bound);
        }
    }

    @Provide
    Arbitrary<String> texts() {
        return Arbitraries.strings().withChars("abcd 東京").ofMaxLength(30);
    }

    @Provide
    Arbitrary<Integer> bounds() {
        return Arbitraries.integers().between(0, 35);
    }
}
