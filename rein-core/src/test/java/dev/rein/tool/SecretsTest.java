package dev.rein.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SecretsTest {
    @Test
    void longerSecretsAreMaskedFirstSoAContainedSecretNeverLeaksHalfOfALongerOne() {
        String masked = Secrets.mask("a=abcd-efgh b=abcd", Map.of("short", "abcd", "long", "abcd-efgh"));
        assertThat(masked).isEqualTo("a=[REDACTED:long] b=[REDACTED:short]");
    }

    @Test
    void tooShortSecretsAreRefusedAtRegistration() {
        assertThatThrownBy(() -> Secrets.of(Map.of("pin", "123"))).isInstanceOf(ReinException.class)
                .hasMessageContaining("shorter than 4");
    }

    @Test
    void trackingLearnsValuesAsTheyAreHandedOut() {
        Secrets lazy = Secrets.tracking(name -> Optional.of("value-of-" + name));
        assertThat(lazy.known()).isEmpty();
        lazy.get("a");
        assertThat(lazy.known()).containsEntry("a", "value-of-a");
    }
}
