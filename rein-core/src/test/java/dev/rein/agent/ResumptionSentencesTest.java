package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The note that a refused resume did not apply the decisions follows the refusal as one sentence follows another. */
class ResumptionSentencesTest {
    private static final String NOTE = "The decisions taken on its pause (refund) were not applied: the run ends without them";

    @Test
    void aMessageEndingASentenceGetsNoSecondFullStop() {
        assertThat(Resumption.sentences("the exporter is not configured.", NOTE))
                .isEqualTo("the exporter is not configured. " + NOTE);
        assertThat(Resumption.sentences("set REIN_EXPORTER first!", NOTE)).isEqualTo("set REIN_EXPORTER first! " + NOTE);
        assertThat(Resumption.sentences("is the exporter configured?  ", NOTE)).isEqualTo("is the exporter configured? " + NOTE);
        assertThat(Resumption.sentences("エクスポーターが未設定です。", NOTE)).isEqualTo("エクスポーターが未設定です。 " + NOTE);
    }

    @Test
    void aMessageWithoutAnEndGetsOneAndNoMessageNone() {
        assertThat(Resumption.sentences("the exporter is not configured", NOTE))
                .isEqualTo("the exporter is not configured. " + NOTE);
        assertThat(Resumption.sentences(null, NOTE)).isEqualTo(NOTE);
        assertThat(Resumption.sentences(" ", NOTE)).isEqualTo(NOTE);
    }
}
