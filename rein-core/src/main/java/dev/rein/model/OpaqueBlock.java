package dev.rein.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * A provider block Rein does not interpret (for example a server tool result or a compaction
 * block). {@code json} is the block exactly as received, including its {@code type}; providers
 * send it back verbatim so the history stays valid.
 *
 * <p>As JSON (traces, snapshots) it is {@code {"type":"opaque","json":{…}}}: the provider's type
 * is read back from {@code json}. Writing it as a property too would give the object two
 * {@code type} keys, and a reader that keeps the last one (a JSON tree, {@code jq}) would lose
 * the block's kind; older traces and snapshots that have both are still read.
 */
@JsonIgnoreProperties(value = "type", allowGetters = false)
public record OpaqueBlock(String type, ObjectNode json) implements ContentBlock {
    public OpaqueBlock {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(json, "json");
    }

    @JsonCreator
    static OpaqueBlock fromJson(@JsonProperty("json") ObjectNode json) {
        Objects.requireNonNull(json, "json");
        return new OpaqueBlock(json.path("type").asText(), json);
    }
}
