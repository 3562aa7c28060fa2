package dev.rein.internal.chain;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.Function;

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
     * theirs (its bound form's, or a method of the stage's own), by {@code name}; where that tells no one stage (no such
     * frame; a frame of a class two of them share) the stages it may have been, by {@code listed} (a shorter name, the
     * list being long). With no such frame a stage that {@link Bindable#namesOwnFailures names its own failures} is left
     * out: nothing it threw reaches the chain unnamed.
     */
    public static <S> String threw(String kind, Throwable e, List<S> run, List<?> bound, Function<S, String> name,
                                   Function<S, String> listed) {
        for (StackTraceElement frame : e.getStackTrace()) {
            String type = frame.getClassName();
            List<S> suspects = new ArrayList<>();
            for (int i = 0; i < run.size(); i++) {
                if (type.equals(bound.get(i).getClass().getName()) || type.equals(run.get(i).getClass().getName())) {
                    suspects.add(run.get(i));
                }
            }
            if (!suspects.isEmpty()) {
                return suspects.size() == 1 ? kind + " stage " + name.apply(suspects.get(0))
                        : listed(kind, suspects, listed);
            }
        }
        List<S> all = run.stream().filter(stage -> !(stage instanceof Bindable<?> own && own.namesOwnFailures()))
                .toList();
        List<S> suspects = all.isEmpty() ? run : all;
        return suspects.size() == 1 ? kind + " stage " + name.apply(suspects.get(0)) : listed(kind, suspects, listed);
    }

    /**
     * {@code "one of the KIND stages A, B"} for several stages, {@code "one of the KIND stages A (2 of them), B"} when a
     * name is held more than once, or {@code "one of the N A stages"} when all of them go by one name.
     *
     * @param kind     the chain's word for its stages, {@code "tool-chain"} or {@code "model-call"}
     * @param suspects the stages that may have thrown, in the chain's order; at least two
     */
    private static <S> String listed(String kind, List<S> suspects, Function<S, String> listed) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (S stage : suspects) {
            counts.merge(listed.apply(stage), 1, Integer::sum);
        }
        if (counts.size() == 1) {
            return "one of the " + suspects.size() + " " + counts.keySet().iterator().next() + " stages";
        }
        StringJoiner names = new StringJoiner(", ", "one of the " + kind + " stages ", "");
        counts.forEach((stageName, count) -> names.add(count == 1 ? stageName : stageName + " (" + count + " of them)"));
        return names.toString();
    }
}
