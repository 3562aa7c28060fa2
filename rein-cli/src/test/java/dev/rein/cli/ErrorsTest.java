package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.state.StoreConflictException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ErrorsTest {
    @CommandLine.Command(name = "resume")
    static final class Resume implements Runnable {
        @Override
        public void run() {}
    }

    @Test
    void aRunTakenUpByAnotherCommandAtTheSameTimeSaysSoAndWhatToDo() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CliEnvironment env = new CliEnvironment(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), Terminal.NONE, (name, e) -> null, false);
        int exit = Errors.executionHandler(env).handleExecutionException(new StoreConflictException(
                "run run_1 is at version 7 in the store, but version 7 was about to replace version 6"), new CommandLine(new Resume()), null);

        assertThat(exit).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("resume: run run_1 is at version 7 in the store, but version 7"
                + " was about to replace version 6; another rein command took this run up at the same time and carries it on,"
                + " so this one did nothing: see 'rein show' for where the run stands" + System.lineSeparator());
    }
}
