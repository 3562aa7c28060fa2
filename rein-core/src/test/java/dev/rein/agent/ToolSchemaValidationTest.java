package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Building an agent checks every tool's input schema against the JSON Schema meta-schema. */
class ToolSchemaValidationTest {

    private static Tool tool(String name, String schema) {
        return Tool.builder(name).description("A tool.").inputSchema(schema).handler((args, ctx) -> "ok").build();
    }

    @Test
    void aSchemaTheMetaSchemaRejectsFailsTheBuildNamingTheTool() {
        List<String> invalid = List.of(
                "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"strin\"}}}",
                "{\"type\":\"object\",\"properties\":5}",
                "{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\"}},\"required\":\"a\"}");
        for (String schema : invalid) {
            Tool bad = tool("lookup_order", schema);
            assertThatThrownBy(() -> Agent.builder().model(ScriptedModel.of()).tools(bad).build())
                    .as(schema)
                    .isInstanceOf(ReinException.class)
                    .hasMessageContaining("lookup_order")
                    .hasMessageContaining("meta-schema");
        }
    }

    @Test
    void validSchemasStillBuild() {
        Tool good = tool("lookup_order", "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\",\"minLength\":1}},"
                + "\"required\":[\"id\"],\"additionalProperties\":false}");
        assertThatCode(() -> Agent.builder().model(ScriptedModel.of()).tools(good).finishTool(true).build()).doesNotThrowAnyException();
        assertThat(good.name()).isEqualTo("lookup_order");
    }
}
