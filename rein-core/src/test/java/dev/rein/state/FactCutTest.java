package dev.rein.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolResult;
import org.junit.jupiter.api.Test;

/** A long fact is cut to AgentState.MAX_FACT_CHARS characters (code points): never inside one, counted as characters. */
class FactCutTest {
    @Test
    void aLongFactIsCutBetweenWholeCharactersAndCountsWhatIsLeftInCharacters() {
        // 1,999 characters, then an emoji (two UTF-16 units) across the cut, then 10 Japanese characters and 5 emoji
        String text = "a".repeat(AgentState.MAX_FACT_CHARS - 1) + "😀" + "在庫".repeat(5) + "🍣".repeat(5);
        ToolResult result = ToolResult.success(new ToolCall("c1", "lookup", Json.object(), 0), text, "db:1");
        Fact fact = AgentState.of("goal").observe(1, Json.object(), result).facts().get(0);
        assertThat(fact.text()).startsWith("a".repeat(AgentState.MAX_FACT_CHARS - 1) + "😀 [... ")
                .endsWith(" [... 15 more characters in the history]");
        assertThat(fact.text().codePoints().filter(cp -> Character.isSurrogate((char) cp))).isEmpty();
    }

    @Test
    void aFactOfExactlyTheLimitInCharactersIsKeptWhole() {
        String text = "🍣".repeat(AgentState.MAX_FACT_CHARS); // 4,000 UTF-16 units, 2,000 characters
        ToolResult result = ToolResult.success(new ToolCall("c1", "lookup", Json.object(), 0), text, "db:1");
        assertThat(AgentState.of("goal").observe(1, Json.object(), result).facts().get(0).text()).isEqualTo(text);
    }
}
