package dev.rein.examples.orders;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class DurableOrdersTest {
    @Test
    void theOrdersAgentSurvivesAWorkerCrashOnTemporalAndReshipsOnce() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        boolean ok = DurableOrders.run(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String out = bytes.toString(StandardCharsets.UTF_8);

        assertThat(ok).as(out).isTrue();
        assertThat(out).contains("crashed before reporting it").contains("status: SUCCEEDED").contains("re-shipments made: 1");
    }
}
