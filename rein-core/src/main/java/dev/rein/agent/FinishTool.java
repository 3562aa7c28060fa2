package dev.rein.agent;

import dev.rein.internal.loop.Step;
import dev.rein.run.FinishReport;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import dev.rein.model.OutputSchema;
import dev.rein.state.AgentState;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolOutput;
import java.util.ArrayList;
import java.util.List;

/**
 * The optional {@code finish} tool: the model ends the run explicitly with a status
 * (completed / failed / needs_user_input), a summary and a result. The loop handles the call
 * itself; the handler never runs.
 */
public final class FinishTool {
    /** The tool's name (one definition: the step function recognises a lone call of it). */
    public static final String NAME = Step.FINISH;

    private FinishTool() {}

    static Tool tool() {
        return Tool.builder(NAME)
                .description("Call this when the task is done, and only then; it ends the work. If you could not"
                        + " solve the task, call it with status \"failed\"; if you need information only the user"
                        + " can give, use status \"needs_user_input\" and ask in result. Call it alone, after your"
                        + " other tool calls have returned.")
                .inputSchema("""
                        {"type":"object","properties":{
                          "status":{"type":"string","enum":["completed","failed","needs_user_input"],"description":"the outcome of the work"},
                          "summary":{"type":"string","description":"what you did, briefly"},
                          "result":{"type":"string","description":"the final answer for the user"},
                          "open_questions":{"type":"array","items":{"type":"string"},"description":"optional: what is still unknown or undecided"},
                          "hypotheses":{"type":"array","items":{"type":"string"},"description":"optional: what you believe but could not confirm with a tool"}},
                         "required":["status","summary","result"],"additionalProperties":false}""")
                .risk(Risk.READ)
                // The loop handles a lone finish call itself; the handler only answers one made alongside others.
                // (also two finish calls in one response: so the text does not speak of "other tools")
                .handler((args, ctx) -> ToolOutput.error("finish was not accepted because it was not the only tool call"
                        + " of your response. Call finish once, alone, in a response of its own; read the results of any"
                        + " other calls first."))
                .build();
    }

    /** The open questions and hypotheses the model listed, added to the state for a handoff. */
    static AgentState handoffNotes(AgentState state, JsonNode arguments) {
        return state.withOpenQuestions(strings(arguments.path("open_questions")))
                .withHypotheses(strings(arguments.path("hypotheses")));
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(item -> {
            if (item.isTextual() && !item.asText().isBlank()) {
                out.add(item.asText());
            }
        });
        return out;
    }

    /**
     * The arguments with a typed result given as JSON itself ({@code "result": {...}}) turned into
     * its JSON text, which the tool's schema and the output schema's check take. The tool's schema
     * keeps {@code result} a string, which every provider's tool schema dialect accepts (Gemini's
     * refuses a property without a type), but a model told the answer's shape in the system prompt
     * often sends the value itself; refusing it only made the model send it again. So is a string
     * that is not valid output as JSON but is as a JSON string (the output type is an enum, say).
     * Other arguments are returned as they are.
     */
    static JsonNode typedResult(JsonNode arguments, OutputSchema schema) {
        JsonNode result = arguments.path("result");
        boolean completed = "completed".equals(arguments.path("status").asText());
        // null is a JSON value too: a completed run's typed answer null, which the output schema then checks (and
        // refuses as invalid output unless it allows null); for another status it stays the tool schema's refusal
        if (!(arguments instanceof ObjectNode object) || result.isMissingNode() || (result.isNull() && !completed)) {
            return arguments;
        }
        // only a completed run's result is the typed answer: a question (needs_user_input) or a failure stays text;
        // so does a result that shows nothing, refused as such rather than taken for the JSON string ""
        if (result.isTextual() && !(completed && dev.rein.internal.text.Visible.any(result.asText())
                && !schema.problems(result.asText()).isEmpty() && schema.problems(result).isEmpty())) {
            return arguments;
        }
        // A value given as JSON, or a string the schema takes as a JSON string (an enum's "REFUND", which the
        // tool's string field invites, rather than "\"REFUND\""): the answer is its JSON text
        ObjectNode copy = object.deepCopy();
        copy.put("result", Json.write(result));
        return copy;
    }

    /**
     * The arguments of a completed finish (without typed output) whose result is null with an empty result
     * instead: null shows nothing, and a result that shows nothing is refused as an answer that fails
     * verification is (counted), not as arguments the tool's schema refuses. Other arguments are returned as
     * they are.
     */
    static JsonNode nullResultAsEmpty(JsonNode arguments) {
        if (arguments instanceof ObjectNode object && arguments.path("result").isNull()
                && "completed".equals(arguments.path("status").asText())) {
            ObjectNode copy = object.deepCopy();
            copy.put("result", "");
            return copy;
        }
        return arguments;
    }

    static FinishReport parse(JsonNode arguments) {
        return new FinishReport(arguments.path("status").asText(), arguments.path("summary").asText(),
                arguments.path("result").asText());
    }
}
