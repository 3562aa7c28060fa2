package dev.rein.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import org.junit.jupiter.api.Test;

class OpaqueBlockTest {
    /** A provider's kept reasoning is readable without knowing the provider; the block's JSON stays the two keys it was. */
    @Test
    void aTextualReasoningContentFieldIsTheBlocksReasoningAndIsNotWrittenTwice() throws Exception {
        OpaqueBlock kept = new OpaqueBlock("openai_reasoning_content", Json.object().put("type", "openai_reasoning_content")
                .put(OpaqueBlock.REASONING_CONTENT, "考える。").put("origin", "https://api.deepseek.com:443"));
        assertThat(kept.reasoning()).contains("考える。");

        JsonNode written = Json.mapper().readTree(Json.write(kept));
        assertThat(written.properties()).extracting(java.util.Map.Entry::getKey).containsExactly("type", "json");
        assertThat(Json.mapper().readValue(Json.write(kept), ContentBlock.class)).isEqualTo(kept);
    }

    @Test
    void aBlockWithoutATextualReasoningContentHasNoReasoning() {
        assertThat(new OpaqueBlock("compaction", Json.object().put("type", "compaction").put("content", "summary")).reasoning()).isEmpty();
        assertThat(new OpaqueBlock("x", Json.object().put("type", "x").put(OpaqueBlock.REASONING_CONTENT, 3)).reasoning()).isEmpty();
    }
}
