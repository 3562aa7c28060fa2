package dev.rein.provider;

import dev.rein.budget.PriceTable;
import java.net.URI;

/**
 * Implemented by a {@link dev.rein.model.Model} that knows its provider's defaults, so an agent
 * built with it needs no model name and no price table: the agent uses these unless it sets its own.
 */
public interface ModelDefaults {

    /** The model name requests use when the agent sets none. */
    String defaultModelName();

    /** The prices the agent's money budget uses when it sets none. */
    PriceTable prices();

    /**
     * The provider's name as telemetry reports it ({@code gen_ai.provider.name}, e.g. the
     * {@link ModelProvider#name()} that builds this model), or null when unknown.
     */
    default String providerName() {
        return null;
    }

    /**
     * The API of its provider this model's calls are made to, as telemetry reports it, or null when it does not say
     * (telemetry then reports none rather than guess it from the provider's name). For provider {@code openai} it is
     * the conventions' {@code openai.api.type}: rein-openai's model says {@code chat_completions}, the API it calls; a
     * model of one's own naming provider {@code openai} that calls the Responses API would say {@code responses}.
     */
    default String apiType() {
        return null;
    }

    /**
     * The base URL of the server this model's calls go to, as telemetry reports it ({@code server.address}
     * and {@code server.port} of the call's {@code chat} span and metrics), or null when unknown.
     */
    default URI serverUri() {
        return null;
    }

    /**
     * Whether this model sends each call as a streamed request (the provider's {@code "stream": true}), as
     * telemetry reports it ({@code gen_ai.request.stream} of the call's {@code chat} span, also for a call that
     * failed before any chunk came); false when it does not or cannot say.
     */
    default boolean streams() {
        return false;
    }
}
