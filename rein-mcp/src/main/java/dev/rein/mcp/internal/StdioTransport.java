package dev.rein.mcp.internal;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * The stdio transport: newline-delimited JSON-RPC over a server's stdin and stdout, UTF-8 both ways.
 *
 * <p>Rein's own rather than the SDK's because a broken server must be noticed at once: when the
 * server's stdout ends (it crashed or exited) or it writes a message that is not valid JSON-RPC,
 * {@code onBroken} is told why, so the calls waiting on it fail now instead of at their timeout,
 * and the server is restarted at the next call. Stderr lines go to the {@link StderrTail}.
 *
 * <p>A line that is not JSON-RPC at all (a banner or a log line; the transports spec forbids them
 * on stdout, but many servers print one) is skipped, as the TypeScript and Python SDKs do, rather
 * than costing the whole server: it is kept in the {@link StderrTail} for a later error message,
 * and the first is handed to {@code onSkipped} so it can be said once.
 */
final class StdioTransport implements McpClientTransport {
    /**
     * The longest message accepted, in bytes as over streamable HTTP (a line of two-byte characters
     * counted by characters passed at twice the size); a longer line breaks the connection.
     */
    private static final int MAX_MESSAGE_BYTES = ResumingHttpClient.MAX_MESSAGE_BYTES;
    /**
     * The most characters of one stderr line kept; the rest, to the line's end, is read and dropped.
     * Far more than is shown, so that a secret near the start is masked before the line is cut.
     */
    static final int STDERR_LINE_CHARS = 64 * 1024;
    /** How long a broken connection waits for the rest of the server's stderr before it is reported. */
    private static final Duration STDERR_DRAIN = Duration.ofSeconds(1);
    /** How a message that is not valid JSON-RPC is reported, before the message. */
    static final String NOT_JSON_RPC = "it sent a message that is not valid JSON-RPC: '";

    private final ServerProcess process;
    private final McpJsonMapper mapper;
    private final StderrTail stderr;
    private final Consumer<String> onBroken;
    private final Consumer<String> onSkipped;
    private final java.util.function.BiConsumer<String, String> onDropped;
    private final Object writeLock = new Object();
    /** Writes the messages to the server's input one at a time, in order (see {@link #sendMessage}). */
    private final java.util.concurrent.ExecutorService writer =
            java.util.concurrent.Executors.newSingleThreadExecutor(Thread.ofVirtual().name("rein-mcp-stdin").factory());
    private volatile boolean closing;
    private volatile Thread stderrReader;
    /** Whether the last line read ended with the output rather than a newline (read on the stdout thread only). */
    private boolean unterminated;

    /**
     * @param onBroken  told why, once, when the connection can no longer be used
     * @param onSkipped told the first line (of this server, see {@link StderrTail#addStdout}) skipped as not
     *                  JSON-RPC, masked, cut short and with its control characters escaped
     * @param onDropped told of each message dropped as not UTF-8: its kind (a notification's method, or
     *                  "request", or "message") and what was dropped and why ("sent a ... so Rein dropped it: '...'"),
     *                  masked and cut short, for a warning said once per kind
     */
    StdioTransport(ServerProcess process, McpJsonMapper mapper, StderrTail stderr, Consumer<String> onBroken,
                   Consumer<String> onSkipped, java.util.function.BiConsumer<String, String> onDropped) {
        this.process = process;
        this.mapper = mapper;
        this.stderr = stderr;
        this.onBroken = onBroken;
        this.onSkipped = onSkipped;
        this.onDropped = onDropped;
    }

