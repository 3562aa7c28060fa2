package dev.rein.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.agent.FinishTool;
import dev.rein.model.OutputSchema;
import dev.rein.model.ToolDefinition;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import java.util.ArrayList;
import java.util.List;

/**
 * What a trace says about the run it recorded, enough to build an agent like the one that ran it.
 *
 * @param tools           the names of the tools the run was given (the finish tool included when it was offered)
 * @param systemPrompt    the system prompt of its first model call ("" when none), without the output instruction
 *                        Rein adds for an output schema
 * @param maxTokens       the agent's max_tokens: that of its first model call, or, when a limit lowered that call's
 *                        (a {@code max_tokens_lowered} intervention), the max_tokens it was lowered from; 0 when it
 *                        made no call
 * @param modelCalls      how many model calls it recorded
 * @param toolDefinitions what the model was shown of each tool in its first model call (name, description, input
 *                        schema), the finish tool left out; empty when it made no call
 * @param status          the status it ended with ("SUCCEEDED", ...), or null when the trace records no ending
 * @param reason          the reason it ended with, or null when the trace records no ending
 * @param outputSchema    the schema its final answer had to match ({@code rein run --output-schema},
 *                        {@code Agent.Builder.outputType}), or null when it had none; give it to the replaying agent
 *                        ({@code outputSchema}) so its requests and its answer checks are those of the recording
 * @param replies         the replies that opened its later turns ({@code turn_started}: a conversation continued with
 *                        {@code Agent.reply}), in order; empty for a run of one turn
 */
public record RecordedRun(String runId, String goal, String model, List<String> tools, String systemPrompt, int maxTokens,
                          int modelCalls, List<ToolDefinition> toolDefinitions, String status, String reason,
                          OutputSchema outputSchema, List<String> replies) {
    public RecordedRun {
        tools = List.copyOf(tools);
        toolDefinitions = List.copyOf(toolDefinitions);
        replies = List.copyOf(replies);
    }

    /** A recorded run of one turn (no replies). */
    public RecordedRun(String runId, String goal, String model, List<String> tools, String systemPrompt, int maxTokens,
                       int modelCalls, List<ToolDefinition> toolDefinitions, String status, String reason,
                       OutputSchema outputSchema) {
        this(runId, goal, model, tools, systemPrompt, maxTokens, modelCalls, toolDefinitions, status, reason, outputSchema,
                List.of());
    }

    /**
     * Stand-ins for the recorded tools, for a replay in a process that does not have the real ones
     * (a replay answers every call from the recording, after argument validation): each has the
     * recorded name, description and input schema, risk {@link Risk#WRITE} (so live READ tools never
     * include it) and a handler that refuses to run. In a replay, a stand-in's calls wait for a person
     * exactly where the recording's did (the call of that step and Rein call id), whatever the agent's approval
     * policy: the trace records neither the real tool's risk nor the run's policy. What the trace does not record (timeouts,
     * call limits, polling, scopes) is left at its defaults, which guards that read them may notice.
     */
    public List<Tool> standInTools() {
        return toolDefinitions.stream().map(d -> Tool.builder(d.name()).description(d.description())
                .inputSchema(d.inputSchema()).risk(Risk.WRITE)
                .handler(new StandIn(d.name())).build()).toList();
    }

    /** A stand-in's handler, which refuses to run; a replay knows a stand-in by it. */
    private record StandIn(String name) implements dev.rein.tool.ToolHandler {
        @Override
        public Object handle(JsonNode arguments, dev.rein.tool.ToolContext context) {
            throw new IllegalStateException("'" + name + "' is a stand-in built from a trace; it cannot run");
        }
    }

    /** Whether {@code tool} is one of {@link #standInTools()}: its real risk and the run's approval policy are unknown. */
    static boolean isStandIn(Tool tool) {
        return tool.handler() instanceof StandIn;
    }

    static RecordedRun of(Recording r) {
        JsonNode first = r.calls().isEmpty() ? null : r.calls().get(0).request();
        StringBuilder system = new StringBuilder();
        List<ToolDefinition> definitions = new ArrayList<>();
        if (first != null) {
            first.path("system").forEach(block -> system.append(block.path("text").asText()));
            for (JsonNode tool : first.path("tools")) {
                if (!tool.path("name").asText().equals(FinishTool.NAME) && tool.path("input_schema").isObject()) {
                    definitions.add(new ToolDefinition(tool.path("name").asText(), tool.path("description").asText(),
                            (ObjectNode) tool.get("input_schema").deepCopy()));
                }
            }
        }
        OutputSchema schema = first == null ? null : outputSchema(first.path("options").path("OutputSchema"));
        String prompt = system.toString();
        if (schema != null) { // the agent adds the instruction itself (AgentConfig.requestSystemPrompt)
            prompt = prompt.equals(schema.instruction()) ? ""
                    : prompt.endsWith("\n\n" + schema.instruction())
                    ? prompt.substring(0, prompt.length() - schema.instruction().length() - 2) : prompt;
        }
        JsonNode finished = r.finished();
        return new RecordedRun(r.runId(), r.goal(), r.model(), r.tools(), prompt,
                first == null ? 0 : configuredMaxTokens(r, first), r.calls().size(), definitions,
                finished == null ? null : finished.path("status").asText(), finished == null ? null : finished.path("reason").asText(),
                schema, r.replies());
    }

    /**
     * The agent's max_tokens: the first call's, unless a limit lowered it (a money or output token limit left less
     * at that call); the intervention that says so records the max_tokens it was lowered from.
     */
    private static int configuredMaxTokens(Recording r, JsonNode first) {
        for (Recording.Guard guard : r.guardEvents()) {
            JsonNode event = guard.event();
            if (guard.callsBefore() == 0 && event.path("kind").asText().equals("max_tokens_lowered")
                    && event.path("evidence").path("max_tokens").canConvertToInt()) {
                return event.path("evidence").path("max_tokens").asInt();
            }
        }
        return first.path("max_tokens").asInt();
    }

    /** The recorded request option {@code OutputSchema} ({@code {"name":…,"schema":{…}}}), or null. */
    private static OutputSchema outputSchema(JsonNode option) {
        if (!option.path("schema").isObject()) {
            return null;
        }
        return OutputSchema.fromJson(option.path("name").asText("output"), option.get("schema").toString());
    }
}
