package dev.rein.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.rein.ReinException;
import dev.rein.internal.collect.GrowingList;
import dev.rein.internal.collect.NullElements;
import java.util.List;

/**
 * One provider-neutral model call: the system prompt, tool definitions, tool choice, history,
 * limits and typed provider options ({@link ModelOption}s a provider reads). Sampling parameters are null unless the user sets them (some API versions reject them);
 * traces leave unset ones out.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ModelRequest(
        String model,
        List<TextBlock> system,
        List<ToolDefinition> tools,
        ToolChoice toolChoice,
        List<Message> messages,
        int maxTokens,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) ModelOptions options,
        Double temperature,
        Double topP,
        Integer topK,
        List<String> stopSequences) {

    public ModelRequest {
        if (model == null) {
            throw new ReinException("a model request was given no model (null): give the model name, e.g."
                    + " ModelRequest.builder(\"claude-sonnet-5\"), or request.withModel(name)");
        }

        system = system == null ? List.of() : List.copyOf(system);
        tools = tools == null ? List.of() : List.copyOf(tools);
        toolChoice = toolChoice == null ? ToolChoice.auto() : toolChoice;
        messages = checked(messages); // the run's history as it is, not a copy per request
        options = options == null ? ModelOptions.NONE : options;
        stopSequences = stopSequences == null ? List.of() : stops(stopSequences);
        if (maxTokens <= 0) {
            throw new ReinException("a model request's maxTokens must be positive, was " + maxTokens + ": give the most"
                    + " tokens the model may write, e.g. 4096");
        }
        if (temperature != null || topP != null || topK != null) {
            checkSampling(temperature, topP, topK);
        }
    }

    /**
     * Refuses sampling values no provider takes (sent as set, NaN went out as "NaN" for the server to refuse at the
     * call); the upper bound of temperature is the provider's (1 on some, 2 on others), so only these are checked here.
     */
    private static void checkSampling(Double temperature, Double topP, Integer topK) {
        if (temperature != null && !(temperature >= 0 && temperature < Double.POSITIVE_INFINITY)) {
            throw new ReinException("a model request's temperature must be a number of at least 0, was " + temperature
                    + "; leave it unset (null) for the provider's default");
        }
        if (topP != null && !(topP >= 0 && topP <= 1)) { // a cumulative probability: NaN fails every comparison too
            throw new ReinException("a model request's topP must be a number from 0 to 1, was " + topP
                    + "; leave it unset (null) for the provider's default");
        }
        if (topK != null && topK < 0) {
            throw new ReinException("a model request's topK must be 0 or more (a number of tokens), was " + topK
                    + "; leave it unset (null) for the provider's default");
        }
    }

    /** An immutable copy, or a ReinException naming a null stop sequence (List.copyOf's is a bare NullPointerException). */
    private static List<String> stops(List<String> stopSequences) {
        int at = NullElements.firstNull(stopSequences);
        if (at >= 0) {
            throw new ReinException("a model request's stop sequence " + (at + 1) + " of " + stopSequences.size() + " is null:"
                    + " leave it out, or give the text");
        }
        return List.copyOf(stopSequences);
    }

    /** {@code messages} as a GrowingList (itself when it is one), or a ReinException for a null list or message. */
    private static GrowingList<Message> checked(List<Message> messages) {
        if (messages == null) {
            throw new ReinException("a model request was given no messages (null): give the conversation, List.of() for none");
        }
        if (!(messages instanceof GrowingList<?>)) { // a GrowingList holds no null; another list is copied (and checked) here
            int at = NullElements.firstNull(messages); // one pass whatever the list (a LinkedList too)
            if (at >= 0) {
                throw new ReinException("a model request's message " + (at + 1) + " of " + messages.size() + " is null:"
                        + " leave it out, or give the message");
            }
        }
        return GrowingList.of(messages);
    }

    public static Builder builder(String model) {
        return new Builder(model);
    }

    public Builder toBuilder() {
        Builder b = new Builder(model);
        b.system = system;
        b.tools = tools;
        b.toolChoice = toolChoice;
        b.messages = GrowingList.of(messages);
        b.maxTokens = maxTokens;
        b.options = options;
        b.temperature = temperature;
        b.topP = topP;
        b.topK = topK;
        b.stopSequences = stopSequences;
        return b;
    }

    /** The same request for another model name, sharing everything else (a fallback model). */
    public ModelRequest withModel(String otherModel) {
        return new ModelRequest(otherModel, system, tools, toolChoice, messages, maxTokens, options, temperature, topP, topK,
                stopSequences);
    }

    /** The same request with {@code option} added (replacing one of its type), sharing everything else. */
    public ModelRequest withOption(ModelOption option) {
        return new ModelRequest(model, system, tools, toolChoice, messages, maxTokens, options.with(option), temperature, topP, topK,
                stopSequences);
    }

    /** The option of type {@code type}, if set. */
    public <T extends ModelOption> java.util.Optional<T> option(Class<T> type) {
        return options.get(type);
    }

    /** The concatenated system prompt. */
    public String systemText() {
        StringBuilder sb = new StringBuilder();
        for (TextBlock block : system) {
            if (!sb.isEmpty()) {
                sb.append("\n\n");
            }
            sb.append(block.text());
        }
        return sb.toString();
    }

    /**
     * Builder for {@link ModelRequest}. Its lists are immutable and replaced by each setter, so a
     * request built from the run's history (a {@link GrowingList}) keeps that list without a copy.
     */
    public static final class Builder {
        private final String model;
        private List<TextBlock> system = List.of();
        private List<ToolDefinition> tools = List.of();
        private ToolChoice toolChoice = ToolChoice.auto();
        private GrowingList<Message> messages = GrowingList.empty();
        private int maxTokens = 4096;
        private ModelOptions options = ModelOptions.NONE;
        private Double temperature;
        private Double topP;
        private Integer topK;
        private List<String> stopSequences = List.of();

        private Builder(String model) {
            this.model = model;
        }

        public Builder system(String text) {
            this.system = text == null || text.isEmpty() ? List.of() : List.of(new TextBlock(text));
            return this;
        }

        public Builder system(List<TextBlock> blocks) {
            this.system = List.copyOf(blocks);
            return this;
        }

        public Builder tools(List<ToolDefinition> tools) {
            this.tools = List.copyOf(tools);
            return this;
        }

        public Builder toolChoice(ToolChoice choice) {
            this.toolChoice = choice;
            return this;
        }

        /** @throws ReinException when the list or a message in it is null */
        public Builder messages(List<Message> messages) {
            this.messages = checked(messages);
            return this;
        }

        /** @throws ReinException when the message is null */
        public Builder addMessage(Message message) {
            if (message == null) {
                throw new ReinException("addMessage was given null: give the message to add");
            }
            this.messages = messages.with(message);
            return this;
        }

        public Builder maxTokens(int maxTokens) {
            this.maxTokens = maxTokens;
            return this;
        }

        /** Replaces the provider options. */
        public Builder options(ModelOptions options) {
            this.options = options == null ? ModelOptions.NONE : options;
            return this;
        }

        /** Adds a provider option, replacing one of the same type. */
        public Builder option(ModelOption option) {
            this.options = options.with(option);
            return this;
        }

        public Builder temperature(Double temperature) {
            this.temperature = temperature;
            return this;
        }

        public Builder topP(Double topP) {
            this.topP = topP;
            return this;
        }

        public Builder topK(Integer topK) {
            this.topK = topK;
            return this;
        }

        /** @throws ReinException when the list or a text in it is null */
        public Builder stopSequences(List<String> stopSequences) {
            if (stopSequences == null) {
                throw new ReinException("stopSequences was given null: give the texts that end the model's output, List.of()"
                        + " for none");
            }
            this.stopSequences = stops(stopSequences);
            return this;
        }

        public ModelRequest build() {
            return new ModelRequest(model, system, tools, toolChoice, messages, maxTokens, options, temperature, topP, topK, stopSequences);
        }
    }
}
