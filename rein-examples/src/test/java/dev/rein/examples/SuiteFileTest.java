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

    @Test
    void anOptionOfTheWrongKindIsAnErrorNotItsDefault() {
        // traveller_near: "false" (quoted) put the traveller at the gate; a single item or a files list was dropped
        assertOptionRefused("village", "{traveller_near: \"false\"}", "environment 'village': option traveller_near must be true or false");
        assertOptionRefused("village", "{traveller_items: captain's pass}",
                "environment 'village': option traveller_items must be a list of text");
        assertOptionRefused("village", "{traveller_items: [null]}", "environment 'village': option traveller_items must be a list of text");
        assertOptionRefused("code_workspace", "{files: [src/a.sh]}",
                "environment 'code_workspace': option files must map paths to their text");
        assertOptionRefused("code_workspace", "{files: {src/a.sh: null}}",
                "environment 'code_workspace': option files must map paths to their text");
    }

    @Test
    void aDelayOfAToolTheWorldDoesNotHaveOrOfAFractionOfAMillisecondIsRefused() {
        // a misspelt tool (get_ordr) was delayed in no call, so a tool_timeout task ran without its slow tool,
        // and 1.5 ms was read as 1 ms
        assertOptionRefused("orders", "{delays_ms: {get_ordr: 5000}}", "environment 'orders': option delays_ms names"
                + " 'get_ordr', which is not one of its tools that can be delayed; give one of get_order, get_shipment,"
                + " get_warehouse_status");
        assertOptionRefused("office", "{delays_ms: {send_email: 5000}}", "environment 'office': option delays_ms names"
                + " 'send_email', which is not one of its tools that can be delayed; give one of find_free_slots,"
                + " lookup_contact, read_mail, search_mail");
        assertOptionRefused("orders", "{delays_ms: {get_order: 1.5}}", "environment 'orders': delays_ms.get_order must be"
                + " a whole number of milliseconds, 0 or more, e.g. {get_order: 5000}; was 1.5");
        assertOptionRefused("orders", "{delays_ms: 5000}", "environment 'orders': option delays_ms must map names to"
                + " milliseconds, e.g. delays_ms: {get_order: 5000}; was 5000");
    }

    @Test
    void aQueryTimeoutOfAFractionOfAMillisecondIsRefusedNotCutToItsWholePart() {
        // 1.5 ms was read as 1 ms, and 0.5 was said not to be positive
        assertOptionRefused("sales_db", "{query_timeout_ms: 1.5}", "environment 'sales_db': option query_timeout_ms must be a"
                + " whole number of milliseconds, 1 or more, e.g. query_timeout_ms: 2000; was 1.5");
        assertOptionRefused("sales_db", "{query_timeout_ms: 0}", "environment 'sales_db': option query_timeout_ms must be a"
                + " whole number of milliseconds, 1 or more, e.g. query_timeout_ms: 2000; was 0");
    }

    @Test
    void aWorkspaceFileOutsideTheProjectIsRefusedAndNothingIsWrittenThere() throws Exception {
        // the workspace joined each path of the files option to its temporary directory as given:
        // '../x' was written next to it, in the temporary directory, and '.git/...' into git's own files
        String name = "rein-escaped-" + System.nanoTime() + ".txt";
        java.nio.file.Path escaped = java.nio.file.Path.of(System.getProperty("java.io.tmpdir"), name);
        try {
            assertOptionRefused("code_workspace", "{files: {\"../" + name + "\": x}}",
                    "environment 'code_workspace': option files: '../" + name + "' is outside the project's files");
            assertThat(escaped).doesNotExist();
            assertOptionRefused("code_workspace", "{files: {\"" + escaped + "\": x}}",
                    "environment 'code_workspace': option files: '" + escaped + "' is not a relative path inside the project");
            assertThat(escaped).doesNotExist();
            assertOptionRefused("code_workspace", "{files: {.git/hooks/pre-commit: \"#!/bin/sh\"}}",
                    "environment 'code_workspace': option files: '.git/hooks/pre-commit' is outside the project's files");
        } finally {
            java.nio.file.Files.deleteIfExists(escaped);
        }
    }

    private static void assertOptionRefused(String environment, String options, String message) {
        String yaml = """
                suite: bad
                environment: {name: %s, options: %s}
                tasks:
                  - id: t
                    goal: g
                    agent: {toolsets: []}
                    script: [{text: hi}]
                """.formatted(environment, options);
        Suite suite = SuiteFile.parse(yaml, SuiteFile.Format.YAML, "bad.yaml", EvalRegistry.load());
        assertThatThrownBy(() -> suite.tasks().get(0).newEnvironment()).as(options).isInstanceOf(ReinException.class)
                .hasMessageStartingWith(message);
    }
}
