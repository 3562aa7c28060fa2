package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.model.OutputSchema;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import org.junit.jupiter.api.Test;

/**
 * A typed answer the model put in a ```json fence: accepted; answer() is the text as the model wrote it (as the
 * history and the trace keep it), the typed value and OutputSchema.answerText are what the fence holds.
 */
class FencedTypedAnswerTest {
    public record Room(String name, int seats) {}

    @Test
    void aFencedAnswerIsAcceptedReadFromInsideTheFenceAndKeptAsWrittenInAnswer() {
        String written = "```json\n{\"name\": \"会議室B\", \"seats\": 8}\n```";
        RunResult result = Agent.builder().model(ScriptedModel.of(text(written))).build().run("会議室は?", Room.class);

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.answer()).isEqualTo(written);
        assertThat(result.output(Room.class)).isEqualTo(new Room("会議室B", 8));
        assertThat(result.output(JsonNode.class)).isEqualTo(Json.parse("{\"name\":\"会議室B\",\"seats\":8}"));
        assertThat(Json.parse(OutputSchema.answerText(result.answer()))).isEqualTo(result.output(JsonNode.class));
    }
}
