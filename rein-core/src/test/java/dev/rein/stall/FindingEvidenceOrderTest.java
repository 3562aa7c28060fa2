package dev.rein.stall;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A finding keeps its evidence in the order the detector gave it. The run's message and answer of a
 * stall stop print the evidence, so an order that changed from JVM to JVM (Map.copyOf iterates in a
 * per-JVM random order) made a stalled run replayed in another process end with another answer:
 * `rein replay` said "ended otherwise" (exit 1) for a run it had reproduced.
 */
class FindingEvidenceOrderTest {

    @Test
    void theEvidenceKeepsTheDetectorsOrder() {
        List<String> keys = List.of("tool", "count", "first_step", "a", "b", "c", "d", "e", "f", "g", "h", "i");
        Map<String, Object> evidence = new LinkedHashMap<>();
        keys.forEach(k -> evidence.put(k, k.length()));

        Finding finding = new Finding("exact_repeat", "toolu_1", "m", evidence, 3);

        assertThat(finding.evidence().keySet()).containsExactlyElementsOf(keys);
        assertThat(finding.evidence().toString()).startsWith("{tool=4, count=5, first_step=10, a=1");
    }

    @Test
    void theEvidenceIsACopyThatCannotBeChanged() {
        Map<String, Object> evidence = new LinkedHashMap<>(Map.of("tool", "search"));
        Finding finding = new Finding("exact_repeat", null, "m", evidence, 1);
        evidence.put("count", 2);

        assertThat(finding.evidence()).containsOnlyKeys("tool");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> finding.evidence().put("x", 1))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
