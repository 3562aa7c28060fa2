package dev.rein.openai;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.OpaqueBlock;
import java.util.List;

/**
 * Keeps the reasoning text of a response, a field outside Chat Completions in which DeepSeek's thinking mode (and
 * servers that follow it) streams its reasoning as {@code reasoning_content}, and vLLM (since it renamed that field,
 * which it reads no more on input) and Ollama as {@code reasoning}: between two user messages with a tool call between
 * them, DeepSeek needs it back on every assistant message, and refuses, with HTTP 400, a history without it ("Missing
 * `reasoning_content` field in the assistant message"); elsewhere it ignores it. It travels with the response as an
 * {@link OpaqueBlock} of type {@value #TYPE} and is echoed on its assistant message, to that server, or to a model of
 * the same family elsewhere ({@link Origin#family}), only: Groq and others refuse the field.
 *
 * <p>Text read from {@code reasoning} (marked {@value #FIELD} {@code reasoning}) goes back only to a model of a family
 * that needs it ({@link Origin#family} not null): Groq sends that field too and refuses it back, and so may other
 * servers that share the name; to the server that sent it under that name (vLLM reads nothing else), elsewhere as
 * {@code reasoning_content}, the name of the families' own APIs.
 *
 * <p>A MiniMax model's reasoning goes to another host in its own think tags at the start of {@code content}, not in
 * a field: MiniMax's model card asks every deployment for the thinking "passed back in its original format" ({@code
 * <think>...</think>} in the content), its own API documents no {@code reasoning_content} (and {@code reasoning_details}
 * only with its non-standard {@code reasoning_split}, which Rein does not send), and vLLM reads only {@code reasoning} on
 * an assistant message of the input. Its reasoning read from the start of its {@code content} ({@link InlineThink}) is
 * kept with its think block as it came ({@value #FIELD} {@value #CONTENT}), which goes back so, verbatim (MiniMax's
 * guide: "must be preserved completely").
 */
final class ReasoningContent {
    static final String TYPE = "openai_reasoning_content";
    /** The key of a kept block naming the field its text came in, when that was not {@code reasoning_content}. */
    static final String FIELD = "field";
    /** The key of the text in the block, whichever field it came in: {@link OpaqueBlock#reasoning()} reads it there. */
    static final String REASONING_CONTENT = OpaqueBlock.REASONING_CONTENT;
    static final String REASONING = "reasoning";
    /**
     * The field of a kept block whose text came in {@code reasoning_details} (a gateway's, {@link ReasoningDetails}),
     * which go back to their server themselves: the text goes only to another host of the family.
     */
    static final String REASONING_DETAILS = "reasoning_details";
    /**
     * The field of a kept block whose text came at the start of {@code content}, in think tags (a MiniMax model's, see
     * {@link InlineThink}), and goes back there.
     */
    static final String CONTENT = "content";
    /** The key of the think block as it came in a kept block of field {@value #CONTENT}, tags and white space included. */
    static final String THINK = "think";

    /** What goes back on an assistant message: the field and its text. */
    record Echo(String field, String text) {
        /** Puts the text on an assistant message in its field, or before the content's text for {@value #CONTENT}. */
        void wire(ObjectNode message) {
            if (CONTENT.equals(field)) {
                // before the answer, as the model wrote it; a message of only tool calls has null content
                message.put(CONTENT, text + message.path(CONTENT).asText(""));
            } else {
                message.put(field, text);
            }
        }
    }

    /**
     * How reasoning another host sent goes to a model of {@code family} elsewhere: in {@code reasoning_content}, the name
     * of the families' own APIs, but a MiniMax model's in its think tags before the content (the block as it came, when
     * it came so).
     */
    private static Echo elsewhere(OpaqueBlock block, String text, String family) {
        if (Origin.MINIMAX.equals(family)) {
            JsonNode think = block.json().path(THINK);
            return new Echo(CONTENT, think.isTextual() ? think.asText() : InlineThink.wrap(text));
        }
        return new Echo(REASONING_CONTENT, text);
    }

    private ReasoningContent() {}

    /**
     * The block to keep with a response that reasoned in {@code text}, sent by the server at {@code origin} in the field
     * {@code field} ({@value #REASONING_CONTENT}, {@value #REASONING} or {@value #REASONING_DETAILS}), marked with the
     * model family ({@link
     * Origin#family}) of {@code family}, when it has one.
     */
    static OpaqueBlock keep(String text, String field, String origin, String family) {
        ObjectNode json = Origin.mark(Json.object().put("type", TYPE).put(REASONING_CONTENT, text), origin);
        if (family != null) {
            json.put(Origin.FAMILY, family);
        }
        if (!REASONING_CONTENT.equals(field)) {
            json.put(FIELD, field);
        }
        return new OpaqueBlock(TYPE, json);
    }

    /**
     * The block to keep with a response whose {@code content} began with its reasoning in think tags ({@link
     * InlineThink}): {@code text} the reasoning, {@code think} the block verbatim, which goes back before the answer to
     * the server that sent it (MiniMax: "must be preserved completely").
     */
    static OpaqueBlock keepInline(String text, String think, String origin, String family) {
        OpaqueBlock kept = keep(text, REASONING_CONTENT, origin, family);
        ObjectNode json = kept.json().deepCopy().put(FIELD, CONTENT).put(THINK, think);
        return new OpaqueBlock(TYPE, json);
    }

    /**
     * The kept reasoning of a message to send to the server at {@code origin}, serving a model of {@code family} ({@link
     * Origin#family}; null: none), with the field to send it in; null when there is none or it does not go there.
     */
    static Echo of(List<ContentBlock> content, String origin, String family) {
        for (ContentBlock block : content) {
            if (!(block instanceof OpaqueBlock o && TYPE.equals(o.type()) && o.json().path(REASONING_CONTENT).isTextual())) {
                continue;
            }
            String text = o.json().path(REASONING_CONTENT).asText();
            if (CONTENT.equals(o.json().path(FIELD).asText(null)) && o.json().path(THINK).isTextual()) {
                // back in content as it came, to that server or to another host of the family
                return Origin.echoTo(o, origin, family) ? new Echo(CONTENT, o.json().path(THINK).asText()) : null;
            }
            if (REASONING_DETAILS.equals(o.json().path(FIELD).asText(null))) {
                return Origin.echoTo(o, origin) || family == null || !family.equals(o.json().path(Origin.FAMILY).asText(null))
                        ? null : elsewhere(o, text, family);
            }
            if (!REASONING.equals(o.json().path(FIELD).asText(null))) {
                return Origin.echoTo(o, origin) ? new Echo(REASONING_CONTENT, text)
                        : Origin.echoTo(o, origin, family) ? elsewhere(o, text, family) : null;
            }
            if (family == null) {
                return null;
            }
            if (Origin.echoTo(o, origin)) {
                return new Echo(REASONING, text);
            }
            return family.equals(o.json().path(Origin.FAMILY).asText(null)) ? elsewhere(o, text, family) : null;
        }
        return null;
    }
}
