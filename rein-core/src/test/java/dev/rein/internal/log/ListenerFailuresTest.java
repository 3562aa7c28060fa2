package dev.rein.internal.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

/** A listener's failure in words: its own, or its cause's when it has none, as a store's failure is said. */
class ListenerFailuresTest {
    @Test
    void aFailureWithNoMessageShowsItsCausesMessageAsAStoresFailureDoes() {
        UncheckedIOException silent = new UncheckedIOException(null, new IOException("No space left on device\nat /var/log"));

        assertThat(ListenerFailures.words(silent))
                .isEqualTo("UncheckedIOException (no message) (caused by IOException: No space left on device at /var/log)");
        // the cause of a failure that has words of its own is named, not quoted (its words may leave out what it must not show)
        assertThat(ListenerFailures.words(new UncheckedIOException("cannot flush trace.jsonl", new IOException("secret"))))
                .isEqualTo("UncheckedIOException: cannot flush trace.jsonl (caused by IOException)");
        assertThat(StoreFailures.why(silent)).contains("(caused by IOException: No space left on device");
    }
}
