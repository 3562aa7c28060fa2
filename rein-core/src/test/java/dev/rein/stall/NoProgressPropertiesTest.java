package dev.rein.stall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * NoProgress keeps SHA-256 digests instead of hex strings and hashes each result once; these
 * properties compare its findings with the implementation it replaced (kept below as
 * {@link Reference}) over random runs whose results, sources and resources repeat often, including
 * sources with line breaks and lone surrogates (which UTF-8 encoding turns into '?').
 */
class NoProgressPropertiesTest {
    private static final List<String> TEXTS = List.of("", "a", "b", "a\nb", "\nb", "b\n", "x\ny\nz", "東京の天気", "?", "\uD800",
            "\uDC00", "😀", "File written.", "Sunny, 25°C");

    record Call(String tool, String text, String source, boolean error, String path) {}

    @Property(tries = 1000)
    void findingsAreThoseOfTheHexStringImplementation(@ForAll("runs") List<List<Call>> run) {
        assertSameFindings(run);
    }

    @Example
    void aFactIsItsSourceLineBreakAndContentTextAsBefore() {
        // "a\nb" + "\n" + "" and "a" + "\n" + "b\n" are one text, so one fact
        assertSameFindings(List.of(
                List.of(new Call("search", "", "a\nb", false, null), new Call("search", "b\n", null, false, null)),
                List.of(new Call("search", "b\n", "a", false, null)),
                List.of(new Call("search", "b\n", "a", false, null))));
        // lone surrogates are hashed as '?'
        assertSameFindings(List.of(
                List.of(new Call("search", "c", "\uD800", false, null)),
                List.of(new Call("search", "c", "\uDC00", false, null)),
                List.of(new Call("search", "c", "?", false, null))));
    }

    private static void assertSameFindings(List<List<Call>> run) {
        NoProgress fast = new NoProgress(2);
        Reference reference = new Reference(2);
        int step = 0;
        for (List<Call> calls : run) {
            step++;
            List<Observed> observed = new ArrayList<>();
            for (Call c : calls) {
                observed.add(new Observed(proposed(c, step), c.text(), c.error(), c.source()));
            }
            fast.recordStep(observed);
            reference.recordStep(observed);
            assertThat(fast.checkStep()).as("step %d", step).isEqualTo(reference.checkStep());
        }
    }

    private static ProposedCall proposed(Call c, int step) {
        Tool tool = switch (c.tool()) {
            case "status" -> Tool.builder("status").description("s").risk(Risk.READ).polling(true).handler((a, x) -> "").build();
            case "write_file" -> Tool.builder("write_file").description("w").risk(Risk.WRITE).resourceArgument("path")
                    .handler((a, x) -> "").build();
            case "send" -> Tool.builder("send").description("s").risk(Risk.WRITE).handler((a, x) -> "").build();
            default -> Tool.builder("search").description("s").risk(Risk.READ).handler((a, x) -> "").build();
        };
        var args = Json.object().put("q", c.text());
        if (c.path() != null) {
            args.put("path", c.path());
        }
        return ProposedCall.of("toolu_" + step, c.tool(), args, tool, step);
    }

    @Provide
    Arbitrary<List<List<Call>>> runs() {
        Arbitrary<String> texts = Arbitraries.of(TEXTS);
        Arbitrary<String> sources = Arbitraries.oneOf(Arbitraries.just(null), Arbitraries.of(TEXTS));
        Arbitrary<String> paths = Arbitraries.oneOf(Arbitraries.just(null), Arbitraries.of("a.txt", "b.txt"));
        Arbitrary<Call> calls = Combinators.combine(Arbitraries.of("search", "status", "write_file", "send"), texts, sources,
                Arbitraries.of(false, false, true), paths).as(Call::new);
        return calls.list().ofMinSize(1).ofMaxSize(3).list().ofMaxSize(12);
    }

    /**
     * The implementation NoProgress had before, verbatim but for the name and the rule that a
     * polling-only step leaves the streak alone even when its status text is new.
     */
    static final class Reference {
        private final int steps;
        private final Set<String> seen = new HashSet<>();
        private int streak;

        Reference(int steps) {
            this.steps = steps;
        }

        void recordStep(List<Observed> observed) {
            if (observed.isEmpty()) {
                return;
            }
            boolean fresh = false;
            for (Observed o : observed) {
                if (!o.isError()) {
                    fresh |= seen.add("text:" + o.hash());
                    fresh |= o.fact().map(f -> seen.add("fact:" + f)).orElse(false);
                    fresh |= o.touched().map(r -> seen.add("resource:" + r)).orElse(false);
                }
            }
            boolean onlyPolling = observed.stream().allMatch(o -> o.call().polling());
            if (onlyPolling) {
                return;
            }
            streak = fresh ? 0 : streak + 1;
        }

        java.util.Optional<java.util.Map<String, Object>> checkStep() {
            if (streak < steps) {
                return java.util.Optional.empty();
            }
            java.util.Map<String, Object> evidence = new java.util.LinkedHashMap<>();
            evidence.put("steps", streak);
            return java.util.Optional.of(evidence);
        }
    }
}
