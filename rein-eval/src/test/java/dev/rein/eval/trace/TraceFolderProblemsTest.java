package dev.rein.eval.trace;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A folder of traces that cannot be listed is refused in words, not with the file system's bare path. */
class TraceFolderProblemsTest {
    @TempDir
    Path dir;

    /** Before: "no such folder: .../traces", of a name that ls shows. */
    @Test
    void aDanglingSymbolicLinkIsSaidToBeOne() throws IOException {
        Path link = Files.createSymbolicLink(dir.resolve("traces"), dir.resolve("gone"));
        assertThatThrownBy(() -> TraceSuite.load(link, RecordedAgentFactory.standIns()))
                .isInstanceOf(ReinException.class)
                .hasMessageContaining(link + " is a symbolic link to " + dir.resolve("gone"))
                .hasMessageContaining("which does not exist")
                .hasMessageEndingWith("; give a folder of JSONL traces or a suite file");
    }

    /** Before: "no such folder: .../notes.txt/traces", though notes.txt is there: it is a file. */
    @Test
    void aFileOnTheWayIsSaidToBeOne() throws IOException {
        Path file = Files.writeString(dir.resolve("notes.txt"), "x");
        assertThatThrownBy(() -> TraceSuite.load(file.resolve("traces"), RecordedAgentFactory.standIns()))
                .isInstanceOf(ReinException.class)
                .hasMessageContaining(file + " is a file, not a directory")
                .hasMessageEndingWith("; give a folder of JSONL traces or a suite file");
    }

    /** A probe: a plain missing folder and a file keep their messages. */
    @Test
    void aMissingFolderAndAFileAreSaidSo() throws IOException {
        Path file = Files.writeString(dir.resolve("run.jsonl"), "x");
        assertThatThrownBy(() -> TraceSuite.load(dir.resolve("nope"), RecordedAgentFactory.standIns()))
                .hasMessage("no such folder: " + dir.resolve("nope") + "; give a folder of JSONL traces or a suite file");
        assertThatThrownBy(() -> TraceSuite.load(file, RecordedAgentFactory.standIns()))
                .hasMessage(file + " is not a folder; give a folder of JSONL traces or a suite file");
    }
}
