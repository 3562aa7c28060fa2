package dev.rein.stall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import org.junit.jupiter.api.Test;

/**
 * A check compares a query with the earlier calls that can be alike to it, not with the run's whole history: without
 * entities (no digit or capital to share) those are the calls of a length near its own (perf9). Before, each check of
 * an entity-free query went through every earlier call of its tool and argument skeleton, so a long run's checks grew
 * with its history. The findings are the full scan's (NearDuplicatePropertiesTest).
 */
class NearDuplicateWorkTest {
    private static final Tool SEARCH = Tool.builder("search").description("s").risk(Risk.READ).handler((a, c) -> "").build();

    private static ProposedCall call(int i, String query) {
        return ProposedCall.of("toolu_" + i, "search", Json.object().put("q", query), SEARCH, i + 1);
    }

    @Test
    void aCheckWithoutEntitiesLooksOnlyAtCallsOfANearLength() {
        NearDuplicate detector = new NearDuplicate(NearDuplicate.DEFAULT_SIMILARITY, NearDuplicate.DEFAULT_COUNT);
        for (int i = 1; i <= 1_000; i++) {
            detector.recordCall(call(i, "q".repeat(i))); // lengths 1 to 1,000, one word each, no entity
        }
        ProposedCall next = call(1_001, "q".repeat(500));
        detector.recordCall(next);
        // lengths 450 to 555 can be 0.9 alike to 500 (one more on each side): 108 calls, with the new one; not 1,001
        assertThat(detector.candidatesFor(next)).isBetween(106, 110);
        assertThat(detector.checkCall(next)).isPresent(); // "q"*500 itself, and "q"*450.."q"*555 are rewordings of it
    }

    @Test
    void aCheckWithEntitiesStillLooksOnlyAtCallsSharingItsRarestOne() {
        NearDuplicate detector = new NearDuplicate(NearDuplicate.DEFAULT_SIMILARITY, NearDuplicate.DEFAULT_COUNT);
        for (int i = 1; i <= 200; i++) {
            detector.recordCall(call(i, "orders of customer " + i));
        }
        ProposedCall next = call(201, "orders of customer 77");
        detector.recordCall(next);
        assertThat(detector.candidatesFor(next)).isEqualTo(2);
    }

    /**
     * A similarity so small that the length window's upper end, length / similarity, passes Long.MAX_VALUE: the window
     * wrapped to nothing and, past 16 candidates, a check found none (rev138's probe: 14 mismatches in 30 calls).
     */
    @Test
    void aTinySimilarityStillFindsWhatTheFullScanFinds() {
        for (double similarity : new double[] {1e-19, Double.MIN_VALUE, 1e-10}) {
            NearDuplicate fast = new NearDuplicate(similarity, 2);
            NearDuplicatePropertiesTest.Reference scan = new NearDuplicatePropertiesTest.Reference(similarity, 2);
            for (int i = 0; i < 30; i++) {
                ProposedCall c = call(i, "weather report " + "x".repeat(i % 5));
                fast.recordCall(c);
                scan.recordCall(c);
                assertThat(fast.checkCall(c)).as("similarity %s, call %d", similarity, i).isEqualTo(scan.checkCall(c));
            }
        }
    }
}
