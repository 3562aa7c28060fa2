package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.model.OutputSchema;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import org.junit.jupiter.api.Test;

/**
 * The validator's stack overflow on a schema the application wrote (RefLoops.overflow) is a configuration problem: the
 * run ends FAILED configuration_error with what to do, not internal_error, which says Rein or a stage broke.
 */
class SchemaOverflowReasonTest {
    /** A loop only the validator finds: a subschema's own relative $id. */
    private static final String LOOPING = "{\"$id\":\"https://example.com/root\",\"type\":\"object\",\"properties\":{\"x\":"
            + "{\"$ref\":\"sub\"}},\"$defs\":{\"s\":{\"$id\":\"sub\",\"allOf\":[{\"$ref\":\"sub\"}]}}}";

    /** Failed first: internal_error. */
    @Test
    void anOutputSchemaTheValidatorOverflowsOnEndsTheRunConfigurationError() {
        RunResult result = Agent.builder().model(ScriptedModel.of(text("{\"x\":1}")))
                .outputSchema(OutputSchema.fromJson("Loop", LOOPING)).build().run("answer");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).isEqualTo("configuration_error");
        assertThat(result.message()).startsWith("checking an answer against the output schema 'Loop' ran out of stack");
    }

    /** Failed first: internal_error. */
    @Test
    void aToolInputSchemaTheValidatorOverflowsOnEndsTheRunConfigurationError() {
        Tool tool = Tool.builder("loop").description("loops").inputSchema(LOOPING).handler((arguments, context) -> "ok").build();
        RunResult result = Agent.builder().model(ScriptedModel.of(toolCalls(call("loop", "{\"x\":1}")), text("done")))
                .tools(tool).build().run("call it");
        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.reason()).as(result.message()).isEqualTo("configuration_error");
        assertThat(result.message()).startsWith("checking arguments against tool 'loop''s input schema ran out of stack");
    }
}
