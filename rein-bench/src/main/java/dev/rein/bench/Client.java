package dev.rein.bench;

/** One framework under test: runs the whole tool loop once per call. */
interface Client extends AutoCloseable {
    /** Runs one agent run to its final answer and returns the number of model calls it made. */
    int run() throws Exception;

    @Override
    default void close() throws Exception {}

    static Client create(String name, String baseUrl, boolean slowTools) throws Exception {
        return switch (name) {
            case "floor-json" -> new FloorClient(baseUrl, false);
            case "floor-sse" -> new FloorClient(baseUrl, true);
            case "langchain4j" -> new LangChain4jClient(baseUrl, slowTools);
            case "rein" -> new ReinClient(baseUrl, slowTools);
            case "rein-model" -> new ReinModelClient(baseUrl);
            default -> throw new IllegalArgumentException("unknown client " + name
                    + "; use floor-json, floor-sse, langchain4j, rein or rein-model");
        };
    }
}
