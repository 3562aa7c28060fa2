package dev.rein.eval.internal;

/**
 * The terminal columns text takes, one rule for the text summary's table and the progress bar: two for each East Asian
 * wide or fullwidth character (Hangul, CJK, kana, fullwidth forms) and emoji shown as a picture by default (Unicode's
 * Emoji_Presentation, such as ✅ and 🪐; a text-default one such as ☺ takes one), none for a non-spacing or enclosing mark,
 * a format character or a Hangul vowel or final joining its syllable, one for every other (a spacing mark, as in हि,
 * included). The HTML report's {@code columnsOf}
 * (report.html) follows the same ranges: change both together.
 */
public final class DisplayWidth {
    private DisplayWidth() {}

    /** The columns {@code text} takes. */
    public static int of(String text) {
        return text.codePoints().map(DisplayWidth::of).sum();
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
