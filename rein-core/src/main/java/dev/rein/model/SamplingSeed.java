package dev.rein.model;

/**
 * A model option that asks one provider to sample with a fixed seed, for APIs that take one. A provider module's seed
 * option implements it, so that what observes requests without knowing their provider (telemetry's {@code
 * gen_ai.request.seed}) can tell the seed a request sends. Like every option, it is sent only by its own provider's
 * models: an agent that calls another provider's model (a fallback, a critic) sends that model no seed.
 */
public interface SamplingSeed extends ModelOption {
    /** The seed the request asks the provider to sample with. */
    long seed();

    /**
     * The provider whose models send this seed, by the name they give it ({@link
     * dev.rein.provider.ModelDefaults#providerName()}).
     */
    String providerName();

    /**
     * The seed {@code request} sends to a model of the provider named {@code providerName}: that of an option of the
     * request that is this provider's {@link SamplingSeed}; none for a provider not named (null).
     */
    static java.util.OptionalLong sentTo(String providerName, ModelRequest request) {
        if (providerName != null) {
            for (ModelOption option : request.options().all()) {
                if (option instanceof SamplingSeed seed && providerName.equals(seed.providerName())) {
                    return java.util.OptionalLong.of(seed.seed());
                }
            }
        }
        return java.util.OptionalLong.empty();
    }
}
