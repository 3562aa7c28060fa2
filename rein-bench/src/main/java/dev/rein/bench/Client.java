package dev.rein.bench;

/** One framework under test: runs the whole tool loop once per call. */
interface Client extends AutoCloseable {
    /** Runs one agent run to its final answer and returns the number of model calls it made. */
    int run() throws Exception;

    /**
     * Releases the client's connections and threads. No client's close throws a checked exception, and declaring
     * none keeps javac's {@code -Xlint:try} quiet ({@code AutoCloseable.close() throws Exception} may throw
     * {@code InterruptedException}, which a try-with-resources should not swallow).
     */
    @Override
    default void close() {}

    static Client create(String name, String baseUrl, boolean slowTools) throws Exception {
        return create(name, baseUrl, slowTools, 0);
    }

    /** As above; {@code steps} is what the fake answers, needed by the client whose model is in process. */
    static Client create(String name, String baseUrl, boolean slowTools, int steps) throws Exception {
        if (name.endsWith("@virtual")) { // the same client, each run called from a virtual thread of its own
            Client client = create(name.substring(0, name.length() - "@virtual".length()), baseUrl, slowTools, steps);
            return new OnVirtualThread(client);
        }
        return switch (name) {
            case "floor-json" -> new FloorClient(baseUrl, false, slowTools);
            case "floor-sse" -> new FloorClient(baseUrl, true, slowTools);
            case "langchain4j" -> new LangChain4jClient(baseUrl, slowTools);
            case "rein" -> new ReinClient(baseUrl, slowTools, false);
            case "rein-inline" -> new ReinClient(baseUrl, slowTools, true);
            case "rein-model" -> new ReinModelClient(baseUrl);
            case "rein-inprocess" -> new ReinInProcessClient(steps);
            default -> throw new IllegalArgumentException("unknown client " + name
                    + "; use floor-json, floor-sse, langchain4j, rein, rein-inline, rein-model or rein-inprocess");
        };
    }

    /** Calls another client's runs on a fresh virtual thread each, as a server on virtual threads would. */
    record OnVirtualThread(Client client) implements Client {
        @Override
        public int run() throws Exception {
            int[] calls = new int[1];
            Exception[] failure = new Exception[1];
            Thread.ofVirtual().start(() -> {
                try {
                    calls[0] = client.run();
                } catch (Exception e) {
                    failure[0] = e;
                }
            }).join();
            if (failure[0] != null) {
                throw failure[0];
            }
            return calls[0];
        }

        @Override
        public void close() {
            client.close();
        }
    }
}
