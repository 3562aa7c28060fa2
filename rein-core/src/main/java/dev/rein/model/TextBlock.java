package dev.rein.model;

import dev.rein.ReinException;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * Plain text.
 *
 * @param text      the text
 * @param citations the provider's citations of this text (the sources a web search answer cites, in
 *                  the provider's own JSON), kept so that they reach the trace and go back to the
 *                  provider with the text as it sent them; null when the text cites nothing, and
 *                  then not written to JSON. Not part of the text: {@link ModelResponse#text()} and
 *                  a run's answer are the text alone
 */
public record TextBlock(String text, @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode citations) implements ContentBlock {
    public TextBlock {
        if (text == null) {
            throw new ReinException("a text block was given no text (null): give the text (\"\" for none)");
        }
        // A JSON null or an empty list cites nothing: one form for "none", so equal texts are equal blocks.
        if (citations != null && (citations.isNull() || citations.isMissingNode() || (citations.isArray() && citations.isEmpty()))) {
            citations = null;
        }
    }

    /** Text that cites nothing. */
    public TextBlock(String text) {
        this(text, null);
    }

    /** The same citations on {@code other} text (a provider's edit of the text, such as trimming it). */
    public TextBlock withText(String other) {
        return new TextBlock(other, citations);
    }
}
