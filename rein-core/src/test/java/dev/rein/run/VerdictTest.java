package dev.rein.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class VerdictTest {

    @Test
    void aFailingVerdictWithAnEmptyOrBlankReasonIsRefusedSayingWhatToWrite() {
        // accepted before: the model was told "Missing or wrong:\n- " with nothing to fix, and refused again and again
        for (String reason : new String[] {"", "   ", "\n"}) {
            assertThatThrownBy(() -> Verdict.fail(reason)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("reason 1 of a failing verdict is empty")
                    .hasMessageContaining("Verdict.fail(\"the shipping date\")");
        }
        assertThatThrownBy(() -> Verdict.fail(List.of("the date", " "))).isInstanceOf(ReinException.class)
                .hasMessageContaining("reason 2 of a failing verdict is empty");
        // a null reason (an unset variable) is named the same way, not a bare NullPointerException from List.of
        assertThatThrownBy(() -> Verdict.fail((String) null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("reason 1 of a failing verdict is null");
        assertThatThrownBy(() -> Verdict.fail(Arrays.asList("the date", null))).isInstanceOf(ReinException.class)
                .hasMessageContaining("reason 2 of a failing verdict is null");
        assertThatThrownBy(() -> Verdict.fail()).isInstanceOf(ReinException.class)
                .hasMessageContaining("a failing verdict must say what is missing");
        assertThat(Verdict.fail("the date")).isEqualTo(new Verdict.Fail(List.of("the date")));
    }
}
