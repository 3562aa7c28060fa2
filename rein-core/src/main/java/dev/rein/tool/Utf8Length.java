package dev.rein.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;

/**
 * The size in UTF-8 bytes of a value's compact JSON text, counted as the text is written instead
 * of building the text and its bytes (this runs for every tool call). Counts exactly as
 * {@code Json.write(value).getBytes(UTF_8).length}: a surrogate pair is four bytes, a lone
 * surrogate one (the encoder's replacement character).
 */
final class Utf8Length extends Writer {
    private long bytes;
    private boolean pendingHigh;

    private Utf8Length() {}

    static long ofJson(JsonNode value) {
        Utf8Length counter = new Utf8Length();
        try {
            Json.mapper().writeValue(counter, value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return counter.total();
    }

    /** Counts text directly (tests compare it with the encoder). */
    static long of(CharSequence text) {
        Utf8Length counter = new Utf8Length();
        for (int i = 0; i < text.length(); i++) {
            counter.add(text.charAt(i));
        }
        return counter.total();
    }

    private long total() {
        return bytes + (pendingHigh ? 1 : 0);
    }

    private void add(char c) {
        if (pendingHigh) {
            pendingHigh = false;
            if (Character.isLowSurrogate(c)) {
                bytes += 4;
                return;
            }
            bytes += 1; // the lone high surrogate before this character
        }
        if (c < 0x80) {
            bytes += 1;
        } else if (c < 0x800) {
            bytes += 2;
        } else if (Character.isHighSurrogate(c)) {
            pendingHigh = true;
        } else if (Character.isLowSurrogate(c)) {
            bytes += 1;
        } else {
            bytes += 3;
        }
    }

    @Override
    public void write(char[] chars, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            add(chars[i]);
        }
    }

    @Override
    public void write(String text, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            add(text.charAt(i));
        }
    }

    @Override
    public void write(int c) {
        add((char) c);
    }

    @Override
    public void flush() {}

    @Override
    public void close() {}
}
