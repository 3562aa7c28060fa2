package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.testkit.ScriptedModel;
import org.junit.jupiter.api.Test;

/**
 * The command lines the usage errors suggest (put -- before a goal starting with '-', complete a command missing its
 * argument) quote what was typed so that a shell gives it back as typed. Before: every word that needed quoting went in
 * double quotes as it was, so a goal with a '"' broke the line and a '$5' or a backquote was expanded by the shell.
 */
class SuggestedCommandQuotingTest {

    @Test
    void aGoalWithQuotesOrDollarsIsSuggestedInSingleQuotes() {
        InProcessCli cli = new InProcessCli().models((name, env) -> ScriptedModel.of(ScriptedModel.text("must not run")));
        InProcessCli.Outcome outcome = cli.run("run", "-$5 off: is \"half price\" less? 半額");
        assertThat(outcome.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(outcome.stderrLines()).singleElement().asString()
                .contains("put -- before it: rein run -- '-$5 off: is \"half price\" less? 半額'");

        assertThat(cli.run("run", "-it's `date`").stderrLines()).singleElement().asString()
                .contains("put -- before it: rein run -- '-it'\\''s `date`'");
        // what needs no more than double quotes keeps them
        assertThat(cli.run("run", "-5 + 3 は?").stderrLines()).singleElement().asString()
                .contains("put -- before it: rein run -- \"-5 + 3 は?\"");
    }

    @Test
    void aMissingArgumentsExampleQuotesWhatWasTypedAsTheShellNeedsIt() {
        assertThat(new InProcessCli().run("reply", "--json", "run_$1").stderrLines()).singleElement().asString()
                .startsWith("rein reply: give TEXT, the reply: the answer to the run's question, or a follow-up, e.g. rein reply"
                        + " --json 'run_$1' \"Room B, please\"");
    }
}
