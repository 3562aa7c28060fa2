package dev.rein.internal.chain;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * How a chain names which of a run of Rein's own stages (bound one to the next) threw: only the exception's stack trace
 * tells, by a frame of one of them, and it may not. An exception with no stack trace (the JIT's fast-throw
 * NullPointerException once {@code -XX:-OmitStackTraceInFastThrow} is off) shows none, and two stages of one class show
 * the same frames; then the message names every stage it may have been, not one of them as if that were known.
 */
public final class Suspects {
    private Suspects() {}

    /**
     * Which of {@code run} (a run of Rein's own stages, bound one to the next, {@code bound} their bound forms in the same
     * order) threw {@code e}, named for the message: the stage of the first frame of its stack trace that is one of
     * theirs (its bound form's, or a method of the stage's own); where that tells no one stage (no such frame; a frame of
     * a class two of them share) the stages it may have been, those {@code unseen} allows when no frame is theirs.
     */
    public static <S> String threw(String kind, Throwable e, List<S> run, List<?> bound, Function<S, String> name,
                                   Predicate<S> unseen) {
        for (StackTraceElement frame : e.getStackTrace()) {
            String type = frame.getClassName();
            List<String> suspects = new ArrayList<>();
            for (int i = 0; i < run.size(); i++) {
                if (type.equals(bound.get(i).getClass().getName()) || type.equals(run.get(i).getClass().getName())) {
                    suspects.add(name.apply(run.get(i)));
                }
            }
            if (!suspects.isEmpty()) {
                return named(kind, suspects);
            }
        }
        List<String> all = run.stream().filter(unseen).map(name).toList();
        return named(kind, all.isEmpty() ? run.stream().map(name).toList() : all);
    }

    /**
     * {@code "KIND stage A"} for one stage; for several {@code "one of the KIND stages A, B"}, or
     * {@code "one of the N KIND stages A"} when all of them go by one name.
     *
     * @param kind  the chain's word for its stages, {@code "tool-chain"} or {@code "model-call"}
     * @param names the names of the stages that may have thrown, in the chain's order; at least one
     */
    private static String named(String kind, List<String> names) {
        if (names.size() == 1) {
            return kind + " stage " + names.get(0);
        }
        Set<String> distinct = new LinkedHashSet<>(names);
        return distinct.size() == 1 ? "one of the " + names.size() + " " + kind + " stages " + names.get(0)
                : "one of the " + kind + " stages " + String.join(", ", distinct);
    }
}
