package dev.rein.testkit.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.rein.testkit.RecordedRequest;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** The command line of {@link FakeChatCompletionsServer#main}. */
final class ChatStandaloneMain {
    static final String USAGE = "usage: FakeChatCompletionsServer [--port N] [--no-validate] [--no-usage] [--api-key KEY]"
            + " [--record FILE] [--url-file FILE] SCRIPT.json";

    private ChatStandaloneMain() {}

    static void main(String[] args) throws Exception {
        FakeChatCompletionsServer server;
        try {
            server = start(args, System.out);
        } catch (IllegalArgumentException | UncheckedIOException e) {
            System.err.println(e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "fake-chat-server-shutdown"));
        Thread.currentThread().join();
    }

    /** Starts the server the command line describes and prints its base URL as the first line of {@code out}. */
    static FakeChatCompletionsServer start(String[] args, PrintStream out) throws IOException {
        int port = 0;
        boolean validate = true;
        boolean usage = true;
        String apiKey = null;
        Path record = null;
        Path urlFile = null;
        Path scriptFile = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = port(value(args, ++i, "--port"));
                case "--no-validate" -> validate = false;
                case "--no-usage" -> usage = false;
                case "--api-key" -> apiKey = value(args, ++i, "--api-key");
                case "--record" -> record = Path.of(value(args, ++i, "--record"));
                case "--url-file" -> urlFile = Path.of(value(args, ++i, "--url-file"));
                default -> {
                    if (args[i].startsWith("--") || scriptFile != null) {
                        throw new IllegalArgumentException("unexpected argument: " + args[i]);
                    }
                    scriptFile = Path.of(args[i]);
                }
            }
        }
        if (scriptFile == null) {
            throw new IllegalArgumentException("missing SCRIPT.json");
        }
        ChatScript script = ChatScript.load(scriptFile);
        FakeChatCompletionsServer server = FakeChatCompletionsServer.start(port);
        server.validateRequests(validate).reportUsage(usage).requireApiKey(apiKey).enqueue(script);
        String option = "--record";
        Path writing = record;
        try {
            if (record != null) {
                Path file = record;
                Files.writeString(file, "", StandardCharsets.UTF_8);
                server.addListener(request -> append(file, request));
            }
            option = "--url-file";
            writing = urlFile;
            if (urlFile != null) {
                // Written then moved, so a shell polling for the file never reads half a URL.
                Path temp = urlFile.resolveSibling(urlFile.getFileName() + ".tmp");
                Files.writeString(temp, server.baseUrl() + "\n", StandardCharsets.UTF_8);
                Files.move(temp, urlFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException e) {
            // A command-line error for main(); the server is closed, or its threads keep the process alive.
            server.close();
            throw new UncheckedIOException("cannot write the " + option + " file " + writing + " ("
                    + e.getClass().getSimpleName() + ")", e);
        }
        out.println(server.baseUrl());
        out.flush();
        return server;
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
    }

    private static int port(String value) {
        try {
            int port = Integer.parseInt(value);
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("--port must be 0..65535: " + value);
            }
            return port;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--port must be a number: " + value, e);
        }
    }

    private static synchronized void append(Path record, RecordedRequest request) {
        try {
            String line = ChatEncoder.MAPPER.writeValueAsString(request.toJson()) + "\n";
            Files.writeString(record, line, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + record, e);
        }
    }
}
