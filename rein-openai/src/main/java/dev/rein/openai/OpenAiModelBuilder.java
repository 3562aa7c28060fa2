package dev.rein.openai;

import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.Timeout;
import dev.rein.ReinException;
import dev.rein.provider.ProviderConfig;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * Builder for {@link OpenAiModel}. Unset values come from the environment: {@code OPENAI_API_KEY},
 * {@code OPENAI_BASE_URL} (default the public API), {@code OPENAI_ORG_ID} and {@code
 * OPENAI_PROJECT_ID}; explicit values win, and an empty variable counts as unset.
 *
 * <p>The public API needs a key; {@link #build()} refuses to build without one, so no request is
 * ever sent unauthenticated. Any other server (a local Ollama, vLLM, LM Studio) may go without:
 * then no {@code Authorization} header is sent at all.
 */
public final class OpenAiModelBuilder {
    /** The public API's base URL. */
    public static final String DEFAULT_BASE_URL = "https://api.openai.com/v1";
    /** Default time to establish a connection. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(30);
    /** Default longest silence while reading; local models can take long before their first token. */
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofMinutes(10);
    /** Default limit for a whole call; long on purpose, the run's deadline is the real limit. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofMinutes(60);

    /** Which request field carries the output limit. */
    public enum MaxTokensField {
        /**
         * {@code max_completion_tokens} on the public API, {@code max_tokens} on any other server
         * until it refuses that field (as reasoning models do), then {@code max_completion_tokens}.
         */
        AUTO,
        /** Always {@code max_completion_tokens} (the current name; reasoning models require it). */
        MAX_COMPLETION_TOKENS,
        /** Always {@code max_tokens} (what most compatible servers read). */
        MAX_TOKENS
    }

    /**
     * Where a model's {@code content} carries its reasoning in think tags ({@link #thinkTags}): a server without a
     * reasoning parser leaves it there, where it would be read as the answer.
     */
    public enum ThinkTags {
        /**
         * Only a MiniMax model's {@code <think>…</think>} block at the start of its content is reasoning (MiniMax's API
         * returns it so); any other model's content is the answer as the server sent it.
         */
        MINIMAX,
        /**
         * A {@code <think>…</think>} block at the start of any model's content (after white space) is its reasoning, as
         * Qwen3 and the first DeepSeek-R1 write it; content that does not begin with {@code <think>} is the answer.
         */
        LEADING,
        /**
         * Any model's content begins inside a think block whose {@code <think>} its chat template put in the prompt
         * (DeepSeek-R1-0528, QwQ, Qwen3 thinking-2507): everything before the first {@code </think>} is reasoning, a
         * {@code <think>} at the start included. Content that ends without {@code </think>}, and did not begin with
         * {@code <think>}, was the answer after all, unless the output limit cut it ({@code finish_reason} {@code
         * length}): it is then the response text, which a live view heard as thinking while it streamed. Content that
         * comes with or after reasoning the server sent in a
         * field of its own ({@code reasoning_content}, {@code reasoning}, {@code reasoning_details}) or as Mistral's
         * {@code thinking} blocks of a content list is the answer, as with {@link #LEADING}: the server split the
         * thinking off.
         */
        OPENED_IN_PROMPT
    }

    private String apiKey;
    private String baseUrl;
    private String organization;
    private String project;
    private MaxTokensField maxTokensField = MaxTokensField.AUTO;
    private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
    private Duration readTimeout = DEFAULT_READ_TIMEOUT;
    private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
    private Clock clock = Clock.systemUTC();
    private Function<String, String> environment = System::getenv;
    private okhttp3.Interceptor interceptor;
    private ThinkTags thinkTags = ThinkTags.MINIMAX;

    OpenAiModelBuilder() {}

    /** The API key; default {@code OPENAI_API_KEY}. Not needed for a server that asks for none. */
    public OpenAiModelBuilder apiKey(String apiKey) {
        this.apiKey = apiKey;
        return this;
    }

    /** The base URL, ending in {@code /v1} for most servers; default {@code OPENAI_BASE_URL}, else the public API. */
    public OpenAiModelBuilder baseUrl(String baseUrl) {
        this.baseUrl = baseUrl;
        return this;
    }

    /** The {@code OpenAI-Organization} header; default {@code OPENAI_ORG_ID}. */
    public OpenAiModelBuilder organization(String organization) {
        this.organization = organization;
        return this;
    }

    /** The {@code OpenAI-Project} header; default {@code OPENAI_PROJECT_ID}. */
    public OpenAiModelBuilder project(String project) {
        this.project = project;
        return this;
    }

    /** Which field carries the output limit (default {@link MaxTokensField#AUTO}). */
    public OpenAiModelBuilder maxTokensField(MaxTokensField field) {
        if (field == null) {
            throw new ReinException("maxTokensField(...) was given null: pass MaxTokensField.AUTO (the default),"
                    + " MAX_COMPLETION_TOKENS or MAX_TOKENS");
        }
        this.maxTokensField = field;
        return this;
    }

    /** Time to establish a connection (default 30 s). */
    public OpenAiModelBuilder connectTimeout(Duration timeout) {
        this.connectTimeout = timeout;
        return this;
    }

    /** Longest silence while sending or receiving (default 10 min). */
    public OpenAiModelBuilder readTimeout(Duration timeout) {
        this.readTimeout = timeout;
        return this;
    }

    /** Limit for one whole call including the streamed generation (default 60 min). */
    public OpenAiModelBuilder requestTimeout(Duration timeout) {
        this.requestTimeout = timeout;
        return this;
    }

    /**
     * Where a model's {@code content} carries its reasoning in think tags (default {@link ThinkTags#MINIMAX}: only a
     * MiniMax model's). Set it for a server that leaves another model's thinking in the content, e.g. Qwen3 or
     * DeepSeek-R1 on vLLM without {@code --reasoning-parser} or on llama.cpp with {@code --reasoning-format none}:
     * {@link ThinkTags#LEADING} when the content begins with {@code <think>}, {@link ThinkTags#OPENED_IN_PROMPT} when the
     * model's chat template opens the block in the prompt, so the content begins with the thinking and only {@code
     * </think>} ends it. The thinking then reaches the stream observer as thinking, is kept out of the answer text (and
     * of a typed result), and goes back only within a turn that calls tools, as it came, to that server only. A server
     * that separates the reasoning itself ({@code reasoning_content}, {@code reasoning}) needs neither.
     *
     * @throws ReinException if {@code tags} is null
     */
    public OpenAiModelBuilder thinkTags(ThinkTags tags) {
        if (tags == null) {
            throw new ReinException("thinkTags(...) was given null: pass ThinkTags.MINIMAX (the default), LEADING or"
                    + " OPENED_IN_PROMPT");
        }
        this.thinkTags = tags;
        return this;
    }

    /** The clock used to read HTTP-date {@code retry-after} headers (for tests). */
    public OpenAiModelBuilder clock(Clock clock) {
        if (clock == null) {
            throw new ReinException("clock(...) was given null: pass a Clock, e.g. Clock.systemUTC() (the default)");
        }
        this.clock = clock;
        return this;
    }

    /** An interceptor on the HTTP client, after Rein's own (tests look at the requests it sends). */
    OpenAiModelBuilder interceptor(okhttp3.Interceptor interceptor) {
        this.interceptor = interceptor;
        return this;
    }

    /** Where unset values are read from instead of the process environment (for tests). */
    OpenAiModelBuilder environment(Function<String, String> environment) {
        this.environment = Objects.requireNonNull(environment, "environment");
        return this;
    }

    /**
     * Whether a base URL is the public OpenAI API (which needs a key), as opposed to a
     * compatible server.
     *
     * @param baseUrl the base URL
     * @return {@code true} for {@code api.openai.com} and OpenAI's regional (data residency)
     *     endpoints such as {@code eu.api.openai.com}
     */
    public static boolean isPublicApi(String baseUrl) {
        try {
            String host = URI.create(baseUrl).getHost();
            if (host == null) {
                return false;
            }
            String lower = host.toLowerCase(Locale.ROOT);
            return lower.equals("api.openai.com") || lower.endsWith(".api.openai.com");
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * Whether a base URL is on one of Azure OpenAI's hosts, as the OpenAI SDK recognizes them
     * ({@code *.openai.azure.com}, {@code *.services.ai.azure.com}, {@code *.cognitiveservices.azure.com},
     * {@code *.azure-api.net}).
     */
    static boolean isAzure(String baseUrl) {
        try {
            String host = URI.create(baseUrl.strip()).getHost();
            if (host == null) {
                return false;
            }
            String lower = host.toLowerCase(Locale.ROOT);
            return lower.endsWith(".openai.azure.com") || lower.endsWith(".services.ai.azure.com")
                    || lower.endsWith(".cognitiveservices.azure.com") || lower.endsWith(".azure-api.net");
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * The deployment a base URL on an Azure OpenAI host names ({@code .../openai/deployments/NAME/...}, the Azure
     * portal's target URI), or null for any other URL.
     */
    static String azureDeployment(String baseUrl) {
        if (!isAzure(baseUrl)) {
            return null;
        }
        String path = URI.create(baseUrl.strip()).getPath();
        if (path == null) {
            return null;
        }
        String[] segments = path.split("/");
        for (int i = 0; i < segments.length - 1; i++) {
            if (segments[i].equals("deployments") && !segments[i + 1].isEmpty()) {
                return segments[i + 1];
            }
        }
        return null;
    }

    /** Whether a base URL on an Azure OpenAI host is its v1 API ({@code .../openai/v1}). */
    static boolean isAzureV1(String baseUrl) {
        String path = URI.create(baseUrl.strip()).getPath();
        return path != null && path.replaceAll("/+$", "").endsWith("/openai/v1");
    }

    /** The {@code api-version} query parameter of a base URL on an Azure OpenAI host, or null. */
    static String azureApiVersion(String baseUrl) {
        if (!isAzure(baseUrl)) {
            return null;
        }
        String query = URI.create(baseUrl.strip()).getRawQuery();
        if (query == null) {
            return null;
        }
        for (String parameter : query.split("&")) {
            if (parameter.startsWith("api-version=") && parameter.length() > "api-version=".length()) {
                return java.net.URLDecoder.decode(parameter.substring("api-version=".length()),
                        java.nio.charset.StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    /** The base URL without its {@code api-version} query parameter (and without a query left empty). */
    private static String withoutApiVersion(String baseUrl) {
        String url = baseUrl.strip();
        int mark = url.indexOf('?');
        String rest = java.util.Arrays.stream(url.substring(mark + 1).split("&"))
                .filter(p -> !p.startsWith("api-version=")).collect(java.util.stream.Collectors.joining("&"));
        return url.substring(0, mark) + (rest.isEmpty() ? "" : "?" + rest);
    }

    /**
     * Creates the model and its HTTP client.
     *
     * @return the model
     * @throws ReinException if a timeout is not positive, the base URL is not an http(s) URL, or
     *                       the public API is addressed without a key
     */
    public OpenAiModel build() {
        requirePositive("connectTimeout", connectTimeout);
        requirePositive("readTimeout", readTimeout);
        requirePositive("requestTimeout", requestTimeout);
        String url = firstSet(baseUrl, environment.apply("OPENAI_BASE_URL"), DEFAULT_BASE_URL);
        if (!ProviderConfig.isHttpUrl(url)) {
            throw new ReinException((baseUrl != null ? "the base URL" : "OPENAI_BASE_URL")
                    + " must be an http:// or https:// URL with a host, e.g. http://localhost:11434/v1, was '" + url + "'"
                    + ProviderConfig.hostAdvice(url));
        }
        String deployment = azureDeployment(url);
        if (deployment != null) {
            URI uri = URI.create(url);
            String v1 = uri.getScheme() + "://" + uri.getRawAuthority() + "/openai/v1";
            throw new ReinException((baseUrl != null ? "the base URL " : "OPENAI_BASE_URL ") + url + " is the URL of an"
                    + " Azure OpenAI deployment, which requests cannot go to (the OpenAI SDK adds"
                    + " /openai/deployments/MODEL/chat/completions and an api-version of its own, and Azure answers every call"
                    + " 404 Resource not found): set it to " + v1 + " (Azure OpenAI's v1 API, which needs no api-version) and"
                    + " name the deployment as the model: --model " + deployment + " (modelName in the library)");
        }
        // An api-version in an Azure base URL is the one to send: left in the URL, it went beside the SDK's own
        // (2024-10-21 on a resource's URL), so the request carried two.
        String apiVersion = azureApiVersion(url);
        if (apiVersion != null) {
            url = withoutApiVersion(url);
        }
        String key = firstSet(apiKey, environment.apply("OPENAI_API_KEY"), null);
        String unsendable = unsendable(key);
        if (unsendable != null) {
            throw new ReinException(unsendableKey(apiKey != null && !apiKey.isBlank() ? "the API key" : "OPENAI_API_KEY",
                    unsendable));
        }
        boolean publicApi = isPublicApi(url);
        if (key == null && publicApi) {
            boolean empty = apiKey != null || environment.apply("OPENAI_API_KEY") != null;
            throw new ReinException("OPENAI_API_KEY is not set" + (empty ? " to a key (it is empty)" : "")
                    + ": the OpenAI API at " + url
                    + " needs a key (set OPENAI_API_KEY, or OPENAI_BASE_URL for a server that needs none)");
        }
        okhttp3.OkHttpClient http = OkHttpTransport.create(interceptor);
        OpenAIOkHttpClient.Builder sdk = OpenAIOkHttpClient.builder()
                .okHttpClient(http)
                .baseUrl(url)
                // Retries belong to the Rein runtime, which traces them and respects the deadline.
                .maxRetries(0)
                .timeout(Timeout.builder().connect(connectTimeout).read(readTimeout).write(readTimeout)
                        .request(requestTimeout).build());
        if (apiVersion != null) {
            sdk.azureServiceVersion(com.openai.azure.AzureOpenAIServiceVersion.fromString(apiVersion));
        }
        if (key != null && isAzure(url) && !isAzureV1(url) && !key.startsWith("eyJ")) {
            // Azure's deployment endpoints read a key from the api-key header and answer a bearer key 401 ("Access token
            // is missing, invalid, audience is incorrect"); its v1 API takes it as a bearer token, as does either with a
            // Microsoft Entra ID token (a JWT, "eyJ...").
            sdk.credential(com.openai.azure.credential.AzureApiKeyCredential.create(key));
        } else if (key != null) {
            sdk.apiKey(key);
        } else {
            // The SDK insists on a credential; a placeholder whose header is then removed sends none.
            sdk.apiKey("unused").removeHeaders("Authorization");
        }
        String org = firstSet(organization, environment.apply("OPENAI_ORG_ID"), null);
        requireSendable(org, organization != null ? "the organization" : "OPENAI_ORG_ID", http);
        if (org != null) {
            sdk.organization(org);
        }
        String proj = firstSet(project, environment.apply("OPENAI_PROJECT_ID"), null);
        requireSendable(proj, project != null ? "the project" : "OPENAI_PROJECT_ID", http);
        if (proj != null) {
            sdk.project(proj);
        }
        RequestMapper.MaxTokensField field = switch (maxTokensField) {
            case AUTO -> publicApi ? RequestMapper.MaxTokensField.MAX_COMPLETION_TOKENS : RequestMapper.MaxTokensField.MAX_TOKENS;
            case MAX_COMPLETION_TOKENS -> RequestMapper.MaxTokensField.MAX_COMPLETION_TOKENS;
            case MAX_TOKENS -> RequestMapper.MaxTokensField.MAX_TOKENS;
        };
        String server = publicApi ? "the OpenAI API" : "the server at " + url;
        return new OpenAiModel(sdk.build(), http, new ErrorMapper(clock, server, url), field, maxTokensField == MaxTokensField.AUTO,
                url, thinkTags);
    }

    /**
     * The first character of {@code value} an HTTP header cannot carry (OkHttp refuses all but tab
     * and visible ASCII), as "U+201C at position 1", or null: a key pasted with typographic quotes
     * or a full-width space would otherwise fail every call with OkHttp's own complaint.
     */
    static String unsendable(String value) {
        if (value == null) {
            return null;
        }
        for (int i = 0, position = 1; i < value.length(); position++) {
            int c = value.codePointAt(i);
            if (c != '\t' && (c < 0x20 || c > 0x7e)) {
                return String.format("U+%04X at position %d", c, position);
            }
            i += Character.charCount(c);
        }
        return null;
    }

    /**
     * Refuses an organization or project id that no header can carry (sent as {@code OpenAI-Organization} and {@code
     * OpenAI-Project}, it would fail every call with OkHttp's own complaint), releasing the client made for it.
     */
    private static void requireSendable(String value, String source, okhttp3.OkHttpClient http) {
        String unsendable = unsendable(value);
        if (unsendable != null) {
            OkHttpTransport.release(http);
            throw new ReinException(unsendableValue(source, unsendable));
        }
    }

    /** The one line for an organization or project id {@link #unsendable} refuses. */
    static String unsendableValue(String source, String unsendable) {
        return source + " holds a character that cannot be sent in an HTTP header (" + unsendable
                + "): copy it again as plain text, without quotes or spaces";
    }

    /** The one line for a key {@link #unsendable} refuses; the key itself is not repeated. */
    static String unsendableKey(String source, String unsendable) {
        return source + " holds a character that cannot be sent in an HTTP header (" + unsendable
                + "): copy the key again as plain text, without quotes or spaces";
    }

    private static String firstSet(String explicit, String fromEnv, String fallback) {
        if (explicit != null && !explicit.isBlank()) {
            return explicit.strip();
        }
        if (fromEnv != null && !fromEnv.isBlank()) {
            return fromEnv.strip();
        }
        return fallback;
    }

    private static void requirePositive(String name, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new ReinException(name + " must be a positive duration, was " + value);
        }
    }
}
