package dev.rein.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The plan of a request's tool ids: the shortcut taken when every call id is valid and unique gives the plan the full
 * computation gives, for any history, and the hand-written id check agrees with the API's pattern.
 */
class WireIdsTest {
    @Property(tries = 500)
    void theShortcutPlansAsTheFullComputationDoes(@ForAll("histories") List<Message> history) {
        String[][] planned = new WireIds().plan(history);
        String[][] full = new WireIds().planAnyIds(history);
        assertThat(planned).isDeepEqualTo(full);
    }

    @Property(tries = 2000)
    void anIdIsValidExactlyWhenItMatchesTheApisPattern(@ForAll("ids") String id) {
        assertThat(WireIds.valid(id)).isEqualTo(id.matches("[a-zA-Z0-9_-]+"));
    }

    @Provide
    Arbitrary<String> ids() {
        return Arbitraries.strings().withChars("aZ09_-:. é\u0000/").ofMinLength(0).ofMaxLength(6);
    }

    /** Turns of calls and their results whose ids come from a few, some repeated, some the API would not take. */
    @Provide
    Arbitrary<List<Message>> histories() {
        Arbitrary<String> id = Arbitraries.of("toolu_1", "toolu_2", "call_0", "call_1", "functions.lookup:0", "", "a-b");
        return id.list().ofMinSize(1).ofMaxSize(3).list().ofMaxSize(6).map(turns -> {
            List<Message> history = new ArrayList<>();
            history.add(Message.user("go"));
            for (List<String> calls : turns) {
                List<ContentBlock> uses = new ArrayList<>();
                List<ContentBlock> results = new ArrayList<>();
                uses.add(new TextBlock("calling"));
                for (String call : calls) {
                    uses.add(new ToolUseBlock(call, "lookup", Json.mapper().createObjectNode()));
                    results.add(new ToolResultBlock(call, "done", false));
                }
                history.add(Message.assistant(uses));
                history.add(Message.user(results));
            }
            return history;
        });
    }
}
