package dev.rein.retrieval;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A {@link Retriever} over passages embedded with an {@link Embeddings} in this process, ranked by
 * cosine similarity: for small corpora and tests. At scale, store the vectors where they can be
 * searched (for example PostgreSQL with the pgvector extension) behind the same interface.
 *
 * <p>The vectors are checked as they come: a null or empty vector, a component that is NaN or
 * infinite, and a vector whose dimension differs from the first passage's (a passage's or the
 * query's) are refused with a {@link RetrievalException} naming the passage or the query.
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
            if (text.isBlank()) { // embedding APIs refuse an empty input, in their own words
                throw new dev.rein.ReinException("EmbeddingRetriever: the passage of source '" + source + "' has blank text:"
                        + " give every passage its text, or leave it out");
            }
            sources.add(source);
            texts.add(text);
        });
        if (!texts.isEmpty()) { // embedding APIs refuse an empty input list
            List<float[]> embedded = embeddings.embed(texts);
            if (embedded == null) {
                throw new RetrievalException(named(embeddings) + " returned null for " + texts.size() + " texts; an Embeddings returns"
                        + " one vector per text, in order");
            }
            if (embedded.size() != texts.size()) {
                throw new RetrievalException("the embeddings returned " + embedded.size() + " vectors for " + texts.size() + " texts");
            }
            for (int i = 0; i < embedded.size(); i++) {
                float[] v = checked(embedded.get(i), "passage '" + sources.get(i) + "'");
                if (v.length != embedded.get(0).length) {
                    throw new RetrievalException(named(embeddings) + " returned a vector of " + v.length + " dimensions for passage '"
                            + sources.get(i) + "' and of " + embedded.get(0).length + " for passage '" + sources.get(0)
                            + "'; all vectors of one Embeddings have the same dimension: embed every passage with the same model");
                }
                vectors.add(v.clone()); // the retriever's own: an Embeddings may reuse its arrays
            }
        }
    }

    /** {@code v}, or a RetrievalException naming {@code whose} vector it is when it is null, empty or not finite. */
    private float[] checked(float[] v, String whose) {
        if (v == null || v.length == 0) {
            throw new RetrievalException(named(embeddings) + " returned " + (v == null ? "no vector (null)" : "an empty vector") + " for "
                    + whose + "; an Embeddings returns one vector per text, in order, each with the model's dimension");
        }
        for (int i = 0; i < v.length; i++) {
            if (!Float.isFinite(v[i])) { // NaN would rank the passage anywhere and be written as "score NaN"
                throw new RetrievalException(named(embeddings) + " returned a vector with " + v[i] + " at component " + i + " for "
                        + whose + "; a vector holds finite numbers: check the embeddings model's response");
            }
        }
        return v;
    }

    private static String named(Embeddings embeddings) {
        return "the embeddings (" + embeddings.getClass().getName() + ")";
    }

    @Override
    public List<RetrievedDocument> search(String query, int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("a search's limit is the most passages to return, 0 or more; was " + limit);
        }
        if (query == null) {
            throw new dev.rein.ReinException("EmbeddingRetriever.search was given no query (null): pass the words to search for");
        }
        if (query.isBlank()) {
            throw new dev.rein.ReinException("EmbeddingRetriever.search was given a blank query: pass the words to search for");
        }
        if (limit == 0 || vectors.isEmpty()) {
            return List.of(); // nothing to rank: no call to the embeddings
        }
        List<float[]> embedded = embeddings.embed(List.of(query));
        if (embedded == null || embedded.size() != 1) {
            throw new RetrievalException("the embeddings returned " + (embedded == null ? "null" : embedded.size() + " vectors")
                    + " for 1 text (the query)");
        }
        float[] q = checked(embedded.get(0), "the query");
        if (q.length != vectors.get(0).length) {
            throw new RetrievalException(named(embeddings) + " returned a vector of " + q.length + " dimensions for the query and of "
                    + vectors.get(0).length + " for the passages; embed the passages and the queries with the same model");
        }
        List<RetrievedDocument> all = new ArrayList<>();
        for (int i = 0; i < vectors.size(); i++) {
            all.add(new RetrievedDocument(sources.get(i), texts.get(i), cosine(q, vectors.get(i))));
        }
        return all.stream().sorted(Comparator.comparingDouble(RetrievedDocument::score).reversed()).limit(limit).toList();
    }

    private static double cosine(float[] a, float[] b) {
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
