package dev.rein.mcp.internal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Drops one UTF-8 byte order mark at the start of an event stream, as the HTML standard's event
 * stream interpretation does; bytes may arrive in any chunks. Without it the first field would read
 * {@code \uFEFFdata}, an unknown field, and the event's data would be lost. Every other byte passes
 * on unchanged, a second mark included.
 */
final class LeadingBom {
    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

    /** How many bytes of a mark the stream began with so far, held back until it is whole or proves to be none. */
    private int matched;
    /** True once the start of the stream is past: the rest passes on as it is. */
    private boolean past;

    /** The bytes to pass on for {@code chunk} (their buffers' positions are not moved). */
    List<ByteBuffer> strip(List<ByteBuffer> chunk) {
        if (past) {
            return chunk;
        }
        List<ByteBuffer> out = new ArrayList<>();
        for (ByteBuffer buffer : chunk) {
            ByteBuffer view = buffer.duplicate();
            while (!past && view.hasRemaining()) {
                if (view.get(view.position()) == BOM[matched]) {
                    view.get();
                    past = ++matched == BOM.length; // a whole mark: dropped
                } else {
                    past = true;
                    if (matched > 0) {
                        out.add(held()); // the start of a mark only: the stream's own bytes
                    }
                }
            }
            if (view.hasRemaining()) {
                out.add(view.slice());
            }
        }
        return out;
    }

    /** {@link #strip} for one buffer. */
    List<ByteBuffer> strip(ByteBuffer bytes) {
        return strip(List.of(bytes));
    }

    /** At the end of the stream: the start of a mark held back, when the stream ended inside it (none otherwise). */
    List<ByteBuffer> end() {
        if (past || matched == 0) {
            return List.of();
        }
        past = true;
        return List.of(held());
    }

    private ByteBuffer held() {
        return ByteBuffer.wrap(Arrays.copyOf(BOM, matched));
    }
}
