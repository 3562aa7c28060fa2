package dev.rein.cli;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.delayed;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.testkit.ScriptedModel;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code rein run --json-stream | head -3}: once the reader of stdout has gone away, the run is
 * cancelled, as the stream's consumer stopping cancels a library's streamed run (and as SIGPIPE
 * ends any other Unix tool), where it went on calling the model and running tools to its end.
 */
class JsonStreamReaderGoneTest {
    /** A pipe whose reader leaves after {@code lines} lines: later writes fail as the JDK reports EPIPE. */
    private static final class HeadPipe extends OutputStream {
        private final ByteArrayOutputStream taken = new ByteArrayOutputStream();
        private int lines;

        HeadPipe(int lines) {
            this.lines = lines;
        }

        @Override
        public void write(int b) throws IOException {
            if (lines <= 0) {
                throw new IOException("Broken pipe");
            }
            taken.write(b);
            if (b == '\n') {
                lines--;
            }
        }
    }

    @Test
    void aReaderThatWentAwayCancelsTheStreamedRun() throws IOException {
        List<ScriptedModel.Turn> turns = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            turns.add(delayed(Duration.ofMillis(150), toolCalls(call("calculate", "{\"expression\":\"" + i + " + 1\"}"))));
        }
        turns.add(text("done"));
        ScriptedModel model = ScriptedModel.of(turns);
        HeadPipe pipe = new HeadPipe(3);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String home = Files.createTempDirectory("rein-head-").toString();
        CliEnvironment env = new CliEnvironment(new PrintStream(pipe, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), Map.of("REIN_HOME", home), Terminal.NONE,
                (name, e) -> model, false);

        int code = Rein.execute(new String[] {"run", "--json-stream", "--tools", "calculate", "add up eight sums"}, env);

        String stderr = err.toString(StandardCharsets.UTF_8);
        assertThat(code).as(stderr).isEqualTo(ExitCodes.CANCELLED);
        assertThat(model.requests().size()).as("model calls after the reader left").isLessThan(4);
        assertThat(stderr).contains("standard output was closed by its reader").contains("cancelled");
    }
}
