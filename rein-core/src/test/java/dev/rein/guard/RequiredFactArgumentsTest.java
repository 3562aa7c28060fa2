package dev.rein.guard;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A required fact that could never be checked as written is refused when it is made, naming the fact and what to pass.
 * Before: answerMentions("x", "") was present in every answer (every text contains ""), a null word failed each check
 * during the run with a NullPointerException, and a null predicate, pattern, tool or word list threw a bare one.
 */
class RequiredFactArgumentsTest {
    @Test
    void aFactThatCouldNotBeCheckedIsRefusedWhenMade() {
        assertThatThrownBy(() -> RequiredFact.answerMentions("refund id", "")).isInstanceOf(ReinException.class)
                .hasMessageContaining("'refund id'").hasMessageContaining("blank");
        assertThatThrownBy(() -> RequiredFact.answerMentions("refund id", "RF-", " ")).isInstanceOf(ReinException.class)
                .hasMessageContaining("'refund id'");
        assertThatThrownBy(() -> RequiredFact.answerMentions("refund id", "RF-", null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("'refund id'").hasMessageContaining("null");
        assertThatThrownBy(() -> RequiredFact.answerMentions("refund id", (String[]) null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("'refund id'");
        assertThatThrownBy(() -> RequiredFact.of("refund id", null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("'refund id'").hasMessageContaining("predicate");
        assertThatThrownBy(() -> RequiredFact.answerMatches("date", (Pattern) null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("'date'").hasMessageContaining("pattern");
        assertThatThrownBy(() -> RequiredFact.toolSucceeded("order looked up", null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("'order looked up'").hasMessageContaining("tool");
        RequiredFact.answerMentions("返金番号", "返金", "RF-"); // Japanese words are fine
    }
}
