package dev.rein.retrieval;

import java.util.List;

/**
 * Finds passages of documents for a query: the retrieval SPI. Retrieved text is an observation
 * with its source, never long-term memory: the {@code search_documents} tool
 * ({@link SearchDocumentsTool}) shows it to the model as untrusted data and writes nothing on its
 * own. Backends: {@code LuceneRetriever} (rein-retrieval-lucene, BM25 on an on-disk index) and
 * {@link EmbeddingRetriever} (any {@link Embeddings}).
 */
public interface Retriever {
    /**
     * The best passages for {@code query}, best first, at most {@code limit}.
     *
     * @throws RetrievalException when the backend cannot search (a missing or broken index)
     * @throws IllegalArgumentException when {@code limit} is negative
     */
    List<RetrievedDocument> search(String query, int limit);
}
