package dev.rein.retrieval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * EmbeddingRetriever checks the vectors an Embeddings returns. Before: a null vector threw a bare NullPointerException at the
 * first search, a NaN component ranked that passage anywhere with "score NaN", passages of two dimensions were found out
 * only when a query met the other one, and a null list threw a NullPointerException.
 */
class EmbeddingVectorsTest {
    private static final Map<String, String> PASSAGES = new LinkedHashMap<>();

    static {
        PASSAGES.put("docs/返品.md#1", "返品は30日以内");
        PASSAGES.put("docs/送料.md#1", "送料は無料");
    }

    /** Answers the passages with {@code passages} and any query with {@code query}. */
    private static Embeddings giving(List<float[]> passages, float[] query) {
        return texts -> texts.size() == 1 && texts.get(0).startsWith("?") ? Arrays.asList(query) : passages;
    }

    @Test
    void aPassageVectorThatIsNullEmptyNotFiniteOrOfAnotherDimensionIsRefusedNamingThePassage() {
        float[] ok = {1, 0, 0};
        assertThatThrownBy(() -> new EmbeddingRetriever(giving(Arrays.asList(ok, null), ok), PASSAGES))
                .isInstanceOf(RetrievalException.class)
                .hasMessageContaining("no vector (null) for passage 'docs/送料.md#1'").hasMessageContaining("one vector per text");
        assertThatThrownBy(() -> new EmbeddingRetriever(giving(List.of(ok, new float[0]), ok), PASSAGES))
                .isInstanceOf(RetrievalException.class).hasMessageContaining("an empty vector for passage 'docs/送料.md#1'");
        assertThatThrownBy(() -> new EmbeddingRetriever(giving(List.of(ok, new float[] {0, Float.NaN, 1}), ok), PASSAGES))
                .isInstanceOf(RetrievalException.class)
                .hasMessageContaining("a vector with NaN at component 1 for passage 'docs/送料.md#1'").hasMessageContaining("finite");
        assertThatThrownBy(() -> new EmbeddingRetriever(giving(List.of(new float[] {Float.POSITIVE_INFINITY, 0, 0}, ok), ok), PASSAGES))
                .isInstanceOf(RetrievalException.class).hasMessageContaining("Infinity at component 0 for passage 'docs/返品.md#1'");
        assertThatThrownBy(() -> new EmbeddingRetriever(giving(List.of(ok, new float[] {1, 0}), ok), PASSAGES))
                .isInstanceOf(RetrievalException.class)
                .hasMessageContaining("a vector of 2 dimensions for passage 'docs/送料.md#1' and of 3 for passage 'docs/返品.md#1'")
                .hasMessageContaining("same dimension");
        assertThatThrownBy(() -> new EmbeddingRetriever(texts -> null, PASSAGES))
                .isInstanceOf(RetrievalException.class).hasMessageContaining("returned null for 2 texts");
    }

    @Test
    void aQueryVectorThatIsNullNotFiniteOrOfAnotherDimensionIsRefused() {
        List<float[]> two = List.of(new float[] {1, 0, 0}, new float[] {0, 1, 0});
        assertThatThrownBy(() -> new EmbeddingRetriever(giving(two, null), PASSAGES).search("?返品", 5))
                .isInstanceOf(RetrievalException.class).hasMessageContaining("no vector (null) for the query");
        assertThatThrownBy(() -> new EmbeddingRetriever(giving(two, new float[] {Float.NaN, 0, 0}), PASSAGES).search("?返品", 5))
                .isInstanceOf(RetrievalException.class).hasMessageContaining("NaN at component 0 for the query");
        assertThatThrownBy(() -> new EmbeddingRetriever(giving(two, new float[] {1, 0}), PASSAGES).search("?返品", 5))
                .isInstanceOf(RetrievalException.class)
                .hasMessageContaining("a vector of 2 dimensions for the query and of 3 for the passages")
                .hasMessageContaining("same model");
        assertThatThrownBy(() -> new EmbeddingRetriever(giving(two, new float[] {1, 0, 0}), PASSAGES).search(null, 5))
                .isInstanceOf(dev.rein.ReinException.class).hasMessageContaining("no query (null)");
        assertThat(new EmbeddingRetriever(giving(two, new float[] {0, 2, 0}), PASSAGES).search("?送料", 1))
                .extracting(RetrievedDocument::source).containsExactly("docs/送料.md#1");
    }

    /** The vectors are the retriever's own: an Embeddings that reuses its arrays afterwards does not change the ranking. */
    @Test
    void vectorsChangedByTheEmbeddingsAfterwardsDoNotChangeTheRanking() {
        List<float[]> given = new ArrayList<>(List.of(new float[] {1, 0}, new float[] {0, 1}));
        EmbeddingRetriever retriever = new EmbeddingRetriever(giving(given, new float[] {1, 0}), PASSAGES);
        given.get(0)[0] = 0;
        given.get(0)[1] = 1;
        assertThat(retriever.search("?返品", 1)).extracting(RetrievedDocument::source).containsExactly("docs/返品.md#1");
    }
}
