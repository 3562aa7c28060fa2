package dev.rein.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A script loaded from JSON: the replies for {@code POST /v1/messages} and, optionally, for
 * {@code POST /v1/messages/count_tokens}. The format is documented on {@link FakeMessagesServer}.
 *
 * @param messages replies to {@code /v1/messages}, in order
 * @param countTokens replies to {@code /v1/messages/count_tokens}, in order
 */
public record FakeScript(List<FakeReply> messages, List<FakeReply> countTokens) {

    /** Copies both lists so that a loaded script cannot change. */
    public FakeScript {
        messages = List.copyOf(Objects.requireNonNull(messages, "messages"));
        countTokens = List.copyOf(Objects.requireNonNull(countTokens, "countTokens"));
    }

    /**
     * Parses a script.
     *
     * @param json the script text
     * @return the script
     * @throws IllegalArgumentException if the text is not a valid script; the message names the
     *     JSON path of the bad entry
     */
    public static FakeScript parse(String json) {
        return ScriptParser.parse(Objects.requireNonNull(json, "json"));
    }

    /**
     * Reads and parses a script file (UTF-8).
     *
     * @param file the script file
     * @return the script
     * @throws IOException if the file cannot be read
     * @throws IllegalArgumentException if the file is not a valid script
     */
    public static FakeScript load(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8));
    }
}
