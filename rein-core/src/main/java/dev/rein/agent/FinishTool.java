package dev.rein.agent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolOutput;

/**
 * The optional {@code finish} tool: the model ends the run explicitly with a status
 * (completed / failed / needs_user_input), a summary and a result. The loop handles the call
 * itself; the handler never runs.
 */
public final class FinishTool {
    public static final String NAME = "finish";

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
                          "result":{"type":"string","description":"the final answer for the user"}},
                         "required":["status","summary","result"],"additionalProperties":false}""")
                .risk(Risk.READ)
                // The loop handles a lone finish call itself; the handler only answers one made alongside others.
                .handler((args, ctx) -> ToolOutput.error("finish was not accepted because it was called together with"
                        + " other tools. Read their results first; then call finish alone."))
                .build();
    }

    static FinishReport parse(JsonNode arguments) {
        return new FinishReport(arguments.path("status").asText(), arguments.path("summary").asText(),
                arguments.path("result").asText());
    }
}
