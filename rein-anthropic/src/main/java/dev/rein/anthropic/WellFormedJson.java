package dev.rein.anthropic;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.JsonGeneratorDelegate;
import dev.rein.provider.WireText;
import java.io.IOException;

/**
 * A generator that writes half a UTF-16 surrogate pair as U+FFFD, as a UTF-8 decoder reads a bad
 * byte. Such text has no UTF-8 form, so Jackson refuses to write it, and it reaches requests from
 * outside: a tool that cut a string in the middle of an emoji, an MCP server whose JSON escaped a
 * lone {@code \ud83d}. Since the text stays in the history, every later request of the run would
 * fail to be written. Trees ({@code writeTree}) are written through this generator too, so a tool
 * call's input, a schema and an opaque block are covered; whole pairs (emoji) pass unchanged
 * ({@link WireText}).
 */
final class WellFormedJson extends JsonGeneratorDelegate {

    WellFormedJson(JsonGenerator generator) {
        // false: writeTree serializes through this generator instead of handing the tree to the delegate
        super(generator, false);
    }

    @Override
    public void writeString(String text) throws IOException {
        super.writeString(text == null ? null : WireText.wellFormed(text));
    }

    @Override
    public void writeString(char[] text, int offset, int length) throws IOException {
        writeString(new String(text, offset, length));
    }

    @Override
    public void writeFieldName(String name) throws IOException {
        super.writeFieldName(WireText.wellFormed(name));
    }

    /**
     * A history message's cached wire form (written well-formed already), copied as its UTF-8 bytes:
     * the delegate's own method, where the inherited one would encode its text again on every request.
     */
    @Override
    public void writeRawValue(com.fasterxml.jackson.core.SerializableString raw) throws IOException {
        delegate.writeRawValue(raw);
    }
}
