package dev.rein.stall;

import dev.rein.ReinException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Which stall detectors watch a run, how often the model is warned before the run is stopped, and
 * what the warnings say. Immutable; {@link #defaults()} is what an agent gets unless it sets
 * another policy.
 *
 * <p>Defaults: {@link ExactRepeat} at the 3rd identical call (polling tools exempt),
 * {@link Alternation} after 2 cycles of 2 or 3 calls, {@link NearDuplicate} at the 3rd rewording
 * with similarity 0.9, {@link EditRevert} at the first revert (state from the arguments),
 * {@link NoProgress} after 5 steps, {@link ConsecutiveErrors} after 5 errors; each detector may
 * intervene {@value #DEFAULT_MAX_INTERVENTIONS} times, and its next finding ends the run FAILED
 * with reason {@code stalled}.
 */
public final class StallPolicy {
    public static final int DEFAULT_MAX_INTERVENTIONS = 2;

    private final Map<String, StallDetector.Factory> detectors;
    private final int maxInterventions;
    private final Map<String, String> messages;
    private final List<String> order;

    private StallPolicy(Builder b) {
        this.detectors = Map.copyOf(b.detectors);
        this.order = List.copyOf(b.detectors.keySet());
        this.maxInterventions = b.maxInterventions;
        this.messages = Map.copyOf(b.messages);
    }

    /** All six detectors with their documented defaults. */
    public static StallPolicy defaults() {
        return builder().build();
    }

    /** No stall detection at all. */
    public static StallPolicy disabled() {
        return builder().withoutAll().build();
    }

    /** A builder starting from {@link #defaults()}. */
    public static Builder builder() {
        return new Builder();
    }

    /** The detector names, in the order they are consulted (the first finding on a call wins). */
    public List<String> detectorNames() {
        return order;
    }

    public int maxInterventions() {
        return maxInterventions;
    }

    /** The intervention text for {@code detector}, or null to use the detector's own. */
    public String message(String detector) {
        return messages.get(detector);
    }

    /** Fresh detectors for one run, in order. */
    public List<StallDetector> newDetectors() {
        return order.stream().map(name -> detectors.get(name).create()).toList();
    }

    /** Builder for {@link StallPolicy}; setting a detector again replaces it. */
    public static final class Builder {
        private final Map<String, StallDetector.Factory> detectors = new LinkedHashMap<>();
        private int maxInterventions = DEFAULT_MAX_INTERVENTIONS;
        private final Map<String, String> messages = new LinkedHashMap<>();

        private Builder() {
            exactRepeat(ExactRepeat.DEFAULT_THRESHOLD, ExactRepeat.DEFAULT_POLLING_THRESHOLD);
            alternation(Alternation.DEFAULT_MIN_CYCLES);
            nearDuplicates(NearDuplicate.DEFAULT_SIMILARITY, NearDuplicate.DEFAULT_COUNT);
            editRevert(ResourceState.fromArguments(), EditRevert.DEFAULT_MIN_REVERTS);
            noProgress(NoProgress.DEFAULT_STEPS);
            consecutiveErrors(ConsecutiveErrors.DEFAULT_COUNT);
        }

        /**
         * Blocks the {@code threshold}-th identical call (default 3); {@code pollingThreshold} is
         * the threshold for polling tools, 0 to exempt them (default).
         */
        public Builder exactRepeat(int threshold, int pollingThreshold) {
            new ExactRepeat(threshold, pollingThreshold);
            return put(ExactRepeat.NAME, () -> new ExactRepeat(threshold, pollingThreshold));
        }

        /** Blocks the call that completes {@code minCycles} rounds of a 2- or 3-call cycle (default 2). */
        public Builder alternation(int minCycles) {
            new Alternation(minCycles);
            return put(Alternation.NAME, () -> new Alternation(minCycles));
        }

        /**
         * Blocks the {@code count}-th rewording of one read query (default 3), where rewordings are
         * at least {@code similarity} alike (default 0.9).
         */
        public Builder nearDuplicates(double similarity, int count) {
            new NearDuplicate(similarity, count);
            return put(NearDuplicate.NAME, () -> new NearDuplicate(similarity, count));
        }

        /** Warns when a resource has been reverted {@code minReverts} times (default 1). */
        public Builder editRevert(ResourceState states, int minReverts) {
            new EditRevert(states, minReverts);
            return put(EditRevert.NAME, () -> new EditRevert(states, minReverts));
        }

        /** Warns after {@code steps} tool steps without a new observation (default 5). */
        public Builder noProgress(int steps) {
            new NoProgress(steps);
            return put(NoProgress.NAME, () -> new NoProgress(steps));
        }

        /** Warns after {@code count} tool errors in a row (default 5). */
        public Builder consecutiveErrors(int count) {
            new ConsecutiveErrors(count);
            return put(ConsecutiveErrors.NAME, () -> new ConsecutiveErrors(count));
        }

        /** Adds (or replaces, by name) a detector of your own. */
        public Builder detector(StallDetector.Factory factory) {
            Objects.requireNonNull(factory, "factory");
            StallDetector sample = factory.create();
            if (sample == null || sample.name() == null || sample.name().isBlank()) {
                throw new ReinException("a stall detector factory must create detectors with a name");
            }
            return put(sample.name(), factory);
        }

        /** Removes a detector by name, e.g. {@code without(NearDuplicate.NAME)}. */
        public Builder without(String detector) {
            if (detectors.remove(detector) == null) {
                throw new ReinException("no stall detector named '" + detector + "'; known: " + detectors.keySet());
            }
            return this;
        }

        /** Removes every detector (add back the ones you want). */
        public Builder withoutAll() {
            detectors.clear();
            return this;
        }

        /**
         * How many times each detector may intervene before its next finding ends the run (default
         * 2: with the default exact-repeat threshold, calls 3 and 4 are refused and call 5 stops the
         * run).
         */
        public Builder maxInterventions(int max) {
            if (max < 0) {
                throw new ReinException("maxInterventions cannot be negative, was " + max);
            }
            this.maxInterventions = max;
            return this;
        }

        /**
         * Replaces the text the model sees when {@code detector} fires; {@code {name}} placeholders
         * are filled from the finding's evidence (see each detector's documentation).
         */
        public Builder message(String detector, String template) {
            if (template == null || template.isBlank()) {
                throw new ReinException("the intervention text for '" + detector + "' is empty");
            }
            messages.put(detector, template);
            return this;
        }

        private Builder put(String name, StallDetector.Factory factory) {
            detectors.put(name, factory);
            return this;
        }

        public StallPolicy build() {
            for (String name : messages.keySet()) {
                if (!detectors.containsKey(name)) {
                    throw new ReinException("an intervention text is set for '" + name + "', but no such detector is on;"
                            + " detectors: " + detectors.keySet());
                }
            }
            return new StallPolicy(this);
        }
    }
}
