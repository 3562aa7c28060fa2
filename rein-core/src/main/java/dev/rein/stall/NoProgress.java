package dev.rein.stall;

import dev.rein.ReinException;
import dev.rein.json.Hashing;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code steps} tool steps in a row that made no progress: every call failed, or every successful
 * call repeated what was already known. A call makes progress when its result text is new
 * (compared by content hash, whichever call produced it), when it establishes a new fact (the same
 * text from a new source), or when a side-effecting call touches a resource not touched before
 * ({@link Observed#touched()}): ten writes to ten files that each answer "File written." are
 * progress. A step whose calls were all polling calls neither counts nor resets the streak: waiting
 * on a job is not stalling. Steps whose calls were all blocked are not observed at all.
 *
 * <p>Evidence: {@code steps}.
 */
public final class NoProgress implements StallDetector {
    public static final String NAME = "no_progress";
    public static final int DEFAULT_STEPS = 5;

    /** What was seen, each kind in its own namespace; digests are SHA-256 of the UTF-8 text, as {@link Observed}'s hashes. */
    private sealed interface Seen {}

    private record Text(Digest content) implements Seen {
        @Override
        public int hashCode() {
            return content.hashCode();
        }
    }

    /**
     * A fact, as the text {@code source + "\n" + content} that {@link Observed#fact()} hashes, split
     * at its first line break: the source's first line (in its UTF-8 form, so that texts equal as
     * bytes stay equal) and the digest of the rest. For a one-line source the rest is the content,
     * whose digest the step has already computed.
     */
    private record Fact(String head, Digest rest) implements Seen {
        @Override
        public int hashCode() {
            return 31 * head.hashCode() + rest.hashCode();
        }
    }

    private record Resource(String touched) implements Seen {}

    /** A SHA-256 value; its first bytes are already uniformly spread, so they are its hash code. */
    private record Digest(long a, long b, long c, long d) {
        @Override
        public int hashCode() {
            return (int) a;
        }
    }

    /** Cloned for each detector: a provider look-up per run costs more than the run's hashing. */

    private final int steps;
    private final Set<Seen> seen = new HashSet<>();
    /** One digest for the detector's life: the loop drives it from one thread at a time. */
    private final MessageDigest sha256 = Hashing.newDigest();
    private int streak;

    public NoProgress(int steps) {
        if (steps < 2) {
            throw new ReinException("no-progress steps must be at least 2, was " + steps
                    + ": give how many tool steps without a new observation make a stall (the default is " + DEFAULT_STEPS
                    + "), or turn the detector off with StallPolicy.Builder.without(\"" + NAME + "\")");
        }
        this.steps = steps;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String defaultMessage() {
        return "[rein] The last {steps} steps produced nothing new: every result repeated something already seen"
                + " or failed. Change approach, or finish with what you have and say what is missing.";
    }

    @Override
    public void recordStep(List<Observed> observed) {
        if (observed.isEmpty()) {
            return;
        }
        boolean fresh = false;
        boolean onlyPolling = true;
        for (Observed o : observed) {
            onlyPolling &= o.call().polling();
            if (!o.isError()) {
                // every kind of novelty is recorded (no short-circuit), each in its own namespace
                Digest content = digest(o.content());
                fresh |= seen.add(new Text(content));
                if (o.source() != null && !o.source().isBlank()) {
                    fresh |= seen.add(fact(o.source(), o.content(), content));
                }
                Optional<String> touched = o.touched();
                if (touched.isPresent()) {
                    fresh |= seen.add(new Resource(touched.get()));
                }
            }
        }
        if (onlyPolling) {
            return; // waiting on a job is neither stalling nor progress on the task, whatever status it read
        }
        streak = fresh ? 0 : streak + 1;
    }

    private Fact fact(String source, String content, Digest contentDigest) {
        int newline = source.indexOf('\n');
        if (newline < 0) {
            return new Fact(utf8(source), contentDigest);
        }
        return new Fact(utf8(source.substring(0, newline)), digest(source.substring(newline + 1) + "\n" + content));
    }

    /** {@code text} as its UTF-8 bytes read back: a lone surrogate becomes '?', as in the bytes hashed. */
    private static String utf8(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (Character.isSurrogate(text.charAt(i))) {
                return new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
            }
        }
        return text;
    }

    private Digest digest(String text) {
        ByteBuffer hash = ByteBuffer.wrap(sha256.digest(text.getBytes(StandardCharsets.UTF_8)));
        return new Digest(hash.getLong(), hash.getLong(), hash.getLong(), hash.getLong());
    }

    @Override
    public Optional<Map<String, Object>> checkStep() {
        if (streak < steps) {
            return Optional.empty();
        }
        Map<String, Object> evidence = new LinkedHashMap<>();
        evidence.put("steps", streak);
        return Optional.of(evidence);
    }
}
