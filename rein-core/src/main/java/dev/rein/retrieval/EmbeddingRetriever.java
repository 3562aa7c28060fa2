package dev.rein.retrieval;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A {@link Retriever} over passages embedded with an {@link Embeddings} in this process, ranked by
 * cosine similarity: for small corpora and tests. At scale, store the vectors where they can be
 * searched (for example PostgreSQL with the pgvector extension) behind the same interface.
 */
public final class EmbeddingRetriever implements Retriever {
    private final Embeddings embeddings;
    private final List<String> sources = new ArrayList<>();
    private final List<String> texts = new ArrayList<>();
    private final List<float[]> vectors = new ArrayList<>();

    /** @param passages source → text; embedded once, here */
    public EmbeddingRetriever(Embeddings embeddings, Map<String, String> passages) {
        if (embeddings == null || passages == null) {
            throw new dev.rein.ReinException("EmbeddingRetriever was given no " + (embeddings == null ? "embeddings" : "passages")
                    + " (null): pass the Embeddings that turn texts into vectors and the passages, source -> text");
        }
        this.embeddings = embeddings;
        passages.forEach((source, text) -> {
            if (source == null || text == null) { // caught before the embeddings API is called with it
                throw new dev.rein.ReinException("EmbeddingRetriever: a passage has no " + (source == null ? "source" : "text of source '"
                        + source + "'") + " (null): give every passage its source (where it is, cited in answers) and its text");
            }
            sources.add(source);
            texts.add(text);
        });
        if (!texts.isEmpty()) { // embedding APIs refuse an empty input list
            vectors.addAll(embeddings.embed(texts));
        }
        if (vectors.size() != texts.size()) {
            throw new RetrievalException("the embeddings returned " + vectors.size() + " vectors for " + texts.size() + " texts");
        }
    }

    @Override
    public List<RetrievedDocument> search(String query, int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("a search's limit is the most passages to return, 0 or more; was " + limit);
        }
        if (limit == 0 || vectors.isEmpty()) {
            return List.of(); // nothing to rank: no call to the embeddings
        }
        List<float[]> embedded = embeddings.embed(List.of(query));
        if (embedded.size() != 1) {
            throw new RetrievalException("the embeddings returned " + embedded.size() + " vectors for 1 text (the query)");
        }
        float[] q = embedded.get(0);
        List<RetrievedDocument> all = new ArrayList<>();
        for (int i = 0; i < vectors.size(); i++) {
            all.add(new RetrievedDocument(sources.get(i), texts.get(i), cosine(q, vectors.get(i))));
        }
        return all.stream().sorted(Comparator.comparingDouble(RetrievedDocument::score).reversed()).limit(limit).toList();
    }

    private static double cosine(float[] a, float[] b) {
        if (a.length != b.length) {
            throw new RetrievalException("vectors of dimension " + a.length + " and " + b.length + " cannot be compared");
        }
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : dot / (Math.sqrt(na) * Math.sqrt(nb));
    }
}
