package dev.rein.internal.text;

/**
 * The result text of a call Rein did not make because the run's deadline had passed. Such a call
 * and one cut off while it ran both end as {@code TIMEOUT}; only this text tells them apart, for
 * what Rein later says about the call (that it was refused, not made).
 */
public final class DeadlineRefusal {
    private static final String PREFIX = "The run's deadline has passed; tool '";

    private DeadlineRefusal() {}

    /** The result of {@code tool}'s call, not made. */
    public static String notCalled(String tool) {
        return PREFIX + tool + "' was not called.";
    }

    /** The result of {@code tool}'s call, not made and not put to a person for approval. */
    public static String notCalledNorAsked(String tool) {
        return PREFIX + tool + "' was not called and no person was asked to approve it.";
    }

    /** Whether a {@code TIMEOUT} result's text says the call was not made. */
    public static boolean isNotCalled(String content) {
        return content != null && content.startsWith(PREFIX);
    }
}
