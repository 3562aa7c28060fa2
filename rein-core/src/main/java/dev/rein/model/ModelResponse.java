package dev.rein.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.rein.ReinException;
import dev.rein.internal.collect.NullElements;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the model answered: content blocks, why it stopped, and the tokens it used.
 *
 * <p>A {@link Model} of one's own builds one with {@link #builder()}, which names each field and leaves the rest
 * unset (null; {@code content} empty), so a field added later does not change the code that builds it:
 * {@code ModelResponse.builder().id("msg_1").model("m").content(blocks).stopReason(StopReason.END_TURN).usage(usage)
 * .build()}.
 * {@link #toBuilder()} starts from a response (a stage that changes one field). The shorter constructors are kept for
 * code written before the builder; each field added would add another, so new code uses the builder. The checks are the
 * canonical constructor's, also when built: a missing model, content or stop reason is a {@link ReinException}.
 *
 * @param usage the tokens the provider reported; null (kept as {@link Usage#NOT_REPORTED}) when it
 *     reported none, which a provider must not turn into {@link Usage#ZERO}: a run estimates the
 *     usage of such a response so that its token and money limits still bind
 * @param stopDetail the provider's own human-readable explanation of why it stopped, when it gives
 *     one, else null: a provider may explain a refusal (a policy category and an explanation meant
 *     to be shown to the user) next to its stop reason
 * @param providerStopReason the stop reason exactly as the provider sent it ({@code stop_reason} of
 *     the Messages API, {@code finish_reason} of Chat Completions), else null (none sent, or a
 *     {@link Model} that does not give it): {@link #stopReason} maps it to Rein's neutral values,
 *     where a value Rein does not know becomes {@link StopReason#UNKNOWN} and a provider's own
 *     (Mistral's {@code model_length}) a neutral one, so this is the one to look at when debugging a
 *     run. Kept in traces and snapshots; nothing in the run decides by it
 * @param serviceTier the service tier the provider reports it served the call at, as the provider names it (such as
 *     {@code "flex"} or {@code "priority"}), when that is not its standard tier; null when it served the call at its
 *     standard tier or reported none. A tier can be priced at other rates ({@link
 *     dev.rein.budget.ModelPrice#withTier}): the run charges the call at them. Kept in traces
 * @param providerServiceTier the service tier exactly as the provider sent it, its standard tier too (OpenAI's {@code
 *     "default"}, Anthropic's {@code "standard"}), else null (none sent, or a {@link Model} that does not give it; a
 *     trace written before it): {@link #serviceTier} is the tier for pricing, where the standard one is none, and this
 *     is the one telemetry reports. Kept in traces; nothing in the run decides by it
 * @param systemFingerprint the provider's name for the backend configuration that served the call, as it sent it (Chat
 *     Completions' {@code system_fingerprint}, such as {@code "fp_44709d6fcb"}: a change of it may change the answers
 *     to a request with the same seed), else null (none sent, or a {@link Model} that does not give it; a trace written
 *     before it). Telemetry reports it; kept in traces; nothing in the run decides by it
 */
public record ModelResponse(String id, String model, List<ContentBlock> content, StopReason stopReason,
                            String stopSequence, Usage usage,
                            @JsonInclude(JsonInclude.Include.NON_NULL) String stopDetail,
                            @JsonInclude(JsonInclude.Include.NON_NULL) String providerStopReason,
                            @JsonInclude(JsonInclude.Include.NON_NULL) String serviceTier,
                            @JsonInclude(JsonInclude.Include.NON_NULL) String providerServiceTier,
                            @JsonInclude(JsonInclude.Include.NON_NULL) String systemFingerprint) {
    public ModelResponse {
        // Messages that name the field: a third-party Model builds this, and the run reports its
        // failure with the message (a bare "coll is null" would not say what was left out)
        if (model == null) {
            throw new ReinException("a ModelResponse needs the model that answered; model is null: give its name");
        }
        if (content == null) {
            throw new ReinException("a ModelResponse needs its content; content is null: give its blocks (List.of() for none)");
        }
        int at = NullElements.firstNull(content); // one pass whatever the list (a LinkedList too)
        if (at >= 0) {
            throw new ReinException("a ModelResponse's content block " + (at + 1) + " of " + content.size()
                    + " is null; leave it out");
        }
        content = List.copyOf(content);
        if (stopReason == null) {
            throw new ReinException("a ModelResponse needs its stopReason; stopReason is null (StopReason.UNKNOWN when the"
                    + " provider gave none)");
        }
        usage = usage == null ? Usage.NOT_REPORTED : usage;
        if (serviceTier != null && serviceTier.isBlank()) {
            serviceTier = null; // a blank name names no tier
        }
        if (providerServiceTier != null && providerServiceTier.isBlank()) {
            providerServiceTier = null;
        }
        if (systemFingerprint != null && systemFingerprint.isBlank()) {
            systemFingerprint = null;
        }
    }

    /**
     * A response without the provider's system fingerprint.
     * Kept for existing callers; new code uses {@link #builder()}.
     */
    public ModelResponse(String id, String model, List<ContentBlock> content, StopReason stopReason,
                         String stopSequence, Usage usage, String stopDetail, String providerStopReason,
                         String serviceTier, String providerServiceTier) {
        this(id, model, content, stopReason, stopSequence, usage, stopDetail, providerStopReason, serviceTier,
                providerServiceTier, null);
    }

    /**
     * A response without the service tier as the provider sent it (only the tier for pricing, or none).
     * Kept for existing callers; new code uses {@link #builder()}.
     */
    public ModelResponse(String id, String model, List<ContentBlock> content, StopReason stopReason,
                         String stopSequence, Usage usage, String stopDetail, String providerStopReason,
                         String serviceTier) {
        this(id, model, content, stopReason, stopSequence, usage, stopDetail, providerStopReason, serviceTier, null, null);
    }

    /**
     * A response served at the provider's standard tier (or one that reported none).
     * Kept for existing callers; new code uses {@link #builder()}.
     */
    public ModelResponse(String id, String model, List<ContentBlock> content, StopReason stopReason,
                         String stopSequence, Usage usage, String stopDetail, String providerStopReason) {
        this(id, model, content, stopReason, stopSequence, usage, stopDetail, providerStopReason, null, null, null);
    }

    /** This response with {@code usage} in place of its own, all else kept. */
    public ModelResponse withUsage(Usage usage) {
        return new ModelResponse(id, model, content, stopReason, stopSequence, usage, stopDetail, providerStopReason,
                serviceTier, providerServiceTier, systemFingerprint);
    }

    /**
     * This response with {@code content} in place of its own, all else kept: for a stage that changes the blocks (one
     * that masks secrets), so that no field of the response is lost on the way, one added later too.
     */
    public ModelResponse withContent(List<ContentBlock> content) {
        return new ModelResponse(id, model, content, stopReason, stopSequence, usage, stopDetail, providerStopReason,
                serviceTier, providerServiceTier, systemFingerprint);
    }

    /**
     * A response without a stop detail or the provider's own stop reason.
     * Kept for existing callers; new code uses {@link #builder()}.
     */
    public ModelResponse(String id, String model, List<ContentBlock> content, StopReason stopReason,
                         String stopSequence, Usage usage) {
        this(id, model, content, stopReason, stopSequence, usage, null, null, null, null, null);
    }

    /**
     * A response without the provider's own stop reason.
     * Kept for existing callers; new code uses {@link #builder()}.
     */
    public ModelResponse(String id, String model, List<ContentBlock> content, StopReason stopReason,
                         String stopSequence, Usage usage, String stopDetail) {
        this(id, model, content, stopReason, stopSequence, usage, stopDetail, null, null, null, null);
    }

    /** A builder with nothing set: {@link Builder#build()} needs at least the model and the stop reason. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this response's fields, for a response that differs in some. */
    public Builder toBuilder() {
        return new Builder().id(id).model(model).content(content).stopReason(stopReason).stopSequence(stopSequence)
                .usage(usage).stopDetail(stopDetail).providerStopReason(providerStopReason).serviceTier(serviceTier)
                .providerServiceTier(providerServiceTier).systemFingerprint(systemFingerprint);
    }

    /**
     * Builder for {@link ModelResponse}; each setter names a field, whose meaning the record's Javadoc gives. Unset fields
     * are null, {@code content} empty; {@link #build()} checks as the canonical constructor does.
     */
    public static final class Builder {
        private String id;
        private String model;
        private List<ContentBlock> content = List.of();
        private StopReason stopReason;
        private String stopSequence;
        private Usage usage;
        private String stopDetail;
        private String providerStopReason;
        private String serviceTier;
        private String providerServiceTier;
        private String systemFingerprint;

        private Builder() {}

        /** The provider's id of the response (such as {@code msg_...}), or null. */
        public Builder id(String id) {
            this.id = id;
            return this;
        }

        /** The model that answered, as the provider named it; required. */
        public Builder model(String model) {
            this.model = model;
            return this;
        }

        /** The content blocks (default none); null or a null block is refused at {@link #build()}. */
        public Builder content(List<ContentBlock> content) {
            this.content = content;
            return this;
        }

        /** Why the model stopped; required ({@link StopReason#UNKNOWN} when the provider gave none). */
        public Builder stopReason(StopReason stopReason) {
            this.stopReason = stopReason;
            return this;
        }

        /** The stop sequence the output reached, or null. */
        public Builder stopSequence(String stopSequence) {
            this.stopSequence = stopSequence;
            return this;
        }

        /** The tokens the provider reported; null (the default) when it reported none, never {@link Usage#ZERO} then. */
        public Builder usage(Usage usage) {
            this.usage = usage;
            return this;
        }

        /** The provider's own explanation of why it stopped, or null. */
        public Builder stopDetail(String stopDetail) {
            this.stopDetail = stopDetail;
            return this;
        }

        /** The stop reason exactly as the provider sent it, or null. */
        public Builder providerStopReason(String providerStopReason) {
            this.providerStopReason = providerStopReason;
            return this;
        }

        /** The service tier for pricing, when not the provider's standard one; else null. */
        public Builder serviceTier(String serviceTier) {
            this.serviceTier = serviceTier;
            return this;
        }

        /** The service tier exactly as the provider sent it, its standard one too, or null. */
        public Builder providerServiceTier(String providerServiceTier) {
            this.providerServiceTier = providerServiceTier;
            return this;
        }

        /** The provider's name for the backend configuration that served the call, or null. */
        public Builder systemFingerprint(String systemFingerprint) {
            this.systemFingerprint = systemFingerprint;
            return this;
        }

        /** The response; a {@link ReinException}, as from the canonical constructor, for a missing model or stop reason. */
        public ModelResponse build() {
            return new ModelResponse(id, model, content, stopReason, stopSequence, usage, stopDetail, providerStopReason,
                    serviceTier, providerServiceTier, systemFingerprint);
        }
    }

    /**
     * The response as the assistant turn to keep in the history: its blocks unchanged, except
     * empty text blocks, which the API refuses in a request. Empty when nothing is left (a
     * response with no content), since a message needs at least one block.
     */
    public Optional<Message> toHistoryMessage() {
        int empty = 0;
        for (ContentBlock block : content) {
            if (emptyText(block)) {
                empty++;
            }
        }
        if (empty == 0) { // the usual turn: the content list is immutable already and kept as it is
            return content.isEmpty() ? Optional.empty() : Optional.of(Message.assistant(content));
        }
        List<ContentBlock> kept = new ArrayList<>(content.size() - empty);
        for (ContentBlock block : content) {
            if (!emptyText(block)) {
                kept.add(block);
            }
        }
        return kept.isEmpty() ? Optional.empty() : Optional.of(Message.assistant(kept));
    }

    private static boolean emptyText(ContentBlock block) {
        return block instanceof TextBlock text && text.text().isEmpty();
    }

    /** The tool use blocks, in the order the model proposed them. */
    public List<ToolUseBlock> toolUses() {
        return Blocks.toolUses(content);
    }

    /** The concatenated text blocks. */
    public String text() {
        return Blocks.text(content);
    }
}
