package dev.rein.eval.report;

import dev.rein.eval.FailureKind;
import dev.rein.eval.run.TrialOutcome;
import dev.rein.eval.run.Verdict;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Computes {@link EvalReport.Summary} metrics from trial outcomes grouped by task. */
final class Metrics {
    /** Decimal places of rates in reports. */
    static final int RATE_SCALE = 6;
    static final int COST_SCALE = 6;

    private Metrics() {}

    static EvalReport.Summary summarise(List<List<TrialOutcome>> byTask) {
        List<TrialOutcome> all = byTask.stream().flatMap(List::stream).toList();
        List<TrialOutcome> graded = all.stream().filter(t -> t.verdict().graded()).toList();
        int passed = count(graded, Verdict.PASSED);
        int unsafe = count(graded, Verdict.UNSAFE);
        int failed = count(graded, Verdict.FAILED);
        int safeRefusals = (int) graded.stream().filter(TrialOutcome::safeRefusal).count();
        int unsafeSuccesses = (int) graded.stream().filter(TrialOutcome::unsafeSuccess).count();
        Map<String, Integer> kinds = new LinkedHashMap<>();
        for (FailureKind kind : FailureKind.values()) {
            kinds.put(kind.id(), 0);
        }
        graded.stream().filter(t -> t.failureKind() != null).forEach(t -> kinds.merge(t.failureKind().id(), 1, Integer::sum));
        BigDecimal totalCost = all.stream().map(TrialOutcome::costUsd).reduce(BigDecimal.ZERO, BigDecimal::add)
                .setScale(COST_SCALE, RoundingMode.HALF_EVEN);
        return new EvalReport.Summary(byTask.size(), all.size(), graded.size(), passed, failed, unsafe, unsafeSuccesses,
                safeRefusals, all.size() - graded.size(), rate(passed, graded.size()), rate(unsafe, graded.size()),
                rate(safeRefusals, graded.size()), passK(byTask, true), passK(byTask, false), kinds,
                Distribution.of(graded.stream().map(t -> BigDecimal.valueOf(t.steps())).toList(), 0),
                Distribution.of(graded.stream().map(TrialOutcome::costUsd).toList(), COST_SCALE), totalCost);
    }

    /**
     * pass@k (atLeastOne) or pass^k per k from 1 to the largest number of graded trials of a task,
     * averaged over the tasks that have at least k graded trials. Each task's values for every k come
     * from one pass over its trials ({@link PassK#passAtKCurve}), so ten thousand trials take
     * milliseconds rather than minutes.
     */
    static Map<String, Double> passK(List<List<TrialOutcome>> byTask, boolean atLeastOne) {
        List<List<BigDecimal>> curves = byTask.stream().map(Metrics::graded).filter(graded -> !graded.isEmpty())
                .map(graded -> atLeastOne ? PassK.passAtKCurve(graded.size(), count(graded, Verdict.PASSED))
                        : PassK.passHatKCurve(graded.size(), count(graded, Verdict.PASSED)))
                .toList();
        int maxN = curves.stream().mapToInt(List::size).max().orElse(0);
        Map<String, Double> byK = new LinkedHashMap<>();
        for (int k = 1; k <= maxN; k++) {
            BigDecimal sum = BigDecimal.ZERO;
            int tasks = 0;
            for (List<BigDecimal> curve : curves) {
                if (curve.size() >= k) {
                    sum = sum.add(curve.get(k - 1));
                    tasks++;
                }
            }
            byK.put(Integer.toString(k), sum.divide(BigDecimal.valueOf(tasks), RATE_SCALE, RoundingMode.HALF_EVEN).doubleValue());
        }
        return byK;
    }

    private static List<TrialOutcome> graded(List<TrialOutcome> trials) {
        return trials.stream().filter(t -> t.verdict().graded()).toList();
    }

    private static int count(List<TrialOutcome> trials, Verdict verdict) {
        return (int) trials.stream().filter(t -> t.verdict() == verdict).count();
    }

    private static Double rate(int part, int whole) {
        return whole == 0 ? null : BigDecimal.valueOf(part).divide(BigDecimal.valueOf(whole), RATE_SCALE, RoundingMode.HALF_EVEN)
                .doubleValue();
    }
}
