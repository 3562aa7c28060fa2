package dev.rein.retrieval;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EmbeddingRetrieverTest {
    /** A toy embedding: letter counts. Enough to rank by overlap without a model. */
    private static final Embeddings LETTERS = texts -> texts.stream().map(t -> {
        float[] v = new float[26];
        t.toLowerCase().chars().filter(c -> c >= 'a' && c <= 'z').forEach(c -> v[c - 'a']++);
        return v;
    }).toList();

    @Test
    void ranksPassagesByCosineSimilarityBehindTheRetrieverInterface() {
        Map<String, String> passages = new LinkedHashMap<>();
        passages.put("a.md#1", "zzz zzz");
        passages.put("b.md#1", "refund refund");
        Retriever retriever = new EmbeddingRetriever(LETTERS, passages);
        List<RetrievedDocument> hits = retriever.search("refunds", 2);
        assertThat(hits).extracting(RetrievedDocument::source).containsExactly("b.md#1", "a.md#1");
        assertThat(hits.get(0).score()).isGreaterThan(hits.get(1).score());
    }

    @Test
    void theObservationNamesQueryTimeSourceAndScore() {
        String text = SearchDocumentsTool.observation("refund", List.of(new RetrievedDocument("b.md#1", "refund refund", 0.97)),
                Instant.parse("2026-12-01T00:00:00Z")).content();
        assertThat(text).contains("query: refund").contains("searched at: 2026-12-01T00:00:00Z")
                .contains("<document index=\"1\" score=\"0.970\">\n<source>b.md#1</source>\n<document_content>\nrefund refund\n");
    }

    /** A backend that ignores its limit (returns everything it has) still gives the model at most the passages asked for. */
    @Test
    void searchDocumentsReturnsAtMostTheLimitWhateverTheBackendReturns() throws Exception {
        List<RetrievedDocument> all = java.util.stream.IntStream.rangeClosed(1, 15)
                .mapToObj(i -> new RetrievedDocument("doc" + i + ".md#1", "返品 " + i, 1.0 / i)).toList();
        dev.rein.tool.Tool tool = SearchDocumentsTool.of((query, limit) -> all);

        String three = ((dev.rein.tool.ToolOutput) tool.handler().handle(dev.rein.json.Json.parse("{\"query\":\"返品\",\"limit\":3}"),
                dev.rein.tool.ToolContext.standalone("c1"))).content();
        assertThat(three).contains("results: 3").contains("<document index=\"3\"").contains("<source>doc3.md#1</source>").doesNotContain("doc4.md");
        String byDefault = ((dev.rein.tool.ToolOutput) tool.handler().handle(dev.rein.json.Json.parse("{\"query\":\"返品\"}"),
                dev.rein.tool.ToolContext.standalone("c2"))).content();
        assertThat(byDefault).contains("results: 5").doesNotContain("doc6.md");
    }

    /** Embedding APIs refuse an empty input list; an empty corpus asks them nothing and finds nothing. */
    @Test
    void anEmptyCorpusAsksTheEmbeddingsNothingAndFindsNothing() {
        List<Integer> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
        Embeddings strict = texts -> {
            if (texts.isEmpty()) {
                throw new IllegalArgumentException("input must not be empty");
            }
            asked.add(texts.size());
            return LETTERS.embed(texts);
        };
        Retriever retriever = new EmbeddingRetriever(strict, Map.of());
        assertThat(retriever.search("refunds", 5)).isEmpty();
        assertThat(asked).isEmpty();
    }

    /** An Embeddings that answers a query with no vector is named as the cause, not an IndexOutOfBoundsException. */
    @Test
    void anEmbeddingsThatGivesNoVectorForTheQueryIsNamed() {
        Embeddings none = texts -> texts.size() == 1 && texts.get(0).equals("refunds") ? List.of() : LETTERS.embed(texts);
        Retriever retriever = new EmbeddingRetriever(none, Map.of("b.md#1", "refund refund"));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> retriever.search("refunds", 5))
                .isInstanceOf(RetrievalException.class).hasMessageContaining("0 vectors for 1 text");
    }
}
