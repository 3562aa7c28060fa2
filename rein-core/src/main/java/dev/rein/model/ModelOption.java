package dev.rein.model;

/**
 * A typed, provider-specific request feature (for example prompt caching settings of one
 * provider). A provider reads the options it knows with {@link ModelOptions#get(Class)} and
 * ignores the rest, so one agent configuration can carry options for several providers.
 * Implementations are immutable values, usually records.
 */
public interface ModelOption {
}
