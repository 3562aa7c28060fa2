package dev.rein.retrieval;


/**
 * One passage a {@link Retriever} found.
 *
 * @param source where the passage is (for example {@code docs/returns.md#2}); cited in every answer
 * @param text   the passage
 * @param score  the backend's relevance score (BM25 for Lucene, cosine similarity for embeddings); higher is better;
 *               a finite number
 * @throws dev.rein.ReinException when the source or text is null, or the score is NaN or infinite
 */
public record RetrievedDocument(String source, String text, double score) {
    public RetrievedDocument {
        if (source == null) {
            throw new dev.rein.ReinException("a RetrievedDocument was given no source (null): give where the passage is,"
                    + " such as docs/returns.md#2, which answers cite");
        }
        if (text == null) {
            throw new dev.rein.ReinException("the RetrievedDocument of source '" + source + "' was given no text (null):"
                    + " give the passage's text (\"\" for none)");
        }
        if (!Double.isFinite(score)) { // written into the observation as "score NaN", and ranked nowhere in particular
            throw new dev.rein.ReinException("the RetrievedDocument of source '" + source + "' was given score " + score
                    + ": give the backend's relevance score as a finite number (0 when the backend has none)");
        }
    }
}
