package dev.rein.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.model.Model;
import dev.rein.provider.ModelProvider;
import dev.rein.provider.ProviderConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OpenAiProviderTest {

    @Test
    void isFoundByNameWithItsDefaultModelAndPrices() {
        ModelProvider provider = ModelProvider.require("openai");
        assertThat(provider).isInstanceOf(OpenAiProvider.class);
        assertThat(provider.defaultModel()).isEqualTo("gpt-4.1-mini");
        assertThat(provider.prices().find("gpt-4.1-mini")).isPresent();
        assertThat(provider.prices().find("gpt-4o-2024-08-06")).as("dated names by their base").isPresent();
        assertThat(provider.prices().find("qwen3:8b")).isEmpty();
    }

    /**
     * A gateway's name for an OpenAI model (OpenRouter's openai/gpt-5) is priced at OpenAI's row, and another vendor's
     * prefix is not: it was unpriced, a run's cost silently zero without a money limit.
     */
    @Test
    void aGatewaysNameForAnOpenAiModelIsPricedAtItsRow() {
        assertThat(OpenAiPrices.TABLE.find("openai/gpt-5")).isEqualTo(OpenAiPrices.TABLE.find("gpt-5")).isPresent();
        assertThat(OpenAiPrices.TABLE.find("openai/gpt-4.1-mini")).isEqualTo(OpenAiPrices.TABLE.find("gpt-4.1-mini"));
        assertThat(OpenAiPrices.TABLE.find("mistralai/gpt-5")).isEmpty();
        assertThat(OpenAiPrices.TABLE.entries()).doesNotContainKey("openai/gpt-5"); // listings name each model once
    }

    @Test
    void theFirstGpt4oSnapshotIsPricedAtItsOwnHigherPriceNotAsGpt4o() {
        // gpt-4o-2024-05-13 is still served and still costs USD 5 / 15 per million tokens with no cached-input
        // discount; priced by its base name at gpt-4o's 2.50 / 10 (1.25 cached), a money budget let a run spend
        // up to twice its limit. The later snapshots cost what gpt-4o costs.
        var first = OpenAiPrices.TABLE.find("gpt-4o-2024-05-13").orElseThrow();
        assertThat(first.inputPerMTok()).isEqualByComparingTo("5.00");
        assertThat(first.outputPerMTok()).isEqualByComparingTo("15.00");
        assertThat(first.cacheReadPerMTok()).as("no cached-input discount").isEqualByComparingTo("5.00");
        for (String later : new String[] {"gpt-4o", "gpt-4o-2024-08-06", "gpt-4o-2024-11-20"}) {
            var price = OpenAiPrices.TABLE.find(later).orElseThrow();
            assertThat(price.inputPerMTok()).as(later).isEqualByComparingTo("2.50");
            assertThat(price.outputPerMTok()).as(later).isEqualByComparingTo("10.00");
        }
    }

    @Test
    void thePublicApiWithoutAKeyIsOneLineNamingTheVariable() {
        ModelProvider provider = new OpenAiProvider();
        for (Map<String, String> env : new Map[] {Map.of(), Map.of("OPENAI_API_KEY", " "),
                Map.of("OPENAI_BASE_URL", "https://api.openai.com/v1")}) {
            assertThatThrownBy(() -> provider.create(ProviderConfig.of(env)))
                    .isInstanceOf(ReinException.class)
                    .hasMessageStartingWith("OPENAI_API_KEY is not set")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        }
    }

    @Test
    void oneOfOpenAisRegionalEndpointsIsThePublicApiToo() throws Exception {
        // OpenAI's data-residency domains (eu.api.openai.com, us., jp., ...) are the public API: a key is needed
        // before any request, and requests carry max_completion_tokens, which its reasoning models require.
        for (String url : new String[] {"https://eu.api.openai.com/v1", "https://JP.api.openai.com/v1/"}) {
            assertThat(OpenAiModelBuilder.isPublicApi(url)).as(url).isTrue();
            assertThatThrownBy(() -> new OpenAiProvider().create(ProviderConfig.of(Map.of("OPENAI_BASE_URL", url))))
                    .isInstanceOf(ReinException.class).hasMessageStartingWith("OPENAI_API_KEY is not set");
        }
        for (String url : new String[] {"https://api.openai.com.example.net/v1", "https://myapi.openai.com.evil/v1",
                "http://localhost:11434/v1"}) {
            assertThat(OpenAiModelBuilder.isPublicApi(url)).as(url).isFalse();
        }
        try (OpenAiModel eu = OpenAiModel.builder().baseUrl("https://eu.api.openai.com/v1").apiKey("sk-test")
                .environment(name -> null).build()) {
            assertThat(RequestMapper.settings(dev.rein.model.ModelRequest.builder("o3").maxTokens(64)
                    .addMessage(dev.rein.model.Message.user("x")).build(), eu.requests().maxTokensField()).has("max_completion_tokens"))
                    .isTrue();
        }
    }

    @Test
    void aKeySetButBlankIsCalledEmptyNotUnset() {
        // 'export OPENAI_API_KEY=' (a variable a script left empty) is set: "is not set" alone sends the
        // user looking in the wrong place. Worded as for ANTHROPIC_API_KEY, still starting "... is not set".
        assertThatThrownBy(() -> new OpenAiProvider().create(ProviderConfig.of(Map.of("OPENAI_API_KEY", "  "))))
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("OPENAI_API_KEY is not set to a key (it is empty): set it with 'export OPENAI_API_KEY=<your key>'")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        assertThatThrownBy(() -> OpenAiModel.builder().environment(Map.of("OPENAI_API_KEY", "")::get).build())
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("OPENAI_API_KEY is not set to a key (it is empty)");
    }

    @Test
    void aKeyWithACharacterNoHeaderCanCarryIsOneLineNamingTheVariableBeforeAnyRequest() {
        // A key pasted with typographic quotes or a full-width space: OkHttp refused the header at the
        // first call, "the call ... failed with IllegalArgumentException: Unexpected char 0x201c at 7 in
        // Authorization value", a final provider error that named neither the variable nor what to do.
        for (String key : new String[] {"\u201csk-proj-abc\u201d", "sk-proj-abc\u3000def", "sk-proj-abc\ndef"}) {
            assertThatThrownBy(() -> new OpenAiProvider().create(ProviderConfig.of(Map.of("OPENAI_API_KEY", key,
                    "OPENAI_BASE_URL", "http://localhost:8000/v1"))))
                    .as(key)
                    .isInstanceOf(ReinException.class)
                    .hasMessageStartingWith("OPENAI_API_KEY holds a character that cannot be sent in an HTTP header")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n").doesNotContain("abc"));
        }
        assertThatThrownBy(() -> OpenAiModel.builder().environment(name -> null).apiKey("sk-\u00e9").build())
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("the API key holds a character that cannot be sent in an HTTP header (U+00E9 at position 4)");
    }

    /** The organization and project ids go in headers too (OpenAI-Organization, OpenAI-Project): refused alike. */
    @Test
    void anOrganizationOrProjectIdNoHeaderCanCarryIsRefusedNamingItsVariable() {
        assertThatThrownBy(() -> new OpenAiProvider().create(ProviderConfig.of(Map.of("OPENAI_ORG_ID", "org-\u201cabc\u201d",
                "OPENAI_BASE_URL", "http://localhost:8000/v1"))))
                .isInstanceOf(ReinException.class)
                .hasMessage("OPENAI_ORG_ID holds a character that cannot be sent in an HTTP header (U+201C at position 5): copy it"
                        + " again as plain text, without quotes or spaces");
        assertThatThrownBy(() -> new OpenAiProvider().create(ProviderConfig.of(Map.of("OPENAI_PROJECT_ID", "proj\u3000x",
                "OPENAI_BASE_URL", "http://localhost:8000/v1"))))
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("OPENAI_PROJECT_ID holds a character that cannot be sent in an HTTP header (U+3000 at position 5)");
        assertThatThrownBy(() -> OpenAiModel.builder().environment(name -> null).baseUrl("http://localhost:8000/v1")
                .organization("org-\u00e9").build())
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("the organization holds a character that cannot be sent in an HTTP header (U+00E9 at position 5)");
    }

    @Test
    void aLocalServerNeedsNoKeyAndSettingsWin() throws Exception {
        ModelProvider provider = new OpenAiProvider();
        Model local = provider.create(ProviderConfig.of(Map.of("OPENAI_BASE_URL", "http://localhost:11434/v1")));
        try (OpenAiModel model = (OpenAiModel) local) {
            assertThat(model.baseUrl()).isEqualTo("http://localhost:11434/v1");
            assertThat(model.providerName()).as("gen_ai.provider.name").isEqualTo(provider.name());
            assertThat(model.serverUri()).as("server.address").isEqualTo(java.net.URI.create("http://localhost:11434/v1"));
            assertThat(model.streams()).as("gen_ai.request.stream: every request is sent with stream true").isTrue();
            assertThat(model.apiType()).as("openai.api.type: every call goes to Chat Completions").isEqualTo("chat_completions");
        }
        Model set = provider.create(new ProviderConfig(Map.of("OPENAI_BASE_URL", "http://a:1/v1"),
                Map.of("base_url", "http://b:2/v1")));
        try (OpenAiModel model = (OpenAiModel) set) {
            assertThat(model.baseUrl()).isEqualTo("http://b:2/v1");
        }
        assertThatThrownBy(() -> provider.create(ProviderConfig.of(Map.of("OPENAI_BASE_URL", "localhost:11434"))))
                .isInstanceOf(ReinException.class).hasMessageContaining("http://");
    }
    @Test
    void anAzureDeploymentsUrlAsTheBaseUrlIsRefusedSayingWhichBaseUrlAndModelToGive() {
        // The Azure portal's target URI (.../openai/deployments/NAME/chat/completions?api-version=...) pasted as the base
        // URL: the SDK adds /openai/deployments/MODEL/chat/completions and an api-version of its own to it, and Azure
        // answers every call 404 'Resource not found'. Azure OpenAI's v1 API takes the deployment as the model.
        for (String url : new String[] {
                "https://contoso.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2025-01-01-preview",
                "https://contoso.openai.azure.com/openai/deployments/gpt-4o"}) {
            assertThatThrownBy(() -> OpenAiModel.builder().baseUrl(url).apiKey("key").environment(name -> null).build())
                    .isInstanceOf(ReinException.class)
                    .hasMessageContaining("Azure OpenAI deployment")
                    .hasMessageContaining("https://contoso.openai.azure.com/openai/v1")
                    .hasMessageContaining("--model gpt-4o")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
        }
        assertThatThrownBy(() -> OpenAiModel.builder().environment(Map.of("OPENAI_BASE_URL",
                "https://contoso.cognitiveservices.azure.com/openai/deployments/o3-mini/chat/completions?api-version=2024-12-01-preview",
                "OPENAI_API_KEY", "key")::get).build())
                .isInstanceOf(ReinException.class).hasMessageStartingWith("OPENAI_BASE_URL ")
                .hasMessageContaining("https://contoso.cognitiveservices.azure.com/openai/v1").hasMessageContaining("--model o3-mini");
        // Azure's v1 API and a resource's own URL are what the SDK addresses correctly.
        for (String url : new String[] {"https://contoso.openai.azure.com/openai/v1", "https://contoso.openai.azure.com"}) {
            OpenAiModel.builder().baseUrl(url).apiKey("key").environment(name -> null).build().close();
        }
    }
    @Test
    void theApiVersionOfAnAzureBaseUrlIsTheOneSentAndOnlyOnce() throws Exception {
        // The OpenAI SDK adds an api-version of its own (2024-10-21) to requests on an Azure resource's URL; one the user
        // gave in the base URL (a preview version a newer model needs) went beside it, the request carrying two.
        java.util.List<okhttp3.HttpUrl> sent = new java.util.concurrent.CopyOnWriteArrayList<>();
        okhttp3.Interceptor answer = chain -> {
            sent.add(chain.request().url());
            return new okhttp3.Response.Builder().request(chain.request()).protocol(okhttp3.Protocol.HTTP_1_1).code(404)
                    .message("Not Found").body(okhttp3.ResponseBody.create("{\"error\":{\"code\":\"404\",\"message\":"
                            + "\"Resource not found\"}}", okhttp3.MediaType.get("application/json"))).build();
        };
        for (String url : new String[] {"https://contoso.openai.azure.com?api-version=2024-12-01-preview",
                "https://contoso.openai.azure.com/?api-version=2024-12-01-preview"}) {
            try (OpenAiModel azure = OpenAiModel.builder().baseUrl(url).apiKey("key").environment(name -> null)
                    .interceptor(answer).build()) {
                org.junit.jupiter.api.Assertions.assertThrows(dev.rein.model.ModelException.class, () -> azure.call(
                        dev.rein.model.ModelRequest.builder("my-o3").maxTokens(64).addMessage(dev.rein.model.Message.user("x"))
                                .build(), new dev.rein.model.ModelCallContext(java.time.Instant.now().plusSeconds(30),
                                dev.rein.model.StreamObserver.NONE)));
            }
            okhttp3.HttpUrl request = sent.get(sent.size() - 1);
            assertThat(request.queryParameterValues("api-version")).as(url).containsExactly("2024-12-01-preview");
            assertThat(request.encodedPath()).isEqualTo("/openai/deployments/my-o3/chat/completions");
        }
    }
    @Test
    void aKeyForAnAzureResourcesUrlGoesInTheApiKeyHeaderAzureReadsItFrom() throws Exception {
        // Azure OpenAI's deployment endpoints read an API key from the api-key header; sent as Authorization: Bearer (the
        // SDK's way with apiKey), every call was answered 401 "Access token is missing, invalid, audience is incorrect
        // (https://cognitiveservices.azure.com), or have expired", which sends the user looking for a token. Its v1 API
        // takes the key as a bearer token, as OpenAI's clients send it (Microsoft's v1 examples).
        java.util.List<okhttp3.Request> sent = new java.util.concurrent.CopyOnWriteArrayList<>();
        okhttp3.Interceptor answer = chain -> {
            sent.add(chain.request());
            return new okhttp3.Response.Builder().request(chain.request()).protocol(okhttp3.Protocol.HTTP_1_1).code(404)
                    .message("Not Found").body(okhttp3.ResponseBody.create("{\"error\":{\"code\":\"404\",\"message\":"
                            + "\"Resource not found\"}}", okhttp3.MediaType.get("application/json"))).build();
        };
        for (String url : new String[] {"https://contoso.openai.azure.com", "https://contoso.openai.azure.com/openai/v1"}) {
            try (OpenAiModel azure = OpenAiModel.builder().baseUrl(url).apiKey("azure-key-1").environment(name -> null)
                    .interceptor(answer).build()) {
                org.junit.jupiter.api.Assertions.assertThrows(dev.rein.model.ModelException.class, () -> azure.call(
                        dev.rein.model.ModelRequest.builder("my-gpt-4o").maxTokens(64).addMessage(dev.rein.model.Message.user("x"))
                                .build(), new dev.rein.model.ModelCallContext(java.time.Instant.now().plusSeconds(30),
                                dev.rein.model.StreamObserver.NONE)));
            }
        }
        assertThat(sent.get(0).header("api-key")).isEqualTo("azure-key-1");
        assertThat(sent.get(0).header("Authorization")).isNull();
        assertThat(sent.get(1).header("Authorization")).isEqualTo("Bearer azure-key-1");
    }
}
