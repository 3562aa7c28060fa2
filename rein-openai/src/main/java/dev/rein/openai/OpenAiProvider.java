package dev.rein.openai;

import dev.rein.ReinException;
import dev.rein.budget.PriceTable;
import dev.rein.model.Model;
import dev.rein.provider.ModelProvider;
import dev.rein.provider.ProviderConfig;

/**
 * OpenAI Chat Completions as a {@link ModelProvider} named {@value #NAME}, registered for {@link
 * java.util.ServiceLoader}: OpenAI itself and every compatible server. It builds an {@link
 * OpenAiModel} from {@code OPENAI_API_KEY}, {@code OPENAI_BASE_URL} and {@code OPENAI_THINK_TAGS} (settings
 * {@code api_key}, {@code base_url} and {@code think_tags} win). The public API without a key is refused before any request, with one line
 * naming {@code OPENAI_API_KEY}; any other base URL may go without a key (a local Ollama).
 */
public final class OpenAiProvider implements ModelProvider {
    /** The provider's name. */
    public static final String NAME = "openai";
    /** The model used when none is given. */
    public static final String DEFAULT_MODEL = "gpt-4.1-mini";
    /** The key's environment variable. */
    public static final String API_KEY = "OPENAI_API_KEY";
    /** The base URL's environment variable. */
    public static final String BASE_URL = "OPENAI_BASE_URL";
    /**
     * Where a model's content carries its reasoning in think tags ({@link OpenAiModelBuilder#thinkTags}): {@code
     * minimax} (the default), {@code leading} or {@code opened_in_prompt}, in any case; setting {@code think_tags}.
     */
    public static final String THINK_TAGS = "OPENAI_THINK_TAGS";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String defaultModel() {
        return DEFAULT_MODEL;
    }

    @Override
    public PriceTable prices() {
        return OpenAiPrices.TABLE;
    }

    @Override
    public Model create(ProviderConfig config) {
        String baseUrl = config.value("base_url", BASE_URL).orElse(OpenAiModelBuilder.DEFAULT_BASE_URL);
        if (!ProviderConfig.isHttpUrl(baseUrl)) {
            throw new ReinException(BASE_URL + " must be an http:// or https:// URL with a host, was '" + baseUrl
                    + "'" + ProviderConfig.hostAdvice(baseUrl) + "; unset it to use the public API");
        }
        String key = config.value("api_key", API_KEY).orElse(null);
        String unsendable = OpenAiModelBuilder.unsendable(key);
        if (unsendable != null) {
            throw new ReinException(OpenAiModelBuilder.unsendableKey(API_KEY, unsendable));
        }
        if (key == null && OpenAiModelBuilder.isPublicApi(baseUrl)) {
            // Set to nothing (an empty variable a script exported): say it is empty, still starting "is not set"
            String state = config.env().containsKey(API_KEY) ? " is not set to a key (it is empty)" : " is not set";
            throw new ReinException(API_KEY + state + ": set it with 'export " + API_KEY + "=<your key>' (create one at"
                    + " https://platform.openai.com/api-keys), or point " + BASE_URL + " or --base-url at a server that"
                    + " needs none, e.g. http://localhost:11434/v1 for Ollama");
        }
        OpenAiModelBuilder.ThinkTags thinkTags = thinkTags(config.value("think_tags", THINK_TAGS).orElse(null));
        String organization = config.value("organization", "OPENAI_ORG_ID").orElse(null);
        String project = config.value("project", "OPENAI_PROJECT_ID").orElse(null);
        // named here by their variables: the builder only knows the values were given to it
        for (String[] header : new String[][] {{"OPENAI_ORG_ID", organization}, {"OPENAI_PROJECT_ID", project}}) {
            String bad = OpenAiModelBuilder.unsendable(header[1]);
            if (bad != null) {
                throw new ReinException(OpenAiModelBuilder.unsendableValue(header[0], bad));
            }
        }
        return OpenAiModel.builder()
                .apiKey(key)
                .baseUrl(baseUrl)
                .organization(organization)
                .project(project)
                .thinkTags(thinkTags)
                .environment(name -> null)
                .build();
    }

    /**
     * The think tags {@code value} names, in any case and with '-' for '_' ({@code opened-in-prompt}); the default
     * ({@link OpenAiModelBuilder.ThinkTags#MINIMAX}) when it is null.
     *
     * @throws ReinException naming {@value #THINK_TAGS}, the value and the values to choose from
     */
    static OpenAiModelBuilder.ThinkTags thinkTags(String value) {
        if (value == null) {
            return OpenAiModelBuilder.ThinkTags.MINIMAX;
        }
        String name = value.strip().replace('-', '_').toUpperCase(java.util.Locale.ROOT);
        for (OpenAiModelBuilder.ThinkTags tags : OpenAiModelBuilder.ThinkTags.values()) {
            if (tags.name().equals(name)) {
                return tags;
            }
        }
        throw new ReinException(THINK_TAGS + " must be minimax (the default: only a MiniMax model's leading <think> block is"
                + " its reasoning), leading (any model's content that begins with <think>...</think>, as Qwen3 writes it"
                + " on a server without a reasoning parser) or opened_in_prompt (the chat template opens the block in the"
                + " prompt, as for DeepSeek-R1-0528 or QwQ, so only </think> ends it), was '"
                + value + "'; unset it for the default");
    }
}
