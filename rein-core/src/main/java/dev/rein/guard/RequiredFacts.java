package dev.rein.guard;

import dev.rein.ReinException;
import dev.rein.run.FinalAnswer;
import dev.rein.run.Verdict;
import dev.rein.run.Verifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The premature-finish guard: a {@link Verifier} that refuses a final answer (a text answer or a
 * {@code finish} with status completed) while any {@link RequiredFact} is missing, and tells the
 * model which ones. The loop counts refusals like any verifier's: after the agent's
 * {@code maxVerificationFailures} (default 2) the run ends FAILED, reason
 * {@code verification_failed}. A predicate that throws counts as missing, with the error.
 */
public final class RequiredFacts implements Verifier {
    private final List<RequiredFact> facts;

    public RequiredFacts(List<RequiredFact> facts) {
        this.facts = List.copyOf(facts);
        if (this.facts.isEmpty()) {
            throw new ReinException("RequiredFacts needs at least one fact");
        }
        Set<String> names = new HashSet<>();
        for (RequiredFact fact : this.facts) {
            if (!names.add(fact.name())) {
                throw new ReinException("the required fact '" + fact.name() + "' is declared twice");
            }
        }
    }

    public List<RequiredFact> facts() {
        return facts;
    }

    @Override
    public Verdict verify(FinalAnswer answer) {
        List<String> missing = new ArrayList<>();
        for (RequiredFact fact : facts) {
            try {
                if (!fact.present().test(answer)) {
                    missing.add(fact.describeMissing());
                }
            } catch (RuntimeException e) {
                missing.add(fact.describeMissing() + " [the check failed: " + e.getClass().getSimpleName() + ": " + e.getMessage() + "]");
            }
        }
        return missing.isEmpty() ? Verdict.pass() : Verdict.fail(missing);
    }
}
