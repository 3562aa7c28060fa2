package dev.rein.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.approval.ActionHash;
import dev.rein.json.Json;
import dev.rein.model.ToolUseBlock;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A stored snapshot's numbers read back as they were written: the money used keeps every digit (the JDBC stores keep
 * them all), while a tool call's arguments read as they always have, so the action hash a person approves of a paused
 * run does not change when the run is loaded again.
 */
class SnapshotNumbersTest {
    private static String fixture() throws IOException {
        try (InputStream in = SnapshotNumbersTest.class.getResourceAsStream("/snapshots/paused-format1.json")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The fixture with float arguments on its paused call, and the money used given to {@code cost} and {@code before}. */
    private static String withNumbers(String cost, String before) throws IOException {
        String json = fixture()
                .replace("\"body\":\"Your order A-104 is late.\"}", "\"body\":\"Your order A-104 is late.\",\"amount\":0.1,"
                        + "\"rate\":1.0E-7,\"big\":12345678901234567890.123,\"price\":2.50,\"tiny\":4.9E-324}")
                .replace("\"cost_usd\":0.0012,", "\"cost_usd\":" + cost + ",")
                .replace("\"cost_before\":0,", "\"cost_before\":" + before + ",");
        assertThat(json).contains("\"amount\":0.1").contains("\"cost_usd\":" + cost).contains("\"cost_before\":" + before);
        return json;
    }

    private static ToolUseBlock pausedCall(RunSnapshot snapshot) {
        return (ToolUseBlock) snapshot.history().get(snapshot.history().size() - 1).content().get(0);
    }

    @Test
    void theActionHashOfAPausedCallWithFloatArgumentsIsTheSameAfterLoading() throws IOException {
        RunSnapshot loaded = SnapshotCodec.readSnapshot(withNumbers("0.0012", "0"));
        ToolUseBlock call = pausedCall(loaded);

        // pinned: loading a snapshot must never change how its arguments print, or an approval stops matching
        assertThat(Json.canonical(call.input())).isEqualTo("{\"amount\":0.1,\"big\":1.2345678901234567E19,\"body\":"
                + "\"Your order A-104 is late.\",\"price\":2.5,\"rate\":1.0E-7,\"tiny\":4.9E-324,\"to\":\"alice@example.com\"}");
        assertThat(ActionHash.of(call.name(), call.input()))
                .isEqualTo("bec8fe0aee830c11751393daa799cd974355912c86f3429029c16dbd84ba761f");
        RunSnapshot again = SnapshotCodec.readSnapshot(SnapshotCodec.write(loaded));
        assertThat(ActionHash.of(call.name(), pausedCall(again).input())).isEqualTo(ActionHash.of(call.name(), call.input()));
    }

    @Test
    void theMoneyUsedKeepsEveryDigitItWasStoredWith() throws IOException {
        String cost = "0.123456789012345678901234";
        String before = "12.000000000000000000000001";

        RunSnapshot loaded = SnapshotCodec.readSnapshot(withNumbers(cost, before));

        assertThat(loaded.costUsd()).isEqualByComparingTo(new BigDecimal(cost));
        assertThat(loaded.state().budget().costUsd()).isEqualByComparingTo(new BigDecimal(cost));
        assertThat(loaded.conversation().costBefore()).isEqualByComparingTo(new BigDecimal(before));
        RunSnapshot again = SnapshotCodec.readSnapshot(SnapshotCodec.write(loaded));
        assertThat(again.costUsd()).isEqualByComparingTo(new BigDecimal(cost));
        assertThat(again.conversation().costBefore()).isEqualByComparingTo(new BigDecimal(before));
    }
}
