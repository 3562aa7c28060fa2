package dev.rein.model;

/**
 * A typed, provider-specific request feature (for example prompt caching settings of one
 * provider). A provider reads the options it knows with {@link ModelOptions#get(Class)} and
 * ignores the rest, so one agent configuration can carry options for several providers.
 * Implementations are immutable values, usually records.
 */
public interface ModelOption {

    /**
     * Checks that this option can work in {@code request}, given its other settings and options
     * (for example a token budget that must stay below the request's max tokens). An agent calls it
     * for each of its options when it is built, with a request that has its model name, max tokens,
     * sampling settings, options as its requests carry them (with the options the agent adds itself, such
     * as {@link RewrittenHistory}) and tool definitions (those of its tool sources as they are then)
     * but no messages, so a combination the provider would refuse
     * fails there, saying what to change, instead of at the first model call. The default accepts
     * any request.
     *
     * @throws dev.rein.ReinException when this option cannot work with the request's settings
     */
    default void check(ModelRequest request) {
    }
}
