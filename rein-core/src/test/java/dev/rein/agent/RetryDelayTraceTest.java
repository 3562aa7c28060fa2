package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.model.ModelException;
import dev.rein.retry.RetryPolicy;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.trace.TraceEvent;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** model_retry's delay_ms says the wait in whole milliseconds, rounded up: a wait is never written as none. */
class RetryDelayTraceTest {
    private static long tracedDelay(Duration retryAfter) {
        RecordingListener trace = new RecordingListener();
        ModelException busy = new ModelException(ModelException.Kind.OVERLOADED, 529, "Overloaded", true, retryAfter, null,
                null);
        Agent.builder().model(ScriptedModel.of(ScriptedModel.fail(busy), text("fine"))).listener(trace)
                .retryPolicy(new RetryPolicy(1, Duration.ofMillis(1), Duration.ofMillis(1), 0)).build().run("go");
        return trace.events(TraceEvent.ModelRetry.class).get(0).delayMillis();
    }

    @Test
    void aSubMillisecondWaitIsWrittenAsOneMillisecondNotZero() {
        // retry-after-ms: 0.4 (the server asks for 400 µs): waited as given, and delay_ms 0 read as "no wait"
        assertThat(tracedDelay(Duration.ofNanos(400_000))).isEqualTo(1);
    }

    @Test
    void aFractionOfAMillisecondIsRoundedUpAndWholeOnesKept() {
        assertThat(tracedDelay(Duration.ofNanos(2_300_000))).isEqualTo(3);
        assertThat(tracedDelay(Duration.ofMillis(2))).isEqualTo(2);
        assertThat(tracedDelay(Duration.ZERO)).isZero();
    }
}
