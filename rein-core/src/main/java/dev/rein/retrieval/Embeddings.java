package dev.rein.retrieval;

import java.util.List;

/**
 * Turns texts into vectors, for {@link EmbeddingRetriever}. Providers implement it in their own
 * modules; the core names none. All vectors of one instance have the same dimension.
 */
public interface Embeddings {
    /** One vector per text, in order. */
    List<float[]> embed(List<String> texts);
}
