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
    void schemaTextThatIsNotOneJsonObjectIsRefusedNamingTheTool() {
        // a brace closed too early: the text after it ("required") was silently dropped, so the model could omit order_id
        assertThatThrownBy(() -> tool("lookup_order", "{\"type\":\"object\",\"properties\":{\"order_id\":{\"type\":\"string\"}}},"
                + " \"required\":[\"order_id\"]}"))
                .isInstanceOf(ReinException.class)
                .hasMessageStartingWith("tool 'lookup_order': the input schema is not valid JSON: ")
                .hasMessageContaining("more text follows after the JSON value");
        assertThatThrownBy(() -> tool("lookup_order", "{\"type\":"))
                .isInstanceOf(ReinException.class).hasMessageStartingWith("tool 'lookup_order': the input schema is not valid JSON: ");
        assertThatThrownBy(() -> tool("lookup_order", null))
                .isInstanceOf(ReinException.class)
                .hasMessage("tool 'lookup_order': inputSchema(...) was given null; pass the JSON schema of the input object,"
                        + " or leave it unset for a tool without arguments");
    }

    @Test
    void validSchemasStillBuild() {
        Tool good = tool("lookup_order", "{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\",\"minLength\":1}},"
                + "\"required\":[\"id\"],\"additionalProperties\":false}");
        assertThatCode(() -> Agent.builder().model(ScriptedModel.of()).tools(good).finishTool(true).build()).doesNotThrowAnyException();
        assertThat(good.name()).isEqualTo("lookup_order");
    }
}
