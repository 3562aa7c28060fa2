package dev.rein.openai;

import dev.rein.model.SamplingSeed;

/**
 * Asks for reproducible sampling, sent as Chat Completions' {@code seed}: repeated requests with
 * the same seed and parameters should give the same answer. Compatible servers (vLLM, Ollama,
 * llama.cpp) honour it, which makes an eval on a local model repeatable; OpenAI itself makes only
 * a best effort (the field is deprecated there) and does not guarantee determinism. Telemetry records
 * it as {@code gen_ai.request.seed} ({@link SamplingSeed}).
 *
 * <pre>{@code
 * Agent.builder().model(model).modelOption(OpenAiSeed.of(42))
 * }</pre>
 *
 * @param seed the wire value
 */
public record OpenAiSeed(long seed) implements SamplingSeed {
    /** The seed {@code seed}. */
    public static OpenAiSeed of(long seed) {
        return new OpenAiSeed(seed);
    }

    /** {@value OpenAiProvider#NAME}: only this module's models send the seed. */
    @Override
    public String providerName() {
        return OpenAiProvider.NAME;
    }
}
