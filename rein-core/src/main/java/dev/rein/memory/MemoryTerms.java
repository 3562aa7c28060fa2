package dev.rein.memory;

import java.text.Normalizer;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * The search terms of a text, shared by the memory stores so that every store recalls alike:
 * NFKC-normalised, lower-cased words of letters and digits; text in scripts written without spaces
 * (Japanese, Chinese, Thai, Lao, Khmer, Burmese) or whose words carry their particles (Korean:
 * 회의실은, "the meeting room" and a particle) is split into overlapping two-character terms. An
 * entry's text also has each such character as a term of its own, so a one-character word (青, 猫)
 * given alone as a query finds the entries that hold it; a query's longer runs are looked for by
 * their two-character terms only, so a shared particle (の, は) does not match every entry. A word
 * with Korean in it (회의실은, 3층) is a term as a whole too, as it was before Korean was split, so
 * entries a store indexed then are still found by their words.
 */
public final class MemoryTerms {
    /** The most terms of a query that a recall looks for: the first ones, in the query's order. */
    public static final int MAX_QUERY_TERMS = 1_000;

    private MemoryTerms() {}

    /**
     * The terms a recall looks for: those of {@code query}, at most {@value #MAX_QUERY_TERMS} (a
     * whole document given as a query would otherwise exceed what a database takes in one statement).
     */
    public static Set<String> ofQuery(String query) {
        Set<String> all = terms(query == null ? "" : query, false);
        return all.size() <= MAX_QUERY_TERMS ? all : all.stream().limit(MAX_QUERY_TERMS)
                .collect(java.util.stream.Collectors.toCollection(LinkedHashSet::new));
    }

    /** The terms an entry's {@code text} is found by: its words, two-character terms and single characters. */
    public static Set<String> of(String text) {
        return terms(text, true);
    }

    private static Set<String> terms(String text, boolean singles) {
        String normal = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        Set<String> terms = new LinkedHashSet<>();
        StringBuilder word = new StringBuilder();
        StringBuilder cjk = new StringBuilder();
        StringBuilder korean = new StringBuilder();
        boolean koreanHasHangul = false;
        for (int i = 0; i < normal.length(); ) {
            int cp = normal.codePointAt(i);
            i += Character.charCount(cp);
            // one script lookup per character: the three tests below all need it
            Character.UnicodeScript script = Character.UnicodeScript.of(cp);
            boolean letterOrDigit = Character.isLetterOrDigit(cp);
            // Before Korean was split, a run of letters and digits with Hangul in it was one term (3층, api를, 회의실은):
            // it still is, so the entries a store indexed then are found by the words they were found by.
            if (letterOrDigit && !isJapaneseOrChinese(script, cp)) {
                korean.appendCodePoint(cp);
                koreanHasHangul |= script == Character.UnicodeScript.HANGUL;
            } else {
                flushKorean(korean, koreanHasHangul, terms);
                koreanHasHangul = false;
            }
            if (isCjk(script, cp)) {
                flushWord(word, terms);
                cjk.appendCodePoint(cp);
            } else if (letterOrDigit) {
                flushCjk(cjk, terms, singles);
                word.appendCodePoint(cp);
            } else {
                flushWord(word, terms);
                flushCjk(cjk, terms, singles);
            }
        }
        flushWord(word, terms);
        flushCjk(cjk, terms, singles);
        flushKorean(korean, koreanHasHangul, terms);
        return terms;
    }

    private static boolean isJapaneseOrChinese(Character.UnicodeScript script, int cp) {
        return script == Character.UnicodeScript.HAN || script == Character.UnicodeScript.HIRAGANA
                || script == Character.UnicodeScript.KATAKANA || cp == 'ー';
    }

    /** The run as one term when it holds Hangul (see {@link #terms}). */
    private static void flushKorean(StringBuilder run, boolean hasHangul, Set<String> terms) {
        if (hasHangul && !run.isEmpty()) {
            terms.add(run.toString());
        }
        run.setLength(0);
    }

    /**
     * A character of a script split into two-character terms. By script, not by {@link Character#isLetterOrDigit}:
     * Thai's vowel and tone marks are not letters, and would otherwise cut its words apart.
     */
    private static boolean isCjk(Character.UnicodeScript script, int cp) {
        return switch (script) {
            case HAN, HIRAGANA, KATAKANA, HANGUL, THAI, LAO, KHMER, MYANMAR -> true;
            default -> cp == 'ー';
        };
    }

    private static void flushWord(StringBuilder word, Set<String> terms) {
        if (!word.isEmpty()) {
            terms.add(word.toString());
            word.setLength(0);
        }
    }

    private static void flushCjk(StringBuilder cjk, Set<String> terms, boolean singles) {
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
