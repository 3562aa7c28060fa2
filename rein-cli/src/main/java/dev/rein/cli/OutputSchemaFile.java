package dev.rein.cli;

import dev.rein.ReinException;
import dev.rein.model.OutputSchema;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Reads {@code --output-schema FILE}: UTF-8 JSON that must be a valid JSON Schema. */
final class OutputSchemaFile {
    private OutputSchemaFile() {}

    /** The schema's text, checked; a missing, unreadable or invalid file is a usage error naming it. */
    static String read(Path file) {
        if (Files.isDirectory(file)) {
            throw new UsageException("--output-schema: " + file + " is a folder, not a file; give a JSON Schema (draft"
                    + " 2020-12) file, e.g. verdict.schema.json");
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new UsageException("--output-schema: no such file: " + file + "; give the path of a JSON Schema (draft 2020-12)"
                    + " file, e.g. verdict.schema.json");
        } catch (CharacterCodingException e) {
            throw new UsageException("--output-schema: " + file + " is not UTF-8 text; save it as UTF-8");
        } catch (IOException e) {
            // the reason in words (permission denied, a file on the way), not the JDK's path-then-reason
            throw new UsageException("--output-schema: cannot read " + file + ": " + dev.rein.internal.text.FileProblems.why(e));
        }
        try {
            OutputSchema.fromJson(file.getFileName().toString(), text);
        } catch (ReinException e) {
            throw new UsageException("--output-schema: " + e.getMessage() + "; give a JSON Schema (draft 2020-12) object");
        }
        return text;
    }
}
