package dev.rein.stall;

import dev.rein.ReinException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
    /** A placeholder in an intervention text, as the stall monitor fills them. */
    private static final java.util.regex.Pattern PLACEHOLDER = java.util.regex.Pattern.compile("\\{([a-z_]+)}");
    /** The evidence each of Rein's detectors gives, which are the placeholders its text can use (docs/guards.md). */
    private static final Map<Class<?>, List<String>> EVIDENCE = Map.of(
            ExactRepeat.class, List.of("tool", "count", "first_step"),
            Alternation.class, List.of("cycle", "period", "cycles"),
            NearDuplicate.class, List.of("tool", "count", "earlier", "queries"),
            EditRevert.class, List.of("tool", "resource", "reverts", "state_first_seen_step"),
            NoProgress.class, List.of("steps"),
            ConsecutiveErrors.class, List.of("count", "last_tool", "last_error"));

    public static final int DEFAULT_MAX_INTERVENTIONS = 2;

    private final Map<String, StallDetector.Factory> detectors;
    private final int maxInterventions;
    private final Map<String, String> messages;
    private final List<String> order;
    /**
     * The factories in {@link #order}, looked up once per policy: {@link #newDetectors} runs for every run, and its
     * stream and map look-ups were 1.6 % of the agent loop's CPU samples (docs/performance-log.md, perf9).
     */
    private final StallDetector.Factory[] factories;

    private StallPolicy(Builder b) {
        this.detectors = Map.copyOf(b.detectors);
        this.order = List.copyOf(b.detectors.keySet());
        this.factories = order.stream().map(this.detectors::get).toArray(StallDetector.Factory[]::new);
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
        StallDetector[] made = new StallDetector[factories.length];
        for (int i = 0; i < made.length; i++) {
            made[i] = factories[i].create();
        }
        return java.util.Collections.unmodifiableList(java.util.Arrays.asList(made)); // as toList() was: a factory's null stays
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

        /** Warns when a resource has been reverted {@code minReverts} times (default 1); a null {@code states} is a ReinException. */
        public Builder editRevert(ResourceState states, int minReverts) {
            EditRevert.requireStates(states, "StallPolicy.Builder.editRevert(...)");
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

        /** Adds (or replaces, by name) a detector of your own; a null factory is a ReinException. */
        public Builder detector(StallDetector.Factory factory) {
            if (factory == null) {
                throw new ReinException("StallPolicy.Builder.detector(...) was given no factory (null): pass a"
                        + " StallDetector.Factory that makes a fresh detector for each run, e.g. MyDetector::new");
            }
            StallDetector sample = factory.create();
            if (sample == null || sample.name() == null || sample.name().isBlank()) {
                throw new ReinException("a stall detector factory must create detectors with a name");
            }
            return put(sample.name(), factory);
        }

        /** Removes a detector by name, e.g. {@code without(NearDuplicate.NAME)}. */
        public Builder without(String detector) {
            requireName("without", detector);
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
         * are filled from the finding's evidence (see each detector's documentation). For Rein's own
         * detectors, {@link #build()} refuses a placeholder the detector does not fill, naming those it does.
         */
        public Builder message(String detector, String template) {
            requireName("message", detector);
            if (template == null || template.isBlank()) {
                throw new ReinException("the intervention text for '" + detector + "' is empty");
            }
            messages.put(detector, template);
            return this;
        }

        private void requireName(String method, String detector) {
            if (detector == null) {
                throw new ReinException("StallPolicy.Builder." + method + "(...) was given no detector name (null): pass one of "
                        + detectors.keySet() + ", e.g. NearDuplicate.NAME");
            }
        }

        private Builder put(String name, StallDetector.Factory factory) {
            detectors.put(name, factory);
            return this;
        }

        public StallPolicy build() {
            for (Map.Entry<String, String> text : messages.entrySet()) {
                String name = text.getKey();
                if (!detectors.containsKey(name)) {
                    throw new ReinException("an intervention text is set for '" + name + "', but no such detector is on;"
                            + " detectors: " + detectors.keySet());
                }
                checkPlaceholders(name, text.getValue(), detectors.get(name).create());
            }
            return new StallPolicy(this);
        }

        /**
         * A placeholder the detector never fills would reach the model as written ("{file}"), so it is
         * refused here. Only Rein's own detectors are checked: an application's may fill any name.
         */
        private static void checkPlaceholders(String name, String template, StallDetector detector) {
            List<String> known = detector == null ? null : EVIDENCE.get(detector.getClass());
            if (known == null) {
                return;
            }
            java.util.regex.Matcher m = PLACEHOLDER.matcher(template);
            while (m.find()) {
                if (!known.contains(m.group(1))) {
                    throw new ReinException("the intervention text for '" + name + "' has the placeholder " + m.group()
                            + ", which that detector does not fill; its placeholders are "
                            + String.join(", ", known.stream().map(k -> "{" + k + "}").toList()));
                }
            }
        }
    }
}
