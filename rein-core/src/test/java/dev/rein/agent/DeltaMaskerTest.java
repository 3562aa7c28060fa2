package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class DeltaMaskerTest {
    private static final Map<String, String> OVERLAPPING = Map.of("a", "tok-ABCD-1234", "b", "1234-WXYZ-tok");

    private static String stream(Map<String, String> secrets, String... fragments) {
        DeltaMasker masker = new DeltaMasker(() -> secrets);
        StringBuilder released = new StringBuilder();
        for (String fragment : fragments) {
            released.append(masker.accept(fragment));
        }
        return released.append(masker.flush()).toString();
    }

    @Test
    void twoSecretsThatOverlapAreMaskedWholeWhereverTheFragmentsEnd() {
        String text = "x tok-ABCD-1234-WXYZ-tok y";
        // Before: the first secret was masked and its marker held back, so the second no longer matched once its
        // end arrived, and '-WXYZ-tok' reached the listener in clear.
        assertThat(stream(OVERLAPPING, "x tok-ABCD-1234", "-WXYZ-tok y")).isEqualTo("x [REDACTED:a][REDACTED:b] y");
        for (int size = 1; size <= text.length(); size++) {
            String[] fragments = new String[(text.length() + size - 1) / size];
            for (int i = 0; i < fragments.length; i++) {
                fragments[i] = text.substring(i * size, Math.min(text.length(), (i + 1) * size));
            }
            assertThat(stream(OVERLAPPING, fragments)).as("fragments of %d", size).isEqualTo("x [REDACTED:a][REDACTED:b] y");
        }
    }

    @Test
    void textWithoutSecretsIsReleasedUnchangedAndEmojiAreNeverCut() {
        Map<String, String> one = Map.of("k", "秘密キー-1234");
        assertThat(stream(one, "今日は🚚", "で秘密キ", "ー-1234を", "送ります🚚")).isEqualTo("今日は🚚で[REDACTED:k]を送ります🚚");
        assertThat(stream(Map.of(), "a", "b")).isEqualTo("ab");
    }
}
