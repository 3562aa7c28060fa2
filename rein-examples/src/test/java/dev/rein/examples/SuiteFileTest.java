package dev.rein.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.eval.Suite;
import dev.rein.eval.file.EvalRegistry;
import dev.rein.eval.file.SuiteFile;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The examples' worlds are available to suite files through the service loader. */
class SuiteFileTest {
    @Test
    void thePluginRegistersEveryExampleWorld() {
        assertThat(EvalRegistry.load().names()).contains("date_clock", "orders", "expenses", "office", "code_workspace",
                "sales_db", "local_web", "village");
    }

    @Test
    void theOrdersSuiteFilePassesOffline() throws Exception {
        Suite suite = SuiteFile.load(Path.of("suites", "orders.yaml"), EvalRegistry.load());
        assertThat(suite.tasks()).hasSize(6);
        SuiteRuns.assertAllPass(suite);
    }

    @Test
    void anUnknownOptionIsNamed() {
        String yaml = """
                suite: bad
                environment: {name: orders, options: {delay_ms: {get_order: 5}}}
                tasks:
                  - id: t
                    goal: g
                    agent: {use: support_agent}
                    script: [{text: hi}]
                """;
        Suite suite = SuiteFile.parse(yaml, SuiteFile.Format.YAML, "bad.yaml", EvalRegistry.load());
        assertThatThrownBy(() -> suite.tasks().get(0).newEnvironment()).isInstanceOf(ReinException.class)
                .hasMessageContaining("has no option 'delay_ms'").hasMessageContaining("delays_ms");
    }
}
