package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.anthropic.core.ObjectMappers;
import com.anthropic.models.messages.MessageCreateParams;
import com.anthropic.models.messages.Metadata;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.ReinException;
import dev.rein.json.Json;
import dev.rein.testkit.FakeReply;
import org.junit.jupiter.api.Test;

/**
 * The request fields {@code metadata.user_id} and {@code service_tier}: sent as the official SDK
 * writes them when an option asks, never otherwise, and not to count_tokens, which takes neither.
 */
class MetadataAndServiceTierTest extends FakeApi {

    @Test
    void aUserIdIsSentAsMetadataAsTheSdkWritesIt() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        call(request("hi").option(AnthropicMetadata.userId("5f1c0c9e-ユーザー")));

        assertThat(lastBody().get("metadata")).isEqualTo(Json.parse("{\"user_id\":\"5f1c0c9e-ユーザー\"}"))
                .isEqualTo(sdk(MessageCreateParams.builder().metadata(Metadata.builder().userId("5f1c0c9e-ユーザー").build()))
                        .get("metadata"));
    }

    @Test
    void aServiceTierIsSentAsTheSdkWritesIt() throws Exception {
        server.enqueue(FakeReply.text("a"), FakeReply.text("b"), FakeReply.text("c"));
        call(request("hi").option(AnthropicServiceTier.STANDARD_ONLY));
        assertThat(lastBody().get("service_tier")).isEqualTo(sdk(MessageCreateParams.builder()
                .serviceTier(MessageCreateParams.ServiceTier.STANDARD_ONLY)).get("service_tier"));
        assertThat(lastBody().get("service_tier").asText()).isEqualTo("standard_only");

        call(request("hi").option(AnthropicServiceTier.AUTO));
        assertThat(lastBody().get("service_tier").asText()).isEqualTo("auto");

        call(request("hi").option(AnthropicServiceTier.of("priority_only")));
        assertThat(lastBody().get("service_tier").asText()).as("a value the API adds later is sent as given")
                .isEqualTo("priority_only");
    }

    @Test
    void neitherIsSentUnlessAsked() throws Exception {
        server.enqueue(FakeReply.text("ok"));
        call(request("hi"));
        assertThat(lastBody().has("metadata")).isFalse();
        assertThat(lastBody().has("service_tier")).isFalse();
    }

    @Test
    void countTokensTakesNeither() {
        WireBuffer body = new RequestMapper().countTokens(request("hi").option(AnthropicMetadata.userId("u-1"))
                .option(AnthropicServiceTier.AUTO).build());
        JsonNode json = Json.parse(body.text());
        body.release();
        assertThat(json.has("metadata")).isFalse();
        assertThat(json.has("service_tier")).isFalse();
    }

    @Test
    void blankValuesAreRefusedWhenTheOptionIsMade() {
        assertThatThrownBy(() -> AnthropicMetadata.userId(" ")).isInstanceOf(ReinException.class)
                .hasMessageContaining("user id").hasMessageContaining("uuid");
        assertThatThrownBy(() -> AnthropicMetadata.userId(null)).isInstanceOf(ReinException.class);
        assertThatThrownBy(() -> AnthropicServiceTier.of("")).isInstanceOf(ReinException.class)
                .hasMessageContaining("auto").hasMessageContaining("standard_only");
    }

    /** The body the official SDK writes for {@code params} (with the fields every request needs). */
    private static JsonNode sdk(MessageCreateParams.Builder params) {
        MessageCreateParams built = params.model("claude-test").maxTokens(256).addUserMessage("x").build();
        return Json.parse(ObjectMappers.jsonMapper().valueToTree(built._body()).toString());
    }
}
