package dev.rein.eval.internal;

/**
 * The terminal columns text takes, one rule for the text summary's table and the progress bar: two for each East Asian
 * wide or fullwidth character (Hangul, CJK, kana, fullwidth forms) and emoji shown as a picture by default (Unicode's
 * Emoji_Presentation, such as ✅ and 🪐; a text-default one such as ☺ takes one), none for a non-spacing or enclosing mark,
 * a format character or a Hangul vowel or final joining its syllable, one for every other (a spacing mark, as in हि,
 * included); an emoji sequence is one cluster of two ({@link #of(String)}). The HTML report's {@code columnsOf}
 * (report.html) follows the same ranges per character: change both together. It counts no clusters, as it measures
 * task ids only, which hold letters, digits and marks, no emoji.
 */
public final class DisplayWidth {
    private DisplayWidth() {}

    /**
     * The columns {@code text} takes, counted per grapheme cluster ({@link java.text.BreakIterator}): an emoji sequence
     * (a flag's two regional indicators, emoji joined by U+200D, an emoji and a skin-tone modifier, an emoji and U+FE0F,
     * which asks for the picture) is one picture of two columns, not the sum of its parts; any other cluster is the sum
     * of its characters' columns.
     */
    public static int of(String text) {
        java.text.BreakIterator clusters = dev.rein.internal.text.Clusters.of(text);
        int columns = 0;
        for (int start = 0, end = clusters.next(); end != java.text.BreakIterator.DONE; start = end, end = clusters.next()) {
            columns += cluster(text, start, end);
        }
        return columns;
    }

    /** The columns of the grapheme cluster {@code text[start, end)}. */
    private static int cluster(String text, int start, int end) {
        int first = text.codePointAt(start);
        int next = start + Character.charCount(first);
        if (next < end && Character.isEmoji(first)) {
            int second = text.codePointAt(next);
            if (second == 0xFE0F || second == 0x200D || Character.isEmojiModifier(second)
                    || first >= 0x1F1E6 && first <= 0x1F1FF || text.indexOf(0x200D, next) >= 0 && text.indexOf(0x200D, next) < end) {
                return 2;
            }
        }
        int columns = 0;
        for (int i = start; i < end; ) {
            int c = text.codePointAt(i);
            columns += of(c);
            i += Character.charCount(c);
        }
        return columns;
    }

    /** The columns the character {@code c} takes: 0, 1 or 2. */
    public static int of(int c) {
        int type = Character.getType(c);
        if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK || type == Character.FORMAT
                || c >= 0x1160 && c <= 0x11FF) {
            return 0;
        }
        boolean wide = c >= 0x1100 && c <= 0x115F || c >= 0x2E80 && c <= 0xA4CF && c != 0x303F || c >= 0xAC00 && c <= 0xD7A3
                || c >= 0xF900 && c <= 0xFAFF || c >= 0xFE30 && c <= 0xFE4F || c >= 0xFF00 && c <= 0xFF60
                || c >= 0xFFE0 && c <= 0xFFE6 || c >= 0x1F300 && c <= 0x1F64F || c >= 0x1F680 && c <= 0x1F6FF
                || c >= 0x1F900 && c <= 0x1F9FF || c >= 0x20000 && c <= 0x3FFFD || Character.isEmojiPresentation(c);
        return wide ? 2 : 1;
    }
}
