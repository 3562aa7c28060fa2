package dev.rein.anthropic;

import dev.rein.ReinException;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.model.Model;
import dev.rein.provider.ModelProvider;
import dev.rein.provider.ProviderConfig;

/**
 * The Anthropic Messages API as a {@link ModelProvider} named {@value #NAME}, registered for
 * {@link java.util.ServiceLoader}. It builds an {@link AnthropicModel} from {@code ANTHROPIC_API_KEY}
 * and/or {@code ANTHROPIC_AUTH_TOKEN} and, when set, {@code ANTHROPIC_BASE_URL} (settings
 * {@code api_key}, {@code auth_token} and {@code base_url} win), checking them so a missing or wrong
 * setting is a one-line error before any request.
 */
public final class AnthropicProvider implements ModelProvider {
    public static final String NAME = "anthropic";
    /** The model used when none is given. */
    public static final String DEFAULT_MODEL = "claude-sonnet-5";
    public static final String API_KEY = "ANTHROPIC_API_KEY";
    /** A bearer token, for gateways that expect {@code Authorization: Bearer} (the SDKs read it too). */
    public static final String AUTH_TOKEN = "ANTHROPIC_AUTH_TOKEN";
    public static final String BASE_URL = "ANTHROPIC_BASE_URL";
    /**
     * The input tokens (cache reads and writes included) beyond which a request to a model with the
     * 1M-token context window ({@code context-1m-2025-08-07}) is billed at the long-context rates:
     * for Claude Sonnet 4 and 4.5, 2x input and 1.5x output.
     */
    public static final long LONG_CONTEXT = 200_000;
    /**
     * The prompt tokens (cache reads and writes included) beyond which a Claude Haiku 5.5 request is
     * billed at its higher rates, 5x: "prompts over 100,000 tokens".
     */
    public static final long HAIKU_5_5_LONG_PROMPT = 100_000;
    /**
     * Anthropic's published prices (platform.claude.com, checked 2026-12-05): cache writes cost 1.25x
     * input for a 5-minute entry and 2x for a 1-hour entry on every model; cache reads differ (0.1x
     * input on most, 0.05x on Opus 5.5 and Sonnet 5.5, 0.025x on Fable and Mythos 5.1). Sonnet 4 and
     * 4.5 cost their long-context rates beyond {@link #LONG_CONTEXT} input tokens (Opus 4.6 and
     * Sonnet 4.6 do not: one price across their 1M window since it became generally available,
     * 2026-03-13), Haiku 5.5 its
     * higher rates beyond {@link #HAIKU_5_5_LONG_PROMPT}. Every newer model is listed by its own id:
     * {@code claude-sonnet-5-5} must not be read as {@code claude-sonnet-5} with a date.
     */
    public static final PriceTable PRICES = PriceTable.empty()
            .with("claude-fable-5-1", price("10.00", "0.25", "50.00"))
            .with("claude-mythos-5-1", price("10.00", "0.25", "50.00"))
            .with("claude-fable-5", price("10.00", "1.00", "50.00"))
            .with("claude-mythos-5", price("10.00", "1.00", "50.00"))
            .with("claude-opus-5-5", price("4.00", "0.20", "20.00"))
            .with("claude-opus-5", price("5.00", "0.50", "25.00"))
            .with("claude-sonnet-5-5", price("2.00", "0.10", "10.00"))
            .with("claude-sonnet-5", price("2.00", "0.20", "10.00"))
            .with("claude-haiku-5-5", price("0.10", "0.01", "0.50").withLongContext(HAIKU_5_5_LONG_PROMPT, price("0.50", "0.05", "2.50")))
            .with("claude-opus-4-8", price("5.00", "0.50", "25.00"))
            .with("claude-opus-4-7", price("5.00", "0.50", "25.00"))
            .with("claude-opus-4-6", price("5.00", "0.50", "25.00"))
            .with("claude-sonnet-4-6", price("3.00", "0.30", "15.00"))
            .with("claude-haiku-4-5", price("1.00", "0.10", "5.00"))
            .with("claude-sonnet-4-5", price("3.00", "0.30", "15.00").withLongContext(LONG_CONTEXT, price("6.00", "0.60", "22.50")))
            .with("claude-sonnet-4", price("3.00", "0.30", "15.00").withLongContext(LONG_CONTEXT, price("6.00", "0.60", "22.50")))
            // The documented alias of claude-sonnet-4-20250514: "-0" is no date, so it is listed.
            .with("claude-sonnet-4-0", price("3.00", "0.30", "15.00").withLongContext(LONG_CONTEXT, price("6.00", "0.60", "22.50")))
            .with("claude-opus-4-5", price("5.00", "0.50", "25.00"))
            .with("claude-opus-4-1", price("15.00", "1.50", "75.00"))
            // a gateway names these anthropic/claude-sonnet-4-5 (OpenRouter: anthropic/claude-sonnet-4.5): priced at these rows
            .ofVendor("anthropic");
    static final String MISSING_KEY = API_KEY + " is not set: set it with 'export " + API_KEY
            + "=<your key>' (create one at https://console.anthropic.com/settings/keys), or " + AUTH_TOKEN
            + " for a gateway that takes a bearer token, or try './rein demo', which needs no key";

