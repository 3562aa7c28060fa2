package dev.rein.examples;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;

class ExampleSetupExceptionTest {
    private static final String TMP = System.getProperty("java.io.tmpdir");

    @Test
    void aTemporaryFolderThatCannotBeMadeSaysWhereWhyAndHowToChooseAnother() {
        // Files.createTempDirectory under a java.io.tmpdir that does not exist: the JDK's message is the new path alone.
        ExampleSetupException missing = ExampleSetupException.noTemporaryDirectory("the workspace",
                new NoSuchFileException(TMP + "/rein-code-123"));
        assertThat(missing).hasMessage("cannot create a temporary directory for the workspace in " + TMP
                + " (java.io.tmpdir): that folder does not exist; give a writable folder with -Djava.io.tmpdir=DIR"
                + " (for ./rein: REIN_JAVA_OPTS=-Djava.io.tmpdir=DIR)")
                .hasCauseInstanceOf(NoSuchFileException.class);

        assertThat(ExampleSetupException.noTemporaryDirectory("the sales database",
                new AccessDeniedException(TMP + "/rein-sales-1")).getMessage())
                .startsWith("cannot create a temporary directory for the sales database in " + TMP
                        + " (java.io.tmpdir): this user may not write in that folder; give a writable folder with");
    }
}
