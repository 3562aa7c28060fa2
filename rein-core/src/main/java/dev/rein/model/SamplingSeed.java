package dev.rein.model;

/**
 * A model option that asks the provider to sample with a fixed seed, for APIs that take one. A provider module's seed
 * option implements it, so that what observes requests without knowing their provider (telemetry's {@code
 * gen_ai.request.seed}) can read the seed a request asks for.
 */
public interface SamplingSeed extends ModelOption {
    /** The seed the request asks the provider to sample with. */
    long seed();

    /** The seed {@code request} asks for, if an option of it is a {@link SamplingSeed}. */
    static java.util.OptionalLong of(ModelRequest request) {
        for (ModelOption option : request.options().all()) {
            if (option instanceof SamplingSeed seed) {
                return java.util.OptionalLong.of(seed.seed());
            }
        }
        return java.util.OptionalLong.empty();
    }
}
