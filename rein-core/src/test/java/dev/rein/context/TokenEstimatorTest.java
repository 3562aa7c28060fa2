package dev.rein.context;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.model.Message;
import dev.rein.model.ModelRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenEstimatorTest {
    @Test
    void asciiCountsAQuarterAndOtherCharactersOneEach() {
        assertThat(TokenEstimator.text("")).isZero();
        assertThat(TokenEstimator.text("abcd")).isEqualTo(1);
        assertThat(TokenEstimator.text("abcde")).isEqualTo(2);
        assertThat(TokenEstimator.text("配送状況")).isEqualTo(4);
        assertThat(TokenEstimator.text("😀")).isEqualTo(1);
    }

    @Test
    void aRequestCountsSystemToolsAndMessages() {
        ModelRequest small = ModelRequest.builder("m").messages(List.of(Message.user("hi"))).build();
        ModelRequest big = small.toBuilder().system("s".repeat(4_000)).addMessage(Message.user("x".repeat(40_000))).build();
        assertThat(TokenEstimator.estimate(small)).isBetween(1L, 20L);
        assertThat(TokenEstimator.estimate(big) - TokenEstimator.estimate(small)).isBetween(11_000L, 11_100L);
    }
}
