package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class ExampleCommandsTest {
    private final InProcessCli cli = new InProcessCli();

    @Test
    void theExamplesAreListed() {
        InProcessCli.Outcome outcome = cli.run("examples");
        assertThat(outcome.exitCode()).isZero();
        assertThat(outcome.stdout()).contains("date").contains("orders").contains("expense").contains("assistant")
                .contains("code").contains("sql").contains("web").contains("npc").contains("workflow");
    }

    @Test
    void anExampleRunsOfflineWithoutAKey() {
        InProcessCli.Outcome outcome = cli.run("example", "date");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(outcome.stdout()).contains("scripted");
    }

    @Test
    void anExampleSuiteRunsWithEval() {
        InProcessCli.Outcome outcome = cli.run("example", "orders", "--eval", "--trials", "1");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
        assertThat(outcome.stdout()).contains("success rate");
    }

    @Test
    void theExamplesSuiteFilesRunThroughEval() {
        InProcessCli.Outcome outcome = cli.run("eval", Path.of("..", "rein-examples", "suites", "orders.yaml").toString(), "--trials", "1");
        assertThat(outcome.exitCode()).as(outcome.stderr()).isZero();
    }

    @Test
    void trialsNeedEvalAndAPositiveCount() {
        assertThat(cli.run("example", "date", "--trials", "2").exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(cli.run("example", "date", "--eval", "--trials", "0").exitCode()).isEqualTo(ExitCodes.USAGE);
    }

    @Test
    void anUnknownExampleIsAUsageError() {
        InProcessCli.Outcome outcome = cli.run("example", "nope");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderr()).contains("unknown example 'nope'").contains("date");
    }
}
