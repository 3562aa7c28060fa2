package dev.rein.bench;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.service.AiServices;
import java.util.concurrent.atomic.AtomicInteger;

/** LangChain4j's {@code AiServices} with its Anthropic chat model (JSON, not streamed), no chat memory, defaults otherwise. */
final class LangChain4jClient implements Client {
    interface Assistant {
        String chat(String message);
    }

    /** The tool, as LangChain4j users write it. */
    static final class Tools {
        final AtomicInteger calls = new AtomicInteger();
        final boolean slow;

        Tools(boolean slow) {
            this.slow = slow;
        }

        @Tool("Looks up one item by its name and returns what is known about it.")
        public String lookup(@P("the item") String q) {
            calls.incrementAndGet();
            if (slow) {
                Scenario.slowLookup();
            }
            return Scenario.lookup(q);
        }
    }

    private final Assistant assistant;
    private final Tools tools;

    LangChain4jClient(String baseUrl, boolean slow) {
        AnthropicChatModel model = AnthropicChatModel.builder()
                .baseUrl(baseUrl + "/v1/")
                .apiKey("k")
                .modelName(Scenario.MODEL)
                .maxTokens(1024)
                // Ten thousand runs at once queue behind two cores; the default 60 s is too short for that.
                .timeout(java.time.Duration.ofMinutes(10))
                .build();
        this.tools = new Tools(slow);
        AiServices<Assistant> builder = AiServices.builder(Assistant.class)
                .chatModel(model)
                .systemMessageProvider(id -> Scenario.SYSTEM)
                .tools(tools);
        if (slow) {
            // The parallel-step case: LangChain4j runs the calls of one response one after another
            // unless told otherwise.
            builder.executeToolsConcurrently();
        }
        this.assistant = builder.build();
    }

    @Override
    public int run() {
        int before = tools.calls.get();
        assistant.chat(Scenario.GOAL);
        return tools.calls.get() - before + 1;
    }
}
