package dev.rein.memory;

import static org.assertj.core.api.Assertions.assertThat;

import java.text.Normalizer;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The terms a memory entry is found by and a recall looks for. */
class MemoryTermsTest {

    @Test
    void koreanIsSplitIntoTwoCharacterTermsAndAWordWithKoreanInItStaysATermAsAWhole() {
        assertThat(MemoryTerms.of("회의실은 3층")).contains("회의", "의실", "실은", "회의실은", "3층", "층");
        assertThat(MemoryTerms.ofQuery("회의실")).contains("회의", "의실");
        assertThat(MemoryTerms.ofQuery("api를 쓰다")).contains("api를", "쓰다");
    }

    @Test
    void thaiIsSplitByScriptSoItsVowelMarksDoNotCutItsWords() {
        // ้ (a tone mark) and ุ (a vowel sign) are marks, not letters: a split on letters cut ห้อง into ห and อง
        assertThat(MemoryTerms.ofQuery("ห้องประชุม")).contains("ห้", "้อ", "อง");
        assertThat(MemoryTerms.of("ห้องประชุมอยู่ชั้นสาม")).containsAll(MemoryTerms.ofQuery("ห้องประชุม"));
    }

    @Test
    void japaneseAndLatinTermsAreAsBefore() {
        for (String text : List.of("好きな色は青です", "Refund policy: 30 days", "配送先は大阪、Osaka 2024年")) {
            assertThat(MemoryTerms.of(text)).as(text).containsAll(before(text, true));
            assertThat(MemoryTerms.ofQuery(text)).as(text).containsAll(before(text, false));
        }
    }

    @Test
    void everyTermAKoreanEntryWasIndexedByBeforeIsStillATermOfTheSameTextAsAQuery() {
        // A JDBC store keeps an entry's terms as they were made when it was remembered: a query for the same words
        // must still look for them.
        for (String text : List.of("회의실은 3층에 있습니다", "2024년 5월 회의", "api를 호출하다", "서울 本社の会議室")) {
            Set<String> old = before(text, true);
            old.removeIf(term -> term.codePoints().noneMatch(cp -> Character.UnicodeScript.of(cp) == Character.UnicodeScript.HANGUL));
            assertThat(MemoryTerms.ofQuery(text)).as(text).containsAll(old);
        }
    }

    /** The terms as they were made before Korean, Thai, Lao, Khmer and Burmese were split: a copy of the old rules. */
    private static Set<String> before(String text, boolean singles) {
        String normal = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        Set<String> terms = new LinkedHashSet<>();
        StringBuilder word = new StringBuilder();
        StringBuilder cjk = new StringBuilder();
        for (int cp : normal.codePoints().toArray()) {
            Character.UnicodeScript script = Character.UnicodeScript.of(cp);
            boolean japanese = script == Character.UnicodeScript.HAN || script == Character.UnicodeScript.HIRAGANA
                    || script == Character.UnicodeScript.KATAKANA || cp == 'ー';
            if (japanese) {
                flush(word, terms);
                cjk.appendCodePoint(cp);
            } else if (Character.isLetterOrDigit(cp)) {
                flushPairs(cjk, terms, singles);
                word.appendCodePoint(cp);
            } else {
                flush(word, terms);
                flushPairs(cjk, terms, singles);
            }
        }
        flush(word, terms);
        flushPairs(cjk, terms, singles);
        return terms;
    }

    private static void flush(StringBuilder word, Set<String> terms) {
        if (!word.isEmpty()) {
            terms.add(word.toString());
            word.setLength(0);
        }
    }

    private static void flushPairs(StringBuilder cjk, Set<String> terms, boolean singles) {
        int[] cps = cjk.codePoints().toArray();
        if (cps.length == 1) {
            terms.add(cjk.toString());
        }
        for (int i = 0; i + 1 < cps.length; i++) {
            terms.add(new String(cps, i, 2));
        }
        if (singles && cps.length > 1) {
            for (int cp : cps) {
                terms.add(Character.toString(cp));
            }
        }
        cjk.setLength(0);
    }
}
