package dev.rein.anthropic;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A JSON value already written, kept as its UTF-8 bytes, for {@code writeRawValue}: a history
 * message's or tool's cached wire form. Written straight to bytes once, it is copied into each
 * request as they are ({@link SerializedString} holds text, so a fragment was written as chars,
 * copied into a string and encoded to UTF-8 again). The text forms, which no request uses, are
 * made on demand.
 */
final class RawJson implements SerializableString {
    private final byte[] utf8;

    RawJson(byte[] utf8) {
        this.utf8 = utf8;
    }

    private SerializedString text() {
        return new SerializedString(getValue());
    }

    @Override
    public String getValue() {
        return new String(utf8, StandardCharsets.UTF_8);
    }

    @Override
    public int charLength() {
        return getValue().length();
    }

    @Override
    public char[] asQuotedChars() {
        return text().asQuotedChars();
    }

    /** The bytes themselves, not a copy: Jackson only copies them into its buffer. */
    @Override
    public byte[] asUnquotedUTF8() {
        return utf8;
    }

    @Override
    public byte[] asQuotedUTF8() {
        return text().asQuotedUTF8();
    }

    @Override
    public int appendQuotedUTF8(byte[] buffer, int offset) {
        return text().appendQuotedUTF8(buffer, offset);
    }

    @Override
    public int appendQuoted(char[] buffer, int offset) {
        return text().appendQuoted(buffer, offset);
    }

    @Override
    public int appendUnquotedUTF8(byte[] buffer, int offset) {
        if (offset + utf8.length > buffer.length) {
            return -1;
        }
        System.arraycopy(utf8, 0, buffer, offset, utf8.length);
        return utf8.length;
    }

    @Override
    public int appendUnquoted(char[] buffer, int offset) {
        return text().appendUnquoted(buffer, offset);
    }

    @Override
    public int writeQuotedUTF8(OutputStream out) throws IOException {
        return text().writeQuotedUTF8(out);
    }

    @Override
    public int writeUnquotedUTF8(OutputStream out) throws IOException {
        out.write(utf8);
        return utf8.length;
    }

    @Override
    public int putQuotedUTF8(ByteBuffer buffer) throws IOException {
        return text().putQuotedUTF8(buffer);
    }

    @Override
    public int putUnquotedUTF8(ByteBuffer buffer) throws IOException {
        if (utf8.length > buffer.remaining()) {
            return -1;
        }
        buffer.put(utf8);
        return utf8.length;
    }

    @Override
    public String toString() {
        return getValue();
    }
}
