package dev.rein.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class ReportTest {
    /** Run AS (bench/results/20261207T182319Z): 4 interleaved forks, the run the goal table last quoted. */
    private static final List<String> RUN_AS = List.of(
            "LOAD loop-start 0.86 0.84 1.42",
            "LOOP fork=1 client=floor-json steps=30 cpu_us=242.7 alloc_kb=53.1 wall_us=298.9 wakeups=10.1",
            "LOOP fork=1 client=floor-sse steps=30 cpu_us=217.0 alloc_kb=91.7 wall_us=261.7 wakeups=11.5",
            "LOOP fork=1 client=langchain4j steps=30 cpu_us=311.2 alloc_kb=79.2 wall_us=417.4 wakeups=10.7",
            "LOOP fork=1 client=rein steps=30 cpu_us=315.8 alloc_kb=57.1 wall_us=401.1 wakeups=10.7",
            "LOOP fork=2 client=floor-json steps=30 cpu_us=233.5 alloc_kb=53.2 wall_us=312.2 wakeups=10.2",
            "LOOP fork=2 client=floor-sse steps=30 cpu_us=204.7 alloc_kb=92.5 wall_us=249.4 wakeups=11.3",
            "LOOP fork=2 client=langchain4j steps=30 cpu_us=253.0 alloc_kb=79.0 wall_us=341.1 wakeups=10.4",
            "LOOP fork=2 client=rein steps=30 cpu_us=270.3 alloc_kb=57.7 wall_us=342.5 wakeups=11.4",
            "LOOP fork=3 client=floor-json steps=30 cpu_us=261.9 alloc_kb=53.0 wall_us=332.7 wakeups=10.8",
            "LOOP fork=3 client=floor-sse steps=30 cpu_us=220.6 alloc_kb=92.5 wall_us=286.4 wakeups=10.2",
            "LOOP fork=3 client=langchain4j steps=30 cpu_us=308.9 alloc_kb=79.1 wall_us=420.6 wakeups=10.9",
            "LOOP fork=3 client=rein steps=30 cpu_us=286.8 alloc_kb=57.3 wall_us=341.6 wakeups=11.2",
            "LOOP fork=4 client=floor-json steps=30 cpu_us=192.5 alloc_kb=53.0 wall_us=252.3 wakeups=10.6",
            "LOOP fork=4 client=floor-sse steps=30 cpu_us=207.3 alloc_kb=92.1 wall_us=252.7 wakeups=10.8",
            "LOOP fork=4 client=langchain4j steps=30 cpu_us=279.8 alloc_kb=79.4 wall_us=388.0 wakeups=10.8",
            "LOOP fork=4 client=rein steps=30 cpu_us=271.4 alloc_kb=57.8 wall_us=320.3 wakeups=11.4",
            "LOAD loop-end 2.98 2.42 2.01");

    @Test
    void fourForksShowTheRatioOfMediansThePerForkRatiosAndThatNothingCanBeDecided() {
        String summary = Report.summarize(RUN_AS);

        // wall per fork: 401.1/261.7 = 1.533, 342.5/249.4 = 1.373, 341.6/286.4 = 1.193, 320.3/252.7 = 1.268
        assertThat(row(summary, "rein", "Rein wall per step")).isEqualTo(
                "| Rein wall per step ≤ 1.2 × streaming floor | 1.33 | 1.32 (1.19–1.53) | 1 of 4 forks "
                        + "| undecided: 4 forks cannot decide at 5 % (at least 5 are needed) |");
        // CPU per fork: 98.8/68.5, 65.6/19.5, 66.2/47.0, 64.1/87.3
        assertThat(row(summary, "rein", "Rein CPU")).startsWith(
                "| Rein CPU over streaming floor ≤ 1.0 × LangChain4j's over its (JSON) floor | 1.19 | 1.43 (0.73–3.36) | 1 of 4 forks |");
    }

    @Test
    void sevenOfEightForksMeetingIsMetAndSevenOfEightMissingIsNotMet() {
        List<String> lines = new ArrayList<>();
        for (int fork = 1; fork <= 8; fork++) {
            floorsAndLangChain4j(lines, fork, 200, 100);
            // wall 1.1 x the streaming floor in 7 forks, 1.3 x in one; CPU overhead 150 (1.5 x LangChain4j's) in 7
            lines.add(loop(fork, "rein", fork == 8 ? 210 : 350, 60, fork == 8 ? 260 : 220));
        }
        String summary = Report.summarize(lines);

        assertThat(row(summary, "rein", "Rein wall per step")).contains("| 7 of 8 forks | met (p = 0.035) |");
        assertThat(row(summary, "rein", "Rein CPU")).contains("| 1 of 8 forks | **not met** (p = 0.035) |");
        assertThat(row(summary, "rein", "Rein alloc")).contains("| 8 of 8 forks | met (p = 0.004) |");
    }

    @Test
    void sixOfEightIsUndecided() {
        List<String> lines = new ArrayList<>();
        for (int fork = 1; fork <= 8; fork++) {
            floorsAndLangChain4j(lines, fork, 200, 100);
            lines.add(loop(fork, "rein", 250, 60, fork <= 6 ? 220 : 260));
        }
        assertThat(row(Report.summarize(lines), "rein", "Rein wall per step"))
                .contains("| 6 of 8 forks | undecided (p = 0.145 for met, 5 % needed) |");
    }

    /**
     * LangChain4j cheaper than its JSON floor: the ratio's denominator is negative, and the old summary called
     * a Rein overhead of +40 µs "≤ 1.0 × LangChain4j's" (ratio −4.00). Rein's overhead is more than
     * LangChain4j's in every fork, so the goal is missed.
     */
    @Test
    void aNegativeDenominatorIsJudgedByTheInequalityNotTheRatio() {
        List<String> lines = new ArrayList<>();
        for (int fork = 1; fork <= 5; fork++) {
            floorsAndLangChain4j(lines, fork, 200, -10);
            lines.add(loop(fork, "rein", 240, 60, 220));
        }
        String cpu = row(Report.summarize(lines), "rein", "Rein CPU");

        assertThat(cpu).isEqualTo("| Rein CPU over streaming floor ≤ 1.0 × LangChain4j's over its (JSON) floor "
                + "| — (LangChain4j's overhead ≤ 0) | — (LangChain4j's overhead ≤ 0 in 5 forks) | 0 of 5 forks | **not met** (p = 0.031) |");
    }

    @Test
    void aForkWithoutEveryClientIsLeftOutAndNamed() {
        List<String> lines = new ArrayList<>();
        for (int fork = 1; fork <= 6; fork++) {
            floorsAndLangChain4j(lines, fork, 200, 100);
            lines.add(loop(fork, "rein", 250, 60, 220));
        }
        lines.removeIf(l -> l.startsWith("LOOP fork=4 client=langchain4j"));
        String summary = Report.summarize(lines);

        assertThat(row(summary, "rein", "Rein wall per step")).contains("| 6 of 6 forks | met (p = 0.016) |");
        assertThat(row(summary, "rein", "Rein CPU"))
                .contains("| 5 of 5 forks; left out: fork 4 (no langchain4j) | met (p = 0.031) |");
    }

    /** Run AU (bench/results/20261207T203423Z): 3 repeats at 10,000 runs. */
    @Test
    void concurrencyRepeatsArePairedByNumber() {
        List<String> lines = List.of(
                "CONCURRENCY repeat=1 client=langchain4j n=10000 wall_s=36.70 rss_mb=2484 failures=0",
                "CONCURRENCY repeat=1 client=rein n=10000 wall_s=35.93 rss_mb=2792 failures=0",
                "CONCURRENCY repeat=2 client=langchain4j n=10000 wall_s=34.87 rss_mb=2696 failures=0",
                "CONCURRENCY repeat=2 client=rein n=10000 wall_s=32.57 rss_mb=2624 failures=0",
                "CONCURRENCY repeat=3 client=langchain4j n=10000 wall_s=37.42 rss_mb=2521 failures=0",
                "CONCURRENCY repeat=3 client=rein n=10000 wall_s=37.65 rss_mb=2968 failures=0");
        String summary = Report.summarize(lines);

        assertThat(row(summary, "rein", "wall ≤")).isEqualTo("| wall ≤ LangChain4j's | 0.979 | 0.98 (0.93–1.01) "
                + "| 2 of 3 repeats | undecided: 3 repeats cannot decide at 5 % (at least 5 are needed) |");
        assertThat(row(summary, "rein", "peak RSS ≤")).contains("| 1.107 | 1.12 (0.97–1.18) | 1 of 3 repeats |");
        assertThat(row(summary, "rein", "both")).contains("| 1 of 3 repeats | undecided");
    }

    @Test
    void fiveRepeatsDecideAndALostRunIsNeverMet() {
        List<String> lines = new ArrayList<>();
        for (int r = 1; r <= 5; r++) {
            lines.add(concurrency(r, "langchain4j", 36.0, 2500, 0));
            lines.add(concurrency(r, "rein", 33.0, 2400, 0));
            lines.add(concurrency(r, "rein-inline", 33.0, 2400, r == 2 ? 3 : 0));
        }
        String summary = Report.summarize(lines);

        assertThat(row(summary, "rein", "both")).contains("| 5 of 5 repeats | met (");
        assertThat(row(summary, "rein-inline", "both")).contains("| 4 of 5 repeats | **not met: runs failed** |");
    }

    @Test
    void aRepeatLangChain4jDidNotFinishIsLeftOut() {
        List<String> lines = new ArrayList<>();
        for (int r = 1; r <= 6; r++) {
            lines.add(r == 3 ? "CONCURRENCY repeat=3 client=langchain4j n=10000 failed" : concurrency(r, "langchain4j", 36.0, 2500, 0));
            lines.add(concurrency(r, "rein", 33.0, 2400, 0));
        }
        assertThat(row(Report.summarize(lines), "rein", "wall ≤"))
                .contains("| 5 of 5 repeats; left out: repeat 3 (langchain4j did not finish) | met (p = 0.031) |");
    }

    /** Rev127 item 2: a Rein repeat that lost runs where LangChain4j has no line was left out, not failed. */
    @Test
    void aReinRepeatThatLostRunsFailsTheGoalEvenWithoutLangChain4jsRepeat() {
        List<String> lines = new ArrayList<>();
        for (int r = 1; r <= 6; r++) {
            if (r != 2) {
                lines.add(concurrency(r, "langchain4j", 36.0, 2500, 0));
            }
            lines.add(concurrency(r, "rein", 33.0, 2400, r == 2 ? 7 : 0));
        }
        String summary = Report.summarize(lines);

        assertThat(row(summary, "rein", "both")).endsWith("| **not met: runs failed** |");
        assertThat(row(summary, "rein", "wall ≤")).endsWith("| **not met: runs failed** |");
    }

    /** Rev127 item 3: with 5 repeats "not met" (p < 2.5 %) cannot happen; the combined row says what it needs. */
    @Test
    void fiveRepeatsMissedSayWhatNotMetNeeds() {
        List<String> lines = new ArrayList<>();
        for (int r = 1; r <= 5; r++) {
            lines.add(concurrency(r, "langchain4j", 30.0, 2000, 0));
            lines.add(concurrency(r, "rein", 40.0, 3000, 0));
        }
        assertThat(row(Report.summarize(lines), "rein", "both"))
                .endsWith("| 0 of 5 repeats | undecided (not met needs p < 2.5 %, so at least 6 repeats) |");
    }

    /** Rev127 item 4: CPU overheads 98.8 and 98.8 in every fork, which floating point made a miss by 1e-14. */
    @Test
    void overheadsEqualButForRoundingAreTiesAndSaySoWhenEveryForkTies() {
        List<String> lines = new ArrayList<>();
        for (int fork = 1; fork <= 5; fork++) {
            lines.add(loop(fork, "floor-json", 212.4, 53, 300));
            lines.add(loop(fork, "floor-sse", 217.0, 92, 200));
            lines.add(loop(fork, "langchain4j", 311.2, 79, 400));
            lines.add(loop(fork, "rein", 315.8, 60, 220));
        }
        assertThat(row(Report.summarize(lines), "rein", "Rein CPU")).endsWith("| 5 of 5 forks (5 exactly at the limit, "
                + "left out of the test) | undecided (no fork off the limit: nothing to test) |");
    }

    /** Rev127 item 4: alloc overhead −30 KB against LangChain4j's −48 is more than LangChain4j's, not "≤ 0.5 ×". */
    @Test
    void aNegativeDenominatorUnderALimitBelowOneNeedsNoMoreThanTheDenominator() {
        List<String> lines = new ArrayList<>();
        for (int fork = 1; fork <= 5; fork++) {
            lines.add(loop(fork, "floor-json", 200, 100, 300));
            lines.add(loop(fork, "floor-sse", 200, 100, 200));
            lines.add(loop(fork, "langchain4j", 300, 52, 400));
            lines.add(loop(fork, "rein", 300, 70, 220));
        }
        assertThat(row(Report.summarize(lines), "rein", "Rein alloc")).contains("| 0 of 5 forks | **not met** (p = 0.031) |");
    }

    /** Rev127 item 1: a summary that could not be written is a failure (exit 1), not a half-written file and exit 0. */
    @Test
    void aSummaryThatCannotBeWrittenIsAFailure() {
        java.io.PrintStream broken = new java.io.PrintStream(new java.io.OutputStream() {
            @Override
            public void write(int b) throws java.io.IOException {
                throw new java.io.IOException("No space left on device");
            }
        });
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();

        assertThat(Report.write("| a | b |\n", broken, new java.io.PrintStream(err, true))).isEqualTo(1);
        assertThat(err.toString()).contains("could not be written");
        assertThat(Report.write("ok\n", new java.io.PrintStream(new java.io.ByteArrayOutputStream()), System.err)).isZero();
    }

    /** Rev127 item 4: an overhead that rounds to zero was written "-0". */
    @Test
    void anOverheadThatRoundsToZeroHasNoMinus() {
        List<String> lines = new ArrayList<>();
        for (int fork = 1; fork <= 5; fork++) {
            floorsAndLangChain4j(lines, fork, 200, 100);
            lines.add(loop(fork, "rein", 199.7, 91.96, 220));
        }
        assertThat(Report.summarize(lines)).contains("Overheads: rein 0 µs / 0.0 KB per step over the streaming floor;");
    }

    /**
     * Rev135 item 1: the report wrote its numbers in the default locale, "1,33" under German, while
     * docs/performance.md and these tests read "1.33". A summary of the same results.txt is the same in any locale.
     */
    @Test
    void theSummaryIsTheSameUnderADecimalCommaLocale() {
        String german = inLocale(Locale.GERMANY, () -> Report.summarize(RUN_AS));

        assertThat(german).isEqualTo(inLocale(Locale.ROOT, () -> Report.summarize(RUN_AS)));
        assertThat(row(german, "rein", "Rein wall per step")).contains("| 1.33 | 1.32 (1.19–1.53) |");
    }

    /**
     * Rev135 item 1: under a decimal-comma default locale (German) the benchmarks wrote "250,3" into results.txt and
     * the report, reading it back with Double.parseDouble, failed (NumberFormatException). Each benchmark's RESULT
     * line, made into a results.txt line as bench/run's sed does, now reads back, and the summary is the one written
     * under {@link Locale#ROOT}, with decimal points.
     */
    @Test
    void underADecimalCommaLocaleTheBenchmarksResultLinesReadBack() {
        String german = inLocale(Locale.GERMANY, () -> Report.summarize(benchmarkResults()));

        assertThat(german).isEqualTo(inLocale(Locale.ROOT, () -> Report.summarize(benchmarkResults())));
        assertThat(german).contains("| rein | 250 | 60.0 | 220 | 10.5 |",
                "| Rein wall per step ≤ 1.2 × streaming floor | 1.10 | 1.10 (1.10–1.10) | 5 of 5 forks | met (p = 0.031) |",
                "Overheads: rein 50 µs / -32.0 KB per step over the streaming floor; LangChain4j 100 µs / 26.0 KB",
                "| rein | 30 | 101.5 | 102.3 | 0.75 | 100.25 | 0.50 | yes |",
                "| wall ≤ LangChain4j's | 0.911 | 0.91 (0.91–0.91) | 5 of 5 repeats | met (p = 0.031) |",
                "| rein | 1000 | 42.5 | 0 |");
    }

    /** {@code work} done with {@code locale} as the JVM's default locale, the default restored after. */
    private static String inLocale(Locale locale, java.util.function.Supplier<String> work) {
        Locale before = Locale.getDefault();
        Locale.setDefault(locale);
        try {
            return work.get();
        } finally {
            Locale.setDefault(before);
        }
    }

    /** Five forks of the per-step loop, a parallel step, five concurrency repeats and a footprint, as bench/run writes them. */
    private static List<String> benchmarkResults() {
        List<String> lines = new ArrayList<>();
        for (int fork = 1; fork <= 5; fork++) {
            String loop = "LOOP fork=" + fork;
            lines.add(asBenchRunWrites(LoopBench.result("floor-json", 30, 200, 53, 300, 10), loop));
            lines.add(asBenchRunWrites(LoopBench.result("floor-sse", 30, 200, 92, 200, 11), loop));
            lines.add(asBenchRunWrites(LoopBench.result("langchain4j", 30, 300, 79, 400, 10), loop));
            lines.add(asBenchRunWrites(LoopBench.result("rein", 30, 250.3, 60, 220, 10.5), loop));
        }
        lines.add(asBenchRunWrites(ParallelBench.result("rein", 30, 101.5, 102.3, 0.75, 100.25, 0.5), "PARALLEL"));
        for (int r = 1; r <= 5; r++) {
            lines.add(asBenchRunWrites(ConcurrencyBench.result("langchain4j", 10000, 36.5, 2500, 0, null), "CONCURRENCY repeat=" + r));
            lines.add(asBenchRunWrites(ConcurrencyBench.result("rein", 10000, 33.25, 2400, 0, null), "CONCURRENCY repeat=" + r));
        }
        lines.add(asBenchRunWrites(FootprintBench.result("rein", 1000, 42.5, 30.25, 72.75, 0), "FOOTPRINT"));
        return lines;
    }

    /** What bench/run's sed makes of a benchmark's RESULT line, e.g. {@code s/^RESULT/LOOP fork=1/}. */
    private static String asBenchRunWrites(String result, String kind) {
        assertThat(result).startsWith("RESULT ");
        return kind + result.substring("RESULT".length());
    }

    private static void floorsAndLangChain4j(List<String> lines, int fork, double floorCpu, double lcOverhead) {
        lines.add(loop(fork, "floor-json", floorCpu, 53, 300));
        lines.add(loop(fork, "floor-sse", floorCpu, 92, 200));
        lines.add(loop(fork, "langchain4j", floorCpu + lcOverhead, 79, 400));
    }

    private static String loop(int fork, String client, double cpu, double alloc, double wall) {
        return String.format(Locale.ROOT, "LOOP fork=%d client=%s steps=30 cpu_us=%.1f alloc_kb=%.1f wall_us=%.1f wakeups=10.0",
                fork, client, cpu, alloc, wall);
    }

    private static String concurrency(int repeat, String client, double wall, int rss, int failures) {
        return String.format(Locale.ROOT, "CONCURRENCY repeat=%d client=%s n=10000 wall_s=%.2f rss_mb=%d failures=%d",
                repeat, client, wall, rss, failures);
    }

    /** The goal row starting with {@code goal} in the section of {@code client}'s goals. */
    private static String row(String summary, String client, String goal) {
        String section = null;
        for (String line : summary.split("\n")) {
            if (line.startsWith("Goals for ") || line.startsWith("Goals at ")) {
                section = line;
            } else if (section != null && section.contains(" " + client + " ") && line.startsWith("| ")
                    && line.contains("| " + goal)) {
                return line;
            }
        }
        throw new AssertionError("no row '" + goal + "' for " + client + " in:\n" + summary);
    }
}
