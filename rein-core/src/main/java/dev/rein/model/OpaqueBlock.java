package dev.rein.model;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;
import java.util.Optional;

/**
 * A provider block Rein does not interpret (for example a server tool result or a compaction
 * block). {@code json} is the block exactly as received, including its {@code type}; providers
 * send it back verbatim so the history stays valid.
 *
 * <p>As JSON (traces, snapshots) it is {@code {"type":"opaque","json":{…}}}: the provider's type
 * is read back from {@code json}. Writing it as a property too would give the object two
 * {@code type} keys, and a reader that keeps the last one (a JSON tree, {@code jq}) would lose
 * the block's kind; older traces and snapshots that have both are still read.
 *
 * <p>A provider that keeps the model's readable reasoning in such a block (a field outside the
 * API's content, as DeepSeek's {@code reasoning_content}) puts its text in a textual
 * {@value #REASONING_CONTENT} field of {@code json}; {@link #reasoning()} gives it to readers that
 * know no provider (telemetry records it as the model's reasoning).
 */
@JsonIgnoreProperties(value = "type", allowGetters = false)
public record OpaqueBlock(String type, ObjectNode json) implements ContentBlock {
    public OpaqueBlock {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(json, "json");
    }

    /**
     * The field of {@code json} that holds the model's readable reasoning, the name DeepSeek's API
     * gave it and the OpenAI-compatible servers that stream reasoning (vLLM, SGLang, Moonshot) use.
     */
    public static final String REASONING_CONTENT = "reasoning_content";

    /** The model's readable reasoning this block carries ({@value #REASONING_CONTENT}), or empty when it carries none. */
    public Optional<String> reasoning() {
        return json.path(REASONING_CONTENT).isTextual() ? Optional.of(json.path(REASONING_CONTENT).asText()) : Optional.empty();
    }

    @JsonCreator
    static OpaqueBlock fromJson(@JsonProperty("json") ObjectNode json) {
        Objects.requireNonNull(json, "json");
        return new OpaqueBlock(json.path("type").asText(), json);
    }
}
