package dev.rein.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** The command line of {@link FakeMessagesServer#main}: options, script loading, record file. */
final class StandaloneMain {

    static final String USAGE =
            "usage: FakeMessagesServer [--port N] [--no-validate] [--record FILE] [--url-file FILE] SCRIPT.json";

    /** Parsed command line. */
    record Options(int port, boolean validate, Path record, Path urlFile, Path script) {}

    private StandaloneMain() {}

    static void main(String[] args) throws Exception {
        FakeMessagesServer server;
        try {
            server = start(args, System.out);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(USAGE);
            System.exit(2);
            return;
        } catch (UncheckedIOException e) {
            // The port is taken or cannot be bound: one line, as for a bad command line, not a stack trace.
            System.err.println(e.getMessage() + ": " + reason(e.getCause()));
            System.exit(2);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(server::close, "fake-messages-server-shutdown"));
        // Serve until the process is killed; the HTTP server's own threads do the work.
        Thread.currentThread().join();
    }

    /**
     * Starts the server the command line describes and prints its base URL as the first line of
     * {@code out}.
     *
     * @throws IllegalArgumentException for a bad command line, a script that cannot be read or parsed, or a
     *     record or URL file that cannot be written (the server is closed again)
     * @throws UncheckedIOException if the server cannot bind its port
     */
    static FakeMessagesServer start(String[] args, PrintStream out) throws IOException {
        Options options = parse(args);
        FakeScript script;
        try {
            script = FakeScript.load(options.script());
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the script " + options.script() + ": " + reason(e), e);
        }
        FakeMessagesServer server = FakeMessagesServer.start(options.port());
        server.validateRequests(options.validate()).enqueue(script);
        // A file that cannot be written ends the server too: left running, it would serve unrecorded or
        // keep a script that polls for the URL file waiting forever.
        Path writing = options.record();
        String what = "the record file ";
        try {
            if (options.record() != null) {
                Path record = options.record();
                Files.writeString(record, "", StandardCharsets.UTF_8);
                server.addListener(request -> append(record, request));
            }
            if (options.urlFile() != null) {
                writing = options.urlFile();
                what = "the URL file ";
                // Written then moved, so a shell polling for the file never reads half a URL.
                Path temp = options.urlFile().resolveSibling(options.urlFile().getFileName() + ".tmp");
                Files.writeString(temp, server.baseUrl() + "\n", StandardCharsets.UTF_8);
                Files.move(temp, options.urlFile(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            }
        } catch (IOException e) {
            server.close();
            String why = e instanceof java.nio.file.NoSuchFileException ? "its folder does not exist" : reason(e);
            throw new IllegalArgumentException("cannot write " + what + writing + ": " + why, e);
        }
        out.println(server.baseUrl());
        out.flush();
        return server;
    }

    static Options parse(String[] args) {
        int port = 0;
        boolean validate = true;
        Path record = null;
        Path urlFile = null;
        Path script = null;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--port" -> port = parsePort(value(args, ++i, arg));
                case "--no-validate" -> validate = false;
                case "--record" -> record = Path.of(value(args, ++i, arg));
                case "--url-file" -> urlFile = Path.of(value(args, ++i, arg));
                default -> {
                    if (arg.startsWith("--") || script != null) {
                        throw new IllegalArgumentException("unexpected argument: " + arg);
                    }
                    script = Path.of(arg);
                }
            }
        }
        if (script == null) {
            throw new IllegalArgumentException("missing SCRIPT.json");
        }
        return new Options(port, validate, record, urlFile, script);
    }

    /** What went wrong, in words: a missing file's exception carries only its path. */
    static String reason(Throwable e) {
        return switch (e) {
            case java.nio.file.NoSuchFileException missing -> "no such file";
            case java.nio.file.AccessDeniedException denied -> "permission denied";
            case java.nio.charset.CharacterCodingException notUtf8 -> "it is not UTF-8 text";
            case null -> "unknown reason";
            default -> e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        };
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
    }

    private static int parsePort(String value) {
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

    /** Appends one JSON line; synchronized because requests are handled concurrently. */
    private static synchronized void append(Path record, RecordedRequest request) {
        try {
            String line = Json.MAPPER.writeValueAsString(request.toJson()) + "\n";
            Files.writeString(record, line, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + record, e);
        }
    }
}