    @Override
    public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        return Mono.fromRunnable(() -> {
            stderrReader = Thread.ofVirtual().name("rein-mcp-stderr").start(this::readStderr);
            Thread.ofVirtual().name("rein-mcp-stdout").start(() -> readMessages(handler));
        });
    }

    private void readMessages(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        String why = "it closed its output";
        try (InputStream in = process.stdout()) {
            while (readLine(in)) {
                Decoded decoded = decode(lineBytes, lineLength);
                String line = decoded.text();
                if (lineLength > SMALL_LINE) {
                    lineBytes = new byte[SMALL_LINE]; // a 16 MB answer's buffer is not held for the session's life
                }
                if (line.isBlank()) {
                    continue;
                }
                if (decoded.firstInvalid() >= 0) {
                    // MCP's stdio messages are UTF-8 JSON-RPC: decoded leniently, a byte that is none became U+FFFD without a
                    // word and a tool's output reached the model altered. A log line stays a log line; a message is refused
                    // alone (an answer ends its call), not with the connection and every call in flight.
                    String lenient = decoded.lenient();
                    if (!unterminated && notJsonRpc(lenient)) {
                        String first = stderr.addStdout(line);
                        if (first != null) {
                            onSkipped.accept(first);
                        }
                        continue;
                    }
                    String invalid = "not valid UTF-8, which every message of MCP's stdio transport is";
                    String where = "byte 0x" + String.format(java.util.Locale.ROOT, "%02X", decoded.invalidByte()) + " at offset "
                            + decoded.firstInvalid();
                    McpSchema.JSONRPCMessage standIn = unterminated ? null : answerStandIn(lenient, "it is " + invalid + ": " + where, line);
                    if (standIn != null) {
                        // An answer: its request ends now saying so, and the server, which answered, is kept.
                        handler.apply(Mono.just(standIn)).subscribe(ignored -> {}, error -> {});
                        continue;
                    }
                    if (!unterminated && notUtf8(lenient, decoded, invalid, where, line, handler)) {
                        continue; // a notification dropped, a request answered Parse error: one message, not the connection
                    }
                    why = unterminated ? "it closed its output in the middle of a message: '" + abbreviateLine(stderr.mask(line)) + "'"
                            : "it sent a message that is " + invalid + " (" + where + "): '" + abbreviateLine(stderr.mask(line)) + "'";
                    break;
                }
                List<McpSchema.JSONRPCMessage> messages;
                try {
                    messages = messages(line);
                } catch (IOException | RuntimeException e) {
                    if (!unterminated && notJsonRpc(line)) {
                        String first = stderr.addStdout(line);
                        if (first != null) {
                            onSkipped.accept(first);
                        }
                        continue;
                    }
                    String idless = idlessError(line);
                    // Cut off by the end of the output, it is part of a message (a server killed while writing), not a log line.
                    why = unterminated ? "it closed its output in the middle of a message: '" + abbreviateLine(stderr.mask(line)) + "'"
                            : idless != null ? "it sent " + abbreviate(stderr.mask(idless)) + " without a request id (its answer to a"
                            + " request it could not read)"
                            : NOT_JSON_RPC + abbreviateLine(stderr.mask(line)) + "' (neither a request, a notification nor an answer)";
                    break;
                }
                for (McpSchema.JSONRPCMessage message : messages) {
                    handler.apply(Mono.just(message)).subscribe(ignored -> {}, error -> {});
                }
            }
        } catch (IOException e) {
            why = e.getMessage() != null && e.getMessage().startsWith("message longer")
                    ? e.getMessage() : "its output could not be read (" + e.getMessage() + ")";
        }
        if (!closing) {
            awaitStderr();
            onBroken.accept(why);
        }
    }

    /**
     * The message on one line, or the messages of a JSON-RPC batch: protocol revision 2025-03-26,
     * which a server may still negotiate, says a receiver must accept batches.
     */
    private List<McpSchema.JSONRPCMessage> messages(String line) throws IOException {
        if (!line.stripLeading().startsWith("[")) {
            return List.of(message(line));
        }
        List<Object> batch = mapper.readValue(line, new TypeRef<List<Object>>() {});
        if (batch.isEmpty()) {
            throw new IOException("an empty batch"); // JSON-RPC: an empty array is not a valid batch
        }
        List<McpSchema.JSONRPCMessage> messages = new ArrayList<>(batch.size());
        for (Object element : batch) {
            messages.add(message(mapper.writeValueAsString(element)));
        }
        return messages;
    }

    /**
     * The message {@code text}; for a malformed answer carrying a request's id (see
     * {@link MalformedAnswer}), the error standing for it, so its request ends now rather than at
     * its timeout (the SDK refuses it, and a line that is no JSON-RPC message is skipped).
     */
    private McpSchema.JSONRPCMessage message(String text) throws IOException {
        // Only what may be one is read twice: a request names its method, a well-formed answer its result.
        if (text.contains("\"error\"") || !text.contains("\"result\"") && !text.contains("\"method\"")) {
            McpSchema.JSONRPCMessage standIn;
            try {
                // Built, not read by the SDK from text, which it would log whole at DEBUG (MalformedAnswer.response).
                standIn = MalformedAnswer.response(dev.rein.json.Json.mapper().readTree(text), text);
            } catch (IOException | RuntimeException e) {
                standIn = null; // not JSON: the SDK's refusal below says so
            }
            if (standIn != null) {
                return standIn;
            }
        }
        return McpSchema.deserializeJsonRpcMessage(mapper, text);
    }

    /**
     * Whether {@code line} is no JSON-RPC message at all: not JSON, or JSON with none of the
     * members of one (a logging library's JSON line: no {@code "jsonrpc"}, {@code "method"},
     * {@code "result"} or {@code "error"} with a code). A batch, an
     * object that claims to be JSON-RPC but cannot be read, or a broken line naming "jsonrpc" (a
     * message cut short, two writes crossing) is a protocol error, not a log line: an answer may be
     * lost in it, so the calls waiting must end now, not at their timeout.
     */
    private static boolean notJsonRpc(String line) {
        com.fasterxml.jackson.databind.JsonNode node;
        try {
            node = dev.rein.json.Json.mapper().readTree(line);
        } catch (IOException | RuntimeException e) {
            return !line.contains("\"jsonrpc\"");
        }
        return node == null || notJsonRpc(node);
    }

    /**
     * Whether {@code node} is JSON with none of the members of a JSON-RPC message (no {@code "jsonrpc"},
     * {@code "method"}, {@code "result"} or {@code "error"} with a code), as {@code {}} is; a batch is
     * not one of them.
     */
    static boolean notJsonRpc(com.fasterxml.jackson.databind.JsonNode node) {
        // A message with "jsonrpc" left out (a sloppy server's answer or error) is still taken for one, not skipped.
        return !node.isArray() && !(node.isObject() && (node.has("jsonrpc") || node.has("method")
                || node.has("result") || node.path("error").has("code")));
    }

    /**
     * "JSON-RPC error CODE: MESSAGE" when {@code line} is a JSON-RPC error whose id is null or
     * missing, which JSON-RPC answers a request the server could not read with (and the SDK
     * refuses as no message); else null.
     */
    private static String idlessError(String line) {
        try {
            com.fasterxml.jackson.databind.JsonNode message = dev.rein.json.Json.mapper().readTree(line);
            com.fasterxml.jackson.databind.JsonNode error = message == null ? null : message.path("error");
            if (error == null || !error.path("message").isTextual() || message.has("method")
                    || !(message.path("id").isNull() || message.path("id").isMissingNode())) {
                return null;
            }
            return "JSON-RPC error " + error.path("code").asText("?") + ": " + error.path("message").asText();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The size {@link #lineBytes} starts at, and is brought back to after a longer line. */
    private static final int SMALL_LINE = 8192;
    /** The bytes of the last line read, without its carriage returns and newline (read on the stdout thread only). */
    private byte[] lineBytes = new byte[SMALL_LINE];
    private int lineLength;
    private final byte[] buffer = new byte[SMALL_LINE];
    private int position;
    private int limit;

    /**
     * Reads the next line's bytes into {@link #lineBytes}; false at the end of the output. Bytes, not
     * characters: the limit counts bytes, and a byte that is no UTF-8 must be seen, not replaced.
     */
    private boolean readLine(InputStream in) throws IOException {
        lineLength = 0;
        while (true) {
            if (position == limit) {
                limit = in.read(buffer, 0, buffer.length);
                position = 0;
                if (limit <= 0) {
                    limit = 0;
                    unterminated = lineLength > 0;
                    return lineLength > 0;
                }
            }
            byte b = buffer[position++];
            if (b == '\n') {
                return true;
            }
            if (b == '\r') {
                continue; // never part of a UTF-8 sequence, and JSON has none outside strings but as whitespace
            }
            if (lineLength == MAX_MESSAGE_BYTES) {
                throw new IOException("message longer than " + MAX_MESSAGE_BYTES + " bytes");
            }
            if (lineLength == lineBytes.length) {
                lineBytes = java.util.Arrays.copyOf(lineBytes, (int) Math.min(MAX_MESSAGE_BYTES, 2L * lineBytes.length));
            }
            lineBytes[lineLength++] = b;
        }
    }

    /**
     * A line's text: {@code text} with each byte that is no UTF-8 as one stand-in character ({@link Quoted#forByte},
     * shown {@code \xff} by {@link Quoted}), {@code firstInvalid} the offset of the first such byte (-1 when none) and
     * {@code invalidByte} it.
     */
    record Decoded(String text, int firstInvalid, int invalidByte, byte[] bytes, int length) {
        /** The text with each byte that is no UTF-8 replaced by U+FFFD, to be read as JSON (an escape is no JSON). */
        String lenient() {
            return new String(bytes, 0, length, StandardCharsets.UTF_8);
        }
    }

    /**
     * The first {@code length} bytes of {@code bytes} as UTF-8 text, each byte that is none one stand-in character. One
     * character, not its escape: written as its four characters, a byte counted four in a cut (70 bytes, 60 of them bad,
     * were "first 200 of 250") and its escape could be cut in two; {@link Quoted} escapes it after the cut.
     */
    static Decoded decode(byte[] bytes, int length) {
        java.nio.charset.CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
        java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(bytes, 0, length);
        java.nio.CharBuffer out = java.nio.CharBuffer.allocate(length); // UTF-8 never has more characters than bytes
        StringBuilder escaped = null; // only for a line that is not UTF-8
        int first = -1;
        int firstByte = 0;
        while (true) {
            java.nio.charset.CoderResult result = decoder.decode(in, out, true);
            if (!result.isError()) {
                decoder.flush(out);
                break;
            }
            if (first < 0) {
                first = in.position();
                firstByte = in.get(in.position()) & 0xFF;
                escaped = new StringBuilder(length + 16);
            }
            escaped.append(out.flip());
            out.clear();
            for (int i = 0; i < result.length(); i++) {
                escaped.append(Quoted.forByte(in.get()));
            }
        }
        out.flip();
        return escaped == null ? new Decoded(out.toString(), -1, 0, bytes, length)
                : new Decoded(escaped.append(out).toString(), first, firstByte, bytes, length);
    }

    /**
     * The error standing for {@code lenient} when it is an answer to a request (an id, a result or an
     * error, no method) that cannot be used as it came ({@code why}; {@code quoted} as it is shown),
     * so that request ends now; null when it is no such answer.
     */
    private McpSchema.JSONRPCMessage answerStandIn(String lenient, String why, String quoted) {
        try {
            com.fasterxml.jackson.databind.JsonNode node = dev.rein.json.Json.mapper().readTree(lenient);
            if (node == null || !node.isObject() || node.has("method") || !(node.has("result") || node.has("error"))
                    || !readableId(node.path("id"))) {
                return null;
            }
            return MalformedAnswer.response(node.get("id"), why, quoted); // built: the SDK logs a text it reads whole
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Whether {@code id} is a request id Rein can echo: a string or an integer, and, in a message that
     * is not valid UTF-8 (decoded with U+FFFD for each bad byte), a string without U+FFFD, which would
     * be an id the server never sent.
     */
    private static boolean readableId(com.fasterxml.jackson.databind.JsonNode id) {
        return id.isIntegralNumber() || id.isTextual() && id.asText().indexOf('\uFFFD') < 0;
    }

    /**
     * Deals with a message (or batch) that is not valid UTF-8 ({@code lenient}: decoded with U+FFFD),
     * one element at a time: an answer ends its request saying so; a server's request is answered
     * {@code -32700} (JSON-RPC's Parse error; with a null id when its id cannot be read); a notification is
     * dropped. The spec requires UTF-8, but one bad byte in a log notification must not cost every
     * call in flight and the answers behind it. False when {@code lenient} is no JSON object or batch,
     * or holds an answer whose id cannot be read: the connection ends, as for such an answer in UTF-8.
     */
    private boolean notUtf8(String lenient, Decoded decoded, String invalid, String lineWhere, String line,
                            Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
        com.fasterxml.jackson.databind.JsonNode node;
        try {
            node = dev.rein.json.Json.mapper().readTree(lenient);
        } catch (IOException | RuntimeException e) {
            return false;
        }
        if (node == null || !(node.isObject() || node.isArray() && !node.isEmpty())) {
            return false;
        }
        List<com.fasterxml.jackson.databind.JsonNode> elements = new ArrayList<>();
        (node.isArray() ? node : List.of(node)).forEach(elements::add);
        // Each message of a batch is judged by its own bytes: one bad byte in a log notification must not cost the
        // answer beside it. Null for each message that is valid UTF-8; else where its first bad byte is.
        String[] where = new String[elements.size()];
        Decoded[] intact = new Decoded[elements.size()];
        List<int[]> ranges = node.isArray() ? elementRanges(decoded.bytes(), decoded.length()) : null;
        for (int i = 0; i < where.length; i++) {
            where[i] = lineWhere;
            if (ranges != null && ranges.size() == where.length) {
                int[] range = ranges.get(i);
                Decoded part = decode(java.util.Arrays.copyOfRange(decoded.bytes(), range[0], range[1]), range[1] - range[0]);
                if (part.firstInvalid() < 0) {
                    where[i] = null;
                    intact[i] = part;
                } else {
                    where[i] = "byte 0x" + String.format(java.util.Locale.ROOT, "%02X", part.invalidByte()) + " at offset "
                            + (range[0] + part.firstInvalid());
                }
            }
        }
        for (int i = 0; i < where.length; i++) {
            com.fasterxml.jackson.databind.JsonNode element = elements.get(i);
            if (where[i] != null && !element.has("method") && (element.has("result") || element.has("error"))
                    && !readableId(element.path("id"))) {
                // An answer whose request is not known (no id, or one the bad byte is in): a stand-in would match no call and
                // its call would wait its whole timeout; the connection ends instead, so every call in flight ends now saying why.
                return false;
            }
        }
        String quoted = "'" + abbreviateLine(stderr.mask(line)) + "'";
        for (int i = 0; i < where.length; i++) {
            if (intact[i] != null) {
                try {
                    handler.apply(Mono.just(message(intact[i].text()))).subscribe(ignored -> {}, error -> {});
                } catch (IOException | RuntimeException e) {
                    onDropped.accept("message", "sent a batch with a message that is " + invalid + " and one that is no JSON-RPC"
                            + " message Rein can read, so Rein dropped it: " + quoted);
                }
                continue;
            }
            com.fasterxml.jackson.databind.JsonNode element = elements.get(i);
            String spot = where[i]; // where this message's first bad byte is
            com.fasterxml.jackson.databind.JsonNode id = element.path("id");
            boolean readableId = readableId(id);
            String method = element.path("method").isTextual() ? stderr.mask(element.path("method").asText()) : null;
            try {
                if (method == null && readableId && (element.has("result") || element.has("error"))) {
                    McpSchema.JSONRPCMessage standIn = MalformedAnswer.response(id, "it is " + invalid + ": " + spot, line);
                    handler.apply(Mono.just(standIn)).subscribe(ignored -> {}, error -> {});
                } else if (method != null && element.has("id")) {
                    // JSON-RPC 2.0 (5. Response object): the id of an answer to a request whose id could not be detected
                    // (a Parse error) MUST be null; echoed with U+FFFD in it, it would be an id the server never sent.
                    com.fasterxml.jackson.databind.node.ObjectNode error = dev.rein.json.Json.object().put("jsonrpc", "2.0");
                    if (readableId) {
                        error.set("id", id);
                    } else {
                        error.putNull("id");
                    }
                    error.putObject("error").put("code", -32700).put("message", "Parse error: the request is " + invalid + " (" + spot + ")");
                    // Written as it is: the SDK's message type leaves out a null id, which JSON-RPC requires present.
                    writeLine(dev.rein.json.Json.write(error)).subscribe(ignored -> {}, e -> {});
                    if (!readableId) {
                        onDropped.accept("request", "sent a " + abbreviate(method) + " request that is " + invalid + " (" + spot
                                + ") and whose id Rein cannot read, so Rein answered it Parse error with a null id, as JSON-RPC says: "
                                + quoted);
                    }
                } else if (method != null) {
                    onDropped.accept(abbreviate(method), "sent a " + abbreviate(method) + " notification that is " + invalid + " ("
                            + spot + "), so Rein dropped it: " + quoted);
                } else {
                    onDropped.accept("message", "sent a message that is " + invalid + " (" + spot + "), and is neither a request,"
                            + " a notification nor an answer Rein can read, so Rein dropped it: " + quoted);
                }
            } catch (RuntimeException e) {
                onDropped.accept("message", "sent a message that is " + invalid + " (" + spot + "), which Rein could not read"
                        + " either way, so Rein dropped it: " + quoted);
            }
        }
        return true;
    }

    /**
     * The byte ranges (start inclusive, end exclusive) of the messages of the JSON-RPC batch in the
     * first {@code length} bytes of {@code bytes}; null when they are no array. JSON's structural
     * characters are ASCII, which no byte of a multi-byte UTF-8 sequence (nor a stray byte that is
     * none) can be taken for, so the bytes are split before they are decoded.
     */
    static List<int[]> elementRanges(byte[] bytes, int length) {
        int i = 0;
        while (i < length && whitespace(bytes[i])) {
            i++;
        }
        if (i == length || bytes[i] != '[') {
            return null;
        }
        List<int[]> ranges = new ArrayList<>();
        int depth = 0;
        int start = -1;
        int end = -1;
        boolean inString = false;
        boolean escaped = false;
        for (i++; i < length; i++) {
            byte b = bytes[i];
            if (inString) {
                end = i + 1;
                if (escaped) {
                    escaped = false;
                } else if (b == '\\') {
                    escaped = true;
                } else if (b == '"') {
                    inString = false;
                }
                continue;
            }
            if (whitespace(b)) {
                continue;
            }
            if (depth == 0 && (b == ',' || b == ']')) {
                if (start >= 0) {
                    ranges.add(new int[] {start, end});
                }
                start = -1;
                if (b == ']') {
                    return ranges;
                }
                continue;
            }
            if (start < 0) {
                start = i;
            }
            end = i + 1;
            if (b == '"') {
                inString = true;
            } else if (b == '{' || b == '[') {
                depth++;
            } else if (b == '}' || b == ']') {
                depth--;
            }
        }
        return null; // not closed
    }

    private static boolean whitespace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

    /**
     * A crashing server's last words usually come on stderr, which is read on another thread: let
     * that reader reach the end (bounded, since a child process may keep stderr open) so the error
     * message carries them.
     */
    private void awaitStderr() {
        Thread reader = stderrReader;
        if (reader == null) {
            return;
        }
        try {
            reader.join(STDERR_DRAIN);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void readStderr() {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.stderr(), StandardCharsets.UTF_8))) {
            StderrLines lines = new StderrLines(reader, STDERR_LINE_CHARS);
            String line;
            while ((line = lines.next()) != null) {
                stderr.add(line, lines.dropped());
            }
        } catch (IOException e) {
            // the server is gone; its stdout reader reports that
        }
    }

    /**
     * The lines of a server's stderr, each ended as {@link BufferedReader#readLine} ends one (a
     * newline, a carriage return or both), but only its first {@code max} characters held: a line
     * without end (a progress bar, a dump) must not take the JVM's memory, which only 300 characters
     * of it are shown from.
     */
    static final class StderrLines {
        private final java.io.Reader reader;
        private final int max;
        private final char[] buffer = new char[8192];
        private int position;
        private int limit;
        /** Whether the last line ended with a carriage return, so that a newline right after it ends no other line. */
        private boolean skipNewline;
        /** See {@link #dropped()}. */
        private long dropped;

        StderrLines(java.io.Reader reader, int max) {
            this.reader = reader;
            this.max = max;
        }

        /** How many characters (code points) of the line {@link #next} returned last were read past {@code max}, not kept. */
        long dropped() {
            return dropped;
        }

        /** The next line, cut to its first {@code max} characters; null at the end of the stream. */
        String next() throws IOException {
            StringBuilder line = null;
            dropped = 0;
            while (true) {
                if (position == limit) {
                    limit = reader.read(buffer, 0, buffer.length);
                    position = 0;
                    if (limit <= 0) {
                        limit = 0;
                        return line == null ? null : line.toString();
                    }
                }
                if (skipNewline) {
                    skipNewline = false;
                    if (buffer[position] == '\n') {
                        position++;
                        continue;
                    }
                }
                if (line == null) {
                    line = new StringBuilder();
                }
                int start = position;
                while (position < limit && buffer[position] != '\n' && buffer[position] != '\r') {
                    position++;
                }
                int kept = Math.min(max - line.length(), position - start);
                line.append(buffer, start, kept); // beyond max: read, not kept, only counted
                for (int i = start + kept; i < position; i++) {
                    if (!Character.isLowSurrogate(buffer[i])) {
                        dropped++;
                    }
                }
                if (position < limit) {
                    skipNewline = buffer[position] == '\r';
                    position++;
                    if (line.length() == max && max > 0 && Character.isHighSurrogate(line.charAt(max - 1))) {
                        line.setLength(max - 1); // half of a pair cut at the limit is no character
                        dropped++; // the pair, whose second half was not counted
                    }
                    return line.toString();
                }
            }
        }
    }

    /**
     * Writes {@code message} on the transport's own writer thread, in the order sent. A server that
     * stops reading its input (its one thread busy in a tool) lets a long message fill the pipe, and
     * the write then waits until the server reads again: on the caller's thread that held a call
     * past its timeout, and every later call and the close behind it.
     */
    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
        return Mono.fromCallable(() -> mapper.writeValueAsString(message)).flatMap(this::writeLine);
    }

    /** Writes {@code json} (one JSON-RPC message, serialised) to the server's input as one line. */
    private Mono<Void> writeLine(String json) {
        return Mono.fromFuture(() -> java.util.concurrent.CompletableFuture.runAsync(() -> {
            try {
                // A JSON-RPC message on stdio is one line: the serialised form has no raw newline.
                byte[] bytes = (json + "\n").getBytes(StandardCharsets.UTF_8);
                synchronized (writeLock) {
                    OutputStream in = process.stdin();
                    in.write(bytes);
                    in.flush();
                }
            } catch (IOException e) {
                throw new IllegalStateException("the server's input is closed (" + e.getMessage() + ")", e);
            }
        }, writer));
    }

    @Override
    public Mono<Void> closeGracefully() {
        return Mono.fromRunnable(this::closeNow);
    }

    /** Ends the server process; idempotent. */
    void closeNow() {
        closing = true;
        writer.shutdown(); // a write waiting on a server that stopped reading ends when the process does
        process.destroy();
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
        return mapper.convertValue(data, typeRef);
    }

    /**
     * {@code text} on one line (each run of whitespace one space), cut to its first 200 characters saying how many of the
     * characters the server sent they stand for and how many it sent, its control characters escaped: for quoting what a
     * server sent ({@link Quoted}).
     */
    static String abbreviate(String text) {
        return abbreviate(text, 200);
    }

    /**
     * As {@link #abbreviate(String)}, for a line of the server's stdout as {@link #decode} read it, each byte that was no
     * UTF-8 shown {@code \xe9} ({@link Quoted#ofLine}).
     */
    static String abbreviateLine(String text) {
        return abbreviate(text, 200, true);
    }

    /** As {@link #abbreviate(String)}, cut to its first {@code max} characters. */
    static String abbreviate(String text, int max) {
        return abbreviate(text, max, false);
    }

    private static String abbreviate(String text, int max, boolean line) {
        // Its control characters escaped (\x1b): what a server sent is quoted in error results and exceptions a caller prints
        // or logs as they are, where an escape sequence of its stdout (as of its stderr, in StderrTail) must not arrive raw.
        // Cut between whole characters (half of an emoji's surrogate pair is not text, and JSON writers refuse it), indeed
        // between grapheme clusters (half a flag is another picture), and
        // saying so with how long it was: a bare "…" left a person unsure whether anything was missing.
        int start = 0; // whitespace at either end is left out, as strip() leaves it
        while (start < text.length() && Character.isWhitespace(text.codePointAt(start))) {
            start += Character.charCount(text.codePointAt(start));
        }
        int end = text.length();
        while (end > start && Character.isWhitespace(text.codePointBefore(end))) {
            end -= Character.charCount(text.codePointBefore(end));
        }
        // One walk folds each run of whitespace into one space and keeps where it is in what the server sent, so a cut
        // counts the characters sent (723 characters of pretty JSON were said to be 483, and the 200 shown, which stand for
        // more of what it sent, to be its first 200). It stops at the cut: a 16 MB line is not folded whole for 200.
        StringBuilder folded = new StringBuilder(Math.min(end - start, 2 * max + 2));
        int i = fold(text, start, end, max, folded);
        if (i < end) {
            // Cut between grapheme clusters (Quoted.clusterCut): the character after the cut tells whether one is split, and
            // as many more as are kept whether the cluster split is longer than the cut (then cut inside, not left out).
            int after = i;
            for (int n = 0; n <= max && after < end; n++) {
                after += Character.charCount(text.codePointAt(after));
            }
            int kept = Quoted.clusterCut(folded + text.substring(i, after), folded.length());
            if (kept < folded.length()) {
                int shown = folded.codePointCount(0, kept);
                folded.setLength(0);
                i = fold(text, start, end, shown, folded);
            }
        }
        return i == end ? (line ? Quoted.ofLine(folded.toString(), max) : Quoted.of(folded.toString(), max))
                : Quoted.cut(folded.toString(), text.codePointCount(0, i), text.codePointCount(0, text.length()), line);
    }

    /**
     * Appends to {@code folded} the first {@code max} characters of {@code text} from {@code start} to {@code end}, each
     * run of whitespace one space; returns where in {@code text} they end.
     */
    private static int fold(String text, int start, int end, int max, StringBuilder folded) {
        int i = start;
        for (int shown = 0; i < end && shown < max; shown++) {
            if (isSpace(text.charAt(i))) {
                while (i < end && isSpace(text.charAt(i))) {
                    i++;
                }
                folded.append(' ');
            } else {
                int c = text.codePointAt(i); // whole, never half of a pair
                folded.appendCodePoint(c);
                i += Character.charCount(c);
            }
        }
        return i;
    }

    /**
     * A character of the regex class {@code \s} (space, tab, line feed, vertical tab, form feed, carriage return), whose
     * runs abbreviate folds into one space; other whitespace (U+2003) is kept inside a text and left out at its ends.
     */
    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }
}
