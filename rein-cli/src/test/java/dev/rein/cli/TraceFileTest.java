package dev.rein.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceFileTest {
    @TempDir
    Path dir;

    @Test
    void newFilesInNewDirectoriesAndExistingFilesAreWritable() throws IOException {
        TraceFile.checkWritable(dir.resolve("a/b/run.jsonl"));
        TraceFile.checkWritable(Files.writeString(dir.resolve("old.jsonl"), "{}\n"));
        assertThat(dir.resolve("a")).doesNotExist();
    }

    @Test
    void directoriesAndPathsBelowFilesAreRefusedWithTheReason() throws IOException {
        Path file = Files.writeString(dir.resolve("plain"), "x");
        assertThatThrownBy(() -> TraceFile.checkWritable(dir)).isInstanceOf(UsageException.class).hasMessageContaining("is a directory");
        assertThatThrownBy(() -> TraceFile.checkWritable(file.resolve("x/run.jsonl")))
                .isInstanceOf(UsageException.class).hasMessageContaining(file + " is not a directory");
    }

    /**
     * A terminal, pipe or device ({@code --trace /dev/stderr} at a terminal, {@code --trace >(jq ...)}) is refused as what
     * it is: the line said 'the file is not writable', which it is, and so pointed nowhere.
     */
    @Test
    void aDeviceOrPipeIsRefusedAsNotARegularFileNotAsUnwritable() {
        assertThatThrownBy(() -> TraceFile.checkWritable(Path.of("/dev/null"))).isInstanceOf(UsageException.class)
                .hasMessage("cannot write the trace file /dev/null: it is not a regular file but a device, pipe or terminal;"
                        + " give a file path such as run.jsonl");
    }
}
