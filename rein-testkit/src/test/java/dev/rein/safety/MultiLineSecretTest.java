package dev.rein.safety;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.json.Json;
import dev.rein.model.ModelException;
import dev.rein.run.RunStatus;
import dev.rein.state.InMemoryRunStore;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Secrets;
import dev.rein.tool.Tool;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/safety.md: every known value is masked wherever Rein persists or hands out text, also a
 * multi-line, non-ASCII one quoted in a tool's exception and in the provider's error message.
 */
class MultiLineSecretTest {
    private static final String SECRET = "sk-秘密-line1\nline2-XYZ";

    @Test
    void aMultiLineNonAsciiSecretInAToolsExceptionAndAProviderErrorIsMaskedEverywhere() {
        InMemoryRunStore store = new InMemoryRunStore();
        RecordingListener trace = new RecordingListener();
        Tool leak = Tool.builder("leak").description("Leaks.").handler((a, c) -> {
            throw new IllegalStateException("bad key " + c.secrets().get("k").orElseThrow());
        }).build();
        ScriptedModel model = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("leak", "{}")),
                ScriptedModel.fail(new ModelException(ModelException.Kind.INVALID_REQUEST, 400, "prompt rejected: contains " + SECRET)));
        Agent agent = Agent.builder().model(model).tools(leak).store(store).listener(trace)
                .secrets(Secrets.of(Map.of("k", SECRET))).build();

        RunResult result = agent.run("go");

        assertThat(result.status()).isEqualTo(RunStatus.FAILED);
        assertThat(result.message()).contains("prompt rejected: contains [REDACTED:k]");
        assertThat(model.requests().toString()).contains("bad key [REDACTED:k]").doesNotContain("line2-XYZ");
        assertThat(Json.write(result)).doesNotContain("line2-XYZ").doesNotContain("sk-秘密");
        assertThat(trace.events()).isNotEmpty().allSatisfy(e -> assertThat(Json.write(e)).doesNotContain("line2-XYZ"));
        assertThat(Json.write(store.load(result.runId()).orElseThrow())).doesNotContain("line2-XYZ");
        assertThat(store.events(result.runId())).allSatisfy(e -> assertThat(Json.write(e)).doesNotContain("line2-XYZ"));
    }
}
