package dev.rein.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * SearchDocumentsTool.of and the EmbeddingRetriever constructor given null (the retriever, the embeddings, the passages, a
 * passage's source or text) throw a ReinException saying what to pass, before anything is embedded; before, a bare
 * NullPointerException, and a null passage text went to the embeddings API.
 */
class RetrievalArgumentsTest {
    private static final Embeddings LENGTHS = texts -> texts.stream().map(t -> new float[] {t.length(), 1}).toList();

    @Test
    void nullIsRefusedSayingWhatToPass() {
        assertThatThrownBy(() -> SearchDocumentsTool.of(null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("SearchDocumentsTool.of").hasMessageContaining("Retriever");
        assertThatThrownBy(() -> new EmbeddingRetriever(null, Map.of("a", "b"))).isInstanceOf(ReinException.class)
                .hasMessageContaining("embeddings");
        assertThatThrownBy(() -> new EmbeddingRetriever(LENGTHS, null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("passages");
        Map<String, String> noText = new HashMap<>();
        noText.put("docs/返品.md#1", null);
        assertThatThrownBy(() -> new EmbeddingRetriever(LENGTHS, noText)).isInstanceOf(ReinException.class)
                .hasMessageContaining("docs/返品.md#1").hasMessageContaining("text");
        Map<String, String> noSource = new HashMap<>();
        noSource.put(null, "返品は30日以内");
        assertThatThrownBy(() -> new EmbeddingRetriever(LENGTHS, noSource)).isInstanceOf(ReinException.class)
                .hasMessageContaining("source");
        assertThat(new EmbeddingRetriever(LENGTHS, Map.of("docs/返品.md#1", "返品は30日以内")).search("返品", 1))
                .extracting(RetrievedDocument::text).containsExactly("返品は30日以内");
        assertThat(SearchDocumentsTool.of((query, limit) -> List.of()).name()).isEqualTo("search_documents");
    }

    /**
     * A passage without a source or text, and a custom Retriever that returns null instead of an empty list, threw a bare
     * NullPointerException (the model read "Cannot invoke ..."); now a ReinException says what to return.
     */
    @Test
    void aRetrieverThatReturnsNullIsToldWhatToReturn() throws Exception {
        assertThatThrownBy(() -> new RetrievedDocument(null, "返品は30日以内", 1)).isInstanceOf(ReinException.class)
                .hasMessageContaining("source").hasMessageContaining("docs/returns.md#2");
        assertThatThrownBy(() -> new RetrievedDocument("docs/返品.md#1", null, 1)).isInstanceOf(ReinException.class)
                .hasMessageContaining("text").hasMessageContaining("docs/返品.md#1");

        var executor = dev.rein.tool.ToolExecutor.builder(dev.rein.tool.ToolRegistry.of(SearchDocumentsTool.of((query, limit) -> null))).build();
        var result = executor.execute(new dev.rein.tool.ToolCall("c", SearchDocumentsTool.NAME,
                dev.rein.json.Json.parse("{\"query\":\"返品\"}"), 0), dev.rein.tool.ToolContext.standalone("c"));
        assertThat(result.isError()).isTrue();
        assertThat(result.content()).contains("returned null").contains("empty list").doesNotContain("NullPointerException");
    }

    /** Before: a passage scored NaN or infinite was taken, written as "score NaN" and ranked nowhere in particular. */
    @Test
    void aScoreThatIsNotANumberIsRefusedSayingWhatToGive() {
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            assertThatThrownBy(() -> new RetrievedDocument("docs/返品.md#1", "返品は30日以内", bad)).isInstanceOf(ReinException.class)
                    .hasMessageContaining("docs/返品.md#1").hasMessageContaining("score " + bad).hasMessageContaining("finite");
        }
        assertThat(new RetrievedDocument("docs/返品.md#1", "返品は30日以内", -1.5).score()).isEqualTo(-1.5);
    }

    @Test
    void aBlankPassageOrQueryIsRefusedBeforeTheEmbeddingsAreCalled() {
        // before: "" went to the embeddings API, which OpenAI-style APIs refuse in their own words
        assertThatThrownBy(() -> new EmbeddingRetriever(LENGTHS, Map.of("docs/空.md", " "))).isInstanceOf(ReinException.class)
                .hasMessage("EmbeddingRetriever: the passage of source 'docs/空.md' has blank text: give every passage its text,"
                        + " or leave it out");
        EmbeddingRetriever retriever = new EmbeddingRetriever(LENGTHS, Map.of("docs/返品.md#1", "返品は30日以内"));
        assertThatThrownBy(() -> retriever.search("", 1)).isInstanceOf(ReinException.class)
                .hasMessage("EmbeddingRetriever.search was given a blank query: pass the words to search for");
    }
}
