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
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new UsageException("--output-schema: no such file: " + file);
        } catch (CharacterCodingException e) {
            throw new UsageException("--output-schema: " + file + " is not UTF-8 text");
        } catch (IOException e) {
            throw new UsageException("--output-schema: cannot read " + file + ": " + e.getMessage());
        }
        try {
            OutputSchema.fromJson(file.getFileName().toString(), text);
        } catch (ReinException e) {
            throw new UsageException("--output-schema: " + e.getMessage() + "; give a JSON Schema (draft 2020-12) object");
        }
        return text;
    }
}
