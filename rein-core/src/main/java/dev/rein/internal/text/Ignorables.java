package dev.rein.internal.text;

/**
 * Unicode's default-ignorable code points that are not format characters: they render as nothing (variation selectors,
 * the combining grapheme joiner, Hangul fillers, Mongolian variation selectors, Khmer inherent vowels). One list for
 * every rule that must see what a reader cannot: a tag's parts ({@link Fence}), a task id (rein-eval).
 */
public final class Ignorables {
    private Ignorables() {}

    /** Whether {@code c} is a default-ignorable code point that is not a format character (those have their own type). */
    public static boolean defaultIgnorable(int c) {
        return c == 0x034F || c == 0x115F || c == 0x1160 || c == 0x17B4 || c == 0x17B5 || (c >= 0x180B && c <= 0x180F)
                || c == 0x3164 || (c >= 0xFE00 && c <= 0xFE0F) || c == 0xFFA0 || (c >= 0xFFF0 && c <= 0xFFF8)
                || (c >= 0xE0000 && c <= 0xE0FFF);
    }
}
