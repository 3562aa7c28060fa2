package dev.rein.stall;

import dev.rein.ReinException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A write that returns a resource to a state it had before, undoing an earlier edit (A, B, A).
 * Watches successful calls of tools that declare a resource argument; the state after each write
 * comes from a {@link ResourceState} (by default the hash of the arguments other than the
 * resource). Writing the same state twice in a row is not a revert. Fires when a resource has
 * been reverted {@code minReverts} times; the write has already happened, so the model gets a
 * notice with the results.
 *
 * <p>Evidence: {@code tool}, {@code resource}, {@code reverts}, {@code state_first_seen_step}.
 */
public final class EditRevert implements StallDetector {
    public static final String NAME = "edit_revert";
    public static final int DEFAULT_MIN_REVERTS = 1;

    private record State(String hash, int step) {}

    private record Revert(ProposedCall call, String resource, int reverts, int firstSeenStep) {}

    private final ResourceState states;
    private final int minReverts;
    private final Map<String, List<State>> history = new HashMap<>();
    private final Map<String, Integer> reverts = new HashMap<>();
    private final List<Revert> lastStep = new ArrayList<>();

    public EditRevert(ResourceState states, int minReverts) {
        if (minReverts < 1) {
            throw new ReinException("edit-revert minReverts must be at least 1, was " + minReverts
                    + ": give after how many reverts of one resource to warn (the default is " + DEFAULT_MIN_REVERTS
                    + "), or turn the detector off with StallPolicy.Builder.without(\"" + NAME + "\")");
        }
        requireStates(states, "new EditRevert(...)");
        this.states = states;
        this.minReverts = minReverts;
    }

    /** A null here was met only as a bare NullPointerException naming the parameter. */
    static void requireStates(ResourceState states, String given) {
        if (states == null) {
            throw new ReinException(given + " was given no ResourceState (null): pass how a write tool reports the state it"
                    + " left, ResourceState.fromArguments() (the default) or ResourceState.fromResult()");
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String defaultMessage() {
        return "[rein] '{resource}' is back to a state it already had at step {state_first_seen_step}: the last"
                + " '{tool}' call undid an earlier edit ({reverts} time(s) so far). Switching back and forth will"
                + " not converge. Decide which version is right and why, or try a different approach.";
    }

    @Override
    public void recordStep(List<Observed> observed) {
        lastStep.clear();
        for (Observed o : observed) {
            if (o.isError()) {
                continue;
            }
            Optional<String> resource = o.call().resource();
            if (resource.isEmpty()) {
                continue;
            }
            Optional<String> state = states.after(o.call(), o.content());
            if (state.isEmpty()) {
                continue;
            }
            record(o.call(), resource.get(), state.get());
        }
    }

    private void record(ProposedCall call, String resource, String hash) {
        List<State> seen = history.computeIfAbsent(resource, r -> new ArrayList<>());
        boolean same = !seen.isEmpty() && seen.get(seen.size() - 1).hash().equals(hash);
        if (!same) {
            seen.stream().filter(s -> s.hash().equals(hash)).findFirst().ifPresent(earlier -> {
                int n = reverts.merge(resource, 1, Integer::sum);
                lastStep.add(new Revert(call, resource, n, earlier.step()));
            });
            seen.add(new State(hash, call.step()));
        }
    }

    @Override
    public Optional<Map<String, Object>> checkStep() {
        for (Revert r : lastStep) {
            if (r.reverts() >= minReverts) {
                Map<String, Object> evidence = new LinkedHashMap<>();
                evidence.put("tool", r.call().tool());
                evidence.put("resource", r.resource());
                evidence.put("reverts", r.reverts());
                evidence.put("state_first_seen_step", r.firstSeenStep());
                return Optional.of(evidence);
            }
        }
        return Optional.empty();
    }
}
