package dev.rein.retrieval;

import java.util.Objects;

/**
 * One passage a {@link Retriever} found.
 *
 * @param source where the passage is (for example {@code docs/returns.md#2}); cited in every answer
 * @param text   the passage
 * @param score  the backend's relevance score (BM25 for Lucene, cosine similarity for embeddings); higher is better
 */
public record RetrievedDocument(String source, String text, double score) {
    public RetrievedDocument {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(text, "text");
    }
}