    /** The same advice, for a variable set to nothing or spaces: it reads "not set" too, so scripts matching that keep working. */
    static final String BLANK_KEY = API_KEY + " is not set to a key (it is empty): set it with 'export " + API_KEY
            + "=<your key>' (create one at https://console.anthropic.com/settings/keys), or " + AUTH_TOKEN
            + " for a gateway that takes a bearer token, or try './rein demo', which needs no key";

    /** USD per web search (USD 10 per 1,000 searches, on every model, on top of the tokens). */
    public static final String WEB_SEARCH_PRICE = "0.01";

    /**
     * A price with Anthropic's cache write rates derived from the input price, and web searches at
     * {@value #WEB_SEARCH_PRICE} USD each (web fetches cost only their tokens).
     */
    public static ModelPrice price(String input, String cacheRead, String output) {
        java.math.BigDecimal in = new java.math.BigDecimal(input);
        return ModelPrice.of(input, cacheRead, in.multiply(new java.math.BigDecimal("1.25")).toPlainString(), output)
                .withCacheWriteClass(ResponseMapper.WRITE_1H, in.multiply(java.math.BigDecimal.TWO).toPlainString())
                .withPerUse(ResponseMapper.WEB_SEARCH, WEB_SEARCH_PRICE);
    }

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
        return PRICES;
    }

    @Override
    public Model create(ProviderConfig config) {
        // Either credential will do, as for the SDKs: a gateway may take only a bearer token.
        String key = config.value("api_key", API_KEY).orElse(null);
        String token = config.value("auth_token", AUTH_TOKEN).orElse(null);
        if (key == null && token == null) {
            // Set to nothing (an empty variable exported by a script): say it is empty, or the user looks in the wrong place
            throw new ReinException(config.env().containsKey(API_KEY) ? BLANK_KEY : MISSING_KEY);
        }
        // Named by its variable: the builder only knows the value was given to it.
        AnthropicModel.Builder.requireSendable(API_KEY, key, "key");
        AnthropicModel.Builder.requireSendable(AUTH_TOKEN, token, "token");
        String baseUrl = config.value("base_url", BASE_URL).orElse("");
        if (!baseUrl.isEmpty() && !ProviderConfig.isHttpUrl(baseUrl)) {
            throw new ReinException(BASE_URL + " must be an http:// or https:// URL with a host, was '" + baseUrl
                    + "'" + ProviderConfig.hostAdvice(baseUrl) + "; unset it to use the public API");
        }
        if (!baseUrl.isEmpty()) {
            AnthropicModel.Builder.requireServerAddress(BASE_URL, baseUrl);
        }
        // Always explicit: the SDK would otherwise read an empty ANTHROPIC_BASE_URL itself and fail at the first call.
        return AnthropicModel.builder().apiKey(key).authToken(token).baseUrl(baseUrl.isEmpty() ? AnthropicModel.DEFAULT_BASE_URL : baseUrl).build();
    }
}
