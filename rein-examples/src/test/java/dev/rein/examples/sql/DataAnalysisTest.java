package dev.rein.examples.sql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.run.FinalAnswer;
import dev.rein.run.Verdict;
import dev.rein.examples.SuiteRuns.DemoOutput;
import dev.rein.examples.SuiteRuns;
import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.tool.ToolContext;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class DataAnalysisTest {
    @Test
    void theDemoAggregatesAndQuotesItsSql() {
        DemoOutput demo = SuiteRuns.demo(DataAnalysis.NAME);
        assertThat(demo.exitCode()).as(demo.out() + demo.err()).isZero();
        assertThat(demo.out()).contains("there are more. Do not page through rows")
                .contains("the figure 88,278,800 is not backed by a query")
                .contains("= SUCCEEDED (completed)")
                .contains("```sql");
    }

    @Test
    void theSuitePassesOffline() throws Exception {
        SuiteRuns.assertAllPass(new DataAnalysis().suite());
    }

    @Test
    void theConnectionCannotWriteEvenWhenTheGuardIsBypassed() throws Exception {
        try (SalesDatabase db = new SalesDatabase()) {
            var runSql = db.tools().stream().filter(t -> t.name().equals("run_sql")).findFirst().orElseThrow();
            Object out = runSql.handler().handle(Json.object().put("query", "WITH x AS (SELECT 1) DELETE FROM orders"),
                    ToolContext.standalone("t1"));
            assertThat(out.toString()).contains("isError=true").containsIgnoringCase("readonly");
            assertThat(db.snapshot().path("rows").path("orders").asLong()).isEqualTo(1_500);
        }
    }

    @Test
    void aRunawayQueryIsStoppedByTheTool() throws Exception {
        try (SalesDatabase db = new SalesDatabase(Duration.ofMillis(200))) {
            var runSql = db.tools().stream().filter(t -> t.name().equals("run_sql")).findFirst().orElseThrow();
            long start = System.nanoTime();
            // The tool's own stop is reported as a timeout (the executor classes it TIMEOUT).
            assertThatThrownBy(() -> runSql.handler().handle(Json.object().put("query",
                    "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT count(*) FROM n"), ToolContext.standalone("t2")))
                    .isInstanceOf(java.util.concurrent.TimeoutException.class)
                    .hasMessageContaining("stopped after its time limit");
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
        }
    }

    @Test
    void theGuardLetsOnlyOneReadStatementThrough() {
        assertThat(SqlGuard.problem("SELECT 1;")).isEmpty();
        assertThat(SqlGuard.problem("with t as (select 1) select * from t")).isEmpty();
        assertThat(SqlGuard.problem("SELECT 'delete me' AS note -- drop table x")).isEmpty();
        assertThat(SqlGuard.problem("SELECT 1; DELETE FROM orders")).contains("only one statement per call is allowed");
        assertThat(SqlGuard.problem("PRAGMA query_only = OFF")).isPresent();
        assertThat(SqlGuard.problem("WITH x AS (SELECT 1) DELETE FROM orders")).get().asString().contains("DELETE");
    }

    @Test
    void everyFigureNeedsAQuotedQueryThatProducedIt() {
        String sql = "SELECT 1234500 AS total";
        List<Message> history = List.of(Message.user("q"),
                Message.assistant(List.of(new ToolUseBlock("c1", "run_sql", Json.object().put("query", sql)))),
                Message.user(List.of(new ToolResultBlock("c1", "query: " + sql + "\ntotal\n1234500\n(1 row)", false))));
        SqlEvidence evidence = new SqlEvidence();
        assertThat(evidence.verify(answer("The total is 1,234,500 in 2025.\n```sql\n" + sql + ";\n```", history)))
                .isInstanceOf(Verdict.Pass.class);
        assertThat(evidence.verify(answer("The total is 1,234,500.", history))).isInstanceOf(Verdict.Fail.class);
        assertThat(evidence.verify(answer("The total is 1,234,600.\n```sql\n" + sql + "\n```", history)))
                .isInstanceOf(Verdict.Fail.class);
        assertThat(SqlEvidence.figures("In 2025 (2025-03-01) we had 3 regions and 12.5% growth, 1,234 units"))
                .containsExactly("12.5", "1,234");
    }

    private static FinalAnswer answer(String text, List<Message> history) {
        return new FinalAnswer("goal", text, null, history);
    }
}
