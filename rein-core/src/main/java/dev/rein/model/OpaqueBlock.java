package dev.rein.model;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * A provider block Rein does not interpret (for example a server tool result or a compaction
 * block). {@code json} is the block exactly as received, including its {@code type}; providers
 * send it back verbatim so the history stays valid.
 */
public record OpaqueBlock(String type, ObjectNode json) implements ContentBlock {
    public OpaqueBlock {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(json, "json");
    }
}
