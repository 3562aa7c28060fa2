package dev.rein.mcp.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

/** What the stdio transport makes of the lines a server writes. */
class StdioTransportTest {

    @Test
    void aLongLineOrStderrLineIsCutBetweenWholeCharactersNeverInsideAnEmoji() {
        // Cut by UTF-16 index, a line with an emoji at the cut kept half of it: a lone surrogate in the error result or
        // the start error, which is not text and which JSON writers refuse ('Broken surrogate pair') when the result is
        // sent to the model with every later request.
        String cut = StdioTransport.abbreviate("x".repeat(199) + "\uD83D\uDE00 and more");
        assertThat(new String(cut.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)).isEqualTo(cut)
                .endsWith("x\uD83D\uDE00… [Rein cut it to its first 200 of 209 characters]");
        StderrTail tail = new StderrTail(Map.of());
        tail.add("y".repeat(299) + "\uD83D\uDE00 and more");
        String described = tail.describe();
        assertThat(new String(described.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)).isEqualTo(described)
                .endsWith("y\uD83D\uDE00… [Rein cut it to its first 300 of 309 characters]");
    }

    @Test
    void aMalformedAnswersWordsNeverReachTheSdksDebugLineOfEachMessageItReads() throws Exception {
        // The SDK logs each text it reads as a message, whole (McpSchema, DEBUG "Received JSON message: {}"); the test log
        // (simplelogger.properties) keeps that line. A stand-in for a malformed answer is handed over built, not as text.
        byte[] badUtf8 = "{\"jsonrpc\":\"2.0\",\"id\":\"c-2\",\"result\":{\"text\":\"log-secret-b \u00ff\"}}\n"
                .getBytes(StandardCharsets.ISO_8859_1);
        byte[] badBatch = "[{\"jsonrpc\":\"2.0\",\"id\":\"c-3\",\"result\":{\"text\":\"log-secret-c \u00ff\"}}]\n"
                .getBytes(StandardCharsets.ISO_8859_1);
        java.io.ByteArrayOutputStream stdout = new java.io.ByteArrayOutputStream();
        stdout.writeBytes("{\"jsonrpc\":\"2.0\",\"id\":\"c-1\",\"error\":\"log-secret-a\"}\n".getBytes(StandardCharsets.UTF_8));
        stdout.writeBytes(badUtf8);
        stdout.writeBytes(badBatch);
        stdout.writeBytes("{\"jsonrpc\":\"2.0\",\"id\":\"c-4\",\"result\":{\"text\":\"log-well-formed\"}}\n"
                .getBytes(StandardCharsets.UTF_8));
        Read read = read(stdout.toByteArray(), 4);
        assertThat(read.messages()).hasSize(4);
        for (int i = 0; i < 3; i++) {
            McpSchema.JSONRPCResponse standIn = (McpSchema.JSONRPCResponse) read.messages().get(i);
            assertThat(standIn.id()).isEqualTo("c-" + (i + 1));
            assertThat(standIn.error().data()).isInstanceOf(MalformedAnswer.Said.class);
            assertThat(MalformedAnswer.described(new io.modelcontextprotocol.spec.McpError(standIn.error()), t -> t))
                    .contains("log-secret-" + (char) ('a' + i));
        }
        String log = java.nio.file.Files.readString(java.nio.file.Path.of("target/test-log.txt"), StandardCharsets.UTF_8);
        assertThat(log).contains("Received JSON message: {\"jsonrpc\":\"2.0\",\"id\":\"c-4\"") // the log is kept
                .doesNotContain("log-secret-a").doesNotContain("log-secret-b").doesNotContain("log-secret-c");
    }

    @Test
    void aCutIsMadeBetweenGraphemeClustersSoAFlagOrAnEmojiSequenceIsNeverSplit() {
        // A cut between code points split a flag (two regional indicators: half of 🇯🇵 shows as a lone 🇯) and a ZWJ
        // sequence (the family 👨‍👩‍👧 is five code points: a man, a joiner, ...), leaving a different picture than sent.
        String flag = "\uD83C\uDDEF\uD83C\uDDF5"; // 🇯🇵
        String family = "\uD83D\uDC68\u200D\uD83D\uDC69\u200D\uD83D\uDC67"; // 👨‍👩‍👧
        assertThat(Quoted.of("x".repeat(199) + flag + " more", 200))
                .isEqualTo("x".repeat(199) + "… [Rein cut it to its first 199 of 206 characters]");
        assertThat(Quoted.of("x".repeat(198) + family + " more", 200))
                .isEqualTo("x".repeat(198) + "… [Rein cut it to its first 198 of 208 characters]");
        assertThat(Quoted.of("x".repeat(198) + flag + " more", 200)).as("a whole flag at the cut is kept")
                .isEqualTo("x".repeat(198) + flag + "… [Rein cut it to its first 200 of 205 characters]");
        assertThat(StdioTransport.abbreviate("x".repeat(199) + flag + " more"))
                .isEqualTo("x".repeat(199) + "… [Rein cut it to its first 199 of 206 characters]");
        assertThat(StdioTransport.abbreviate("{\n  " + "y".repeat(196) + family + "\n}"))
                .as("counted in what the server sent, the run of whitespace folded")
                .isEqualTo("{ " + "y".repeat(196) + "… [Rein cut it to its first 200 (shown on one line) of 207 characters]");
        StderrTail tail = new StderrTail(Map.of());
        tail.add("z".repeat(299) + flag);
        assertThat(tail.describe()).endsWith("z".repeat(299) + "… [Rein cut it to its first 299 of 301 characters]");
        // One cluster longer than the cut (a letter under 300 combining marks) is cut between code points: else nothing shows.
        assertThat(Quoted.of("e" + "\u0301".repeat(300), 200))
                .isEqualTo("e" + "\u0301".repeat(199) + "… [Rein cut it to its first 200 of 301 characters]");
    }

    @Test
    void aClusterAfterTheFirstThatIsLongerThanTheCutIsCutInsideNotLeftOutWhole() {
        // Only a first cluster longer than the cut was cut inside: 'ab' under 300 combining marks was shown 'a…', the b and
        // its 199 marks that fit left out, though no cut of 200 could ever show that cluster whole.
        String marks = "\u0301".repeat(300);
        assertThat(Quoted.of("ab" + marks, 200))
                .isEqualTo("ab" + "\u0301".repeat(198) + "… [Rein cut it to its first 200 of 302 characters]");
        assertThat(StdioTransport.abbreviate("ab" + marks + " tail"))
                .isEqualTo("ab" + "\u0301".repeat(198) + "… [Rein cut it to its first 200 of 307 characters]");
        StderrTail tail = new StderrTail(Map.of());
        tail.add("z".repeat(10) + "y" + marks);
        assertThat(tail.describe()).endsWith("z".repeat(10) + "y" + "\u0301".repeat(289)
                + "… [Rein cut it to its first 300 of 311 characters]");
        // A cluster that fits in a cut is still kept or left out whole: the last letter and its 5 marks.
        assertThat(Quoted.of("x".repeat(197) + "y" + "\u0301".repeat(5), 200))
                .isEqualTo("x".repeat(197) + "… [Rein cut it to its first 197 of 203 characters]");
        assertThat(StdioTransport.abbreviate("x".repeat(197) + "y" + "\u0301".repeat(5)))
                .isEqualTo("x".repeat(197) + "… [Rein cut it to its first 197 of 203 characters]");
    }

    @Test
    void aCutOfWhatAServerSentSaysHowMuchWasLeftOutAsEveryOtherQuoteOfItsWordsDoes() {
        // abbreviate (a line of its output, an HTTP refusal's body, an SDK's failure) and the stderr tail ended in a bare
        // "…", where Quoted says how much is missing: a person could not tell a cut line from one that ended so.
        assertThat(StdioTransport.abbreviate("東京 " + "a".repeat(500)))
                .isEqualTo("東京 " + "a".repeat(197) + "… [Rein cut it to its first 200 of 503 characters]");
        assertThat(StdioTransport.abbreviate("short\n\tline")).as("not cut: nothing added").isEqualTo("short line");
        StderrTail tail = new StderrTail(Map.of());
        tail.add("e".repeat(400));
        tail.addStdout("print " + "o".repeat(300));
        assertThat(tail.describe()).contains("e".repeat(300) + "… [Rein cut it to its first 300 of 400 characters]")
                .endsWith("o".repeat(194) + "… [Rein cut it to its first 200 of 306 characters]");
    }

    @Test
    void aSkippedStdoutLineIsCountedAndCutAsTheServerSentItNotAsItsEscapes() {
        // The stdout tail escaped control characters before it cut: the cut counted the escapes (70 characters sent were
        // "first 200 of 250") and could split one ("\x1… [Rein cut ...]").
        StderrTail tail = new StderrTail(Map.of());
        tail.addStdout("\u001b".repeat(60) + "x".repeat(10));
        assertThat(tail.describe()).endsWith(": " + "\\x1b".repeat(60) + "x".repeat(10)).doesNotContain("Rein cut");
        StderrTail cut = new StderrTail(Map.of());
        cut.addStdout("x" + "\u001b".repeat(300));
        assertThat(cut.describe()).endsWith(": x" + "\\x1b".repeat(199) + "… [Rein cut it to its first 200 of 301 characters]");
    }

    @Test
    void aSkippedStdoutLineIsShownAsSentWithItsTabEscapedAsTheStderrLineBesideIt() {
        // A skipped stdout line was folded as a multi-line text is (each run of whitespace one space): a tab showed as a
        // space, where a stderr line in the same message shows it "\x09" as every other control character, and a run of
        // spaces (a column) became one. The line is one line already: it is shown as sent, as a stderr line is.
        StderrTail tail = new StderrTail(Map.of());
        tail.add("err\tcolumn");
        tail.addStdout("  out\tcolumn  two");
        assertThat(tail.describe()).startsWith(" Its stderr ended with: err\\x09column Lines it wrote")
                .endsWith(" ended with:   out\\x09column  two");
        assertThat(tail.visibleStdout("\t" + "t".repeat(300))).as("the tab is one of the 200 characters shown")
                .isEqualTo("\\x09" + "t".repeat(199) + "… [Rein cut it to its first 200 of 301 characters]");
    }

    @Test
    void aByteThatIsNoUtf8IsOneCharacterOfTheCutAndIsEscapedAfterIt() throws Exception {
        // Each byte that is no UTF-8 was written into the text as its 4-character escape before the cut: 70 bytes (60 of
        // 0xff) were "first 200 of 250", and an escape could be cut in two ("x\\x… of 207" for 204 bytes sent). A byte is
        // now one character of the text, escaped when it is shown, after the cut.
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < 60; i++) {
            bytes.write(0xff);
        }
        bytes.write("x".repeat(10).getBytes(StandardCharsets.US_ASCII));
        StderrTail tail = new StderrTail(Map.of());
        String seventy = StdioTransport.decode(bytes.toByteArray(), bytes.size()).text();
        assertThat(tail.visibleStdout(seventy)).isEqualTo("\\xff".repeat(60) + "x".repeat(10));
        assertThat(StdioTransport.abbreviateLine(seventy)).isEqualTo("\\xff".repeat(60) + "x".repeat(10));
        byte[] cut = ("x".repeat(198) + "?" + "y".repeat(5)).getBytes(StandardCharsets.US_ASCII);
        cut[198] = (byte) 0xe9;
        String sent = StdioTransport.decode(cut, cut.length).text();
        assertThat(tail.visibleStdout(sent)).as("204 bytes sent: 204 characters, the escape whole")
                .isEqualTo("x".repeat(198) + "\\xe9" + "y… [Rein cut it to its first 200 of 204 characters]");
        assertThat(StdioTransport.abbreviateLine(sent))
                .isEqualTo("x".repeat(198) + "\\xe9" + "y… [Rein cut it to its first 200 of 204 characters]");
        // U+10080 is a pair whose second half is in the range the stand-ins use: a character, shown as it is.
        byte[] pair = "a\uD800\uDC80b".getBytes(StandardCharsets.UTF_8);
        assertThat(tail.visibleStdout(StdioTransport.decode(pair, pair.length).text())).isEqualTo("a\uD800\uDC80b");
    }

    @Test
    void aLoneSurrogateAServerSentAsAJsonEscapeIsShownAsThatEscapeNotAsAByteThatWasNoUtf8() throws Exception {
        // A lone surrogate a JSON string held as an escape (U+DCE9) was shown as the stand-in of a byte that was not UTF-8
        // (backslash x e9), and one outside U+DC80..U+DCFF (U+D800) raw, which is no text. A JSON value shows each as its
        // escape (backslash u dce9); a byte read from a line stays backslash x e9.
        assertThat(Quoted.of("caf\udce9 \ud800 \udc41 \uD83D\uDE00 x\ud83d", 100))
                .isEqualTo("caf\\udce9 \\ud800 \\udc41 \uD83D\uDE00 x\\ud83d");
        assertThat(StdioTransport.abbreviate("caf\udce9")).isEqualTo("caf\\udce9");
        byte[] latin1 = {'c', 'a', 'f', (byte) 0xe9};
        StderrTail tail = new StderrTail(Map.of());
        assertThat(tail.visibleStdout(StdioTransport.decode(latin1, latin1.length).text())).isEqualTo("caf\\xe9");
        // A malformed answer quoted in a call's error: as a line of a batch, read and written again, its JSON escape was
        // a lone surrogate in the text quoted, and shown as a byte.
        Read read = read("[{\"jsonrpc\":\"2.0\",\"id\":\"c-1\",\"error\":\"caf\\udce9\"}]\n", 1);
        assertThat(read.messages().getFirst()).isInstanceOfSatisfying(McpSchema.JSONRPCResponse.class, response ->
                assertThat(MalformedAnswer.described(new io.modelcontextprotocol.spec.McpError(response.error()), text -> text))
                        .startsWith("'{\"jsonrpc\":\"2.0\",\"id\":\"c-1\",\"error\":\"caf\\udce9\"}'"));
        Read bytes = read(withInvalidByte("{\"jsonrpc\":\"2.0\",\"id\":\"c-1\",\"error\":\"caf\u0000\"}\n"), 1);
        assertThat(bytes.messages().getFirst()).isInstanceOfSatisfying(McpSchema.JSONRPCResponse.class, response ->
                assertThat(MalformedAnswer.described(new io.modelcontextprotocol.spec.McpError(response.error()), text -> text))
                        .startsWith("'{\"jsonrpc\":\"2.0\",\"id\":\"c-1\",\"error\":\"caf\\xff\"}'"));
    }

    @Test
    void aCutOnOneLineCountsTheCharactersTheServerSentNotTheOneLineText() {
        // abbreviate counted after folding each run of whitespace into one space: 723 characters of pretty JSON were
        // "of 483". The 200 shown stand for the server's first 300 (1 + 24 lines of 12 + 11 of the next), which the note
        // says, with why 200 characters are "first 300": "first 300 of 723" alone read as a miscount.
        String pretty = "{\n" + "    \"k\": 1,\n".repeat(60) + "}";
        assertThat(pretty).hasSize(723);
        assertThat(StdioTransport.abbreviate(pretty))
                .isEqualTo("{" + " \"k\": 1,".repeat(24)
                        + " \"k\": 1… [Rein cut it to its first 300 (shown on one line) of 723 characters]");
        assertThat(StdioTransport.abbreviate("  \t" + "a".repeat(300))).as("leading whitespace is of what it sent")
                .isEqualTo("a".repeat(200) + "… [Rein cut it to its first 203 (shown on one line) of 303 characters]");
        assertThat(StdioTransport.abbreviate("\n" + "b ".repeat(90) + "\n")).as("not cut: as before")
                .isEqualTo("b ".repeat(89) + "b");
        assertThat(StdioTransport.abbreviate("\u2003\u001c \n" + "c\t\t".repeat(150) + "\uD83D\uDE00"))
                .as("whitespace strip() leaves out that is no \\s, and tabs inside")
                .isEqualTo("c ".repeat(100) + "… [Rein cut it to its first 304 (shown on one line) of 455 characters]");
    }

    @Test
    void aStderrLineIsHeldOnlyUpToTheLimitAndTheRestToItsEndIsSkipped() throws Exception {
        // Read with readLine, a stderr line without a newline (a progress bar, a dump) was held whole however long, though only
        // 300 characters of it are shown: a server writing one without end took the JVM's memory.
        String tail = "z".repeat(20_000);
        StdioTransport.StderrLines lines = new StdioTransport.StderrLines(new java.io.StringReader(
                "0123456789abcdef" + tail + "\r\nsecond\rthird\n\n\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00\nlast"), 10);
        List<String> read = new ArrayList<>();
        for (String line; (line = lines.next()) != null; ) {
            read.add(line);
        }
        // A newline after a carriage return ends no other line, as readLine has it; a pair cut at the limit is dropped whole.
        assertThat(read).containsExactly("0123456789", "second", "third", "", "\uD83D\uDE00\uD83D\uDE00\uD83D\uDE00", "last");
        StdioTransport.StderrLines emoji = new StdioTransport.StderrLines(new java.io.StringReader("abcdefghi\uD83D\uDE00xyz\n"), 10);
        assertThat(emoji.next()).isEqualTo("abcdefghi");
        assertThat(emoji.dropped()).as("characters read past the limit, the pair cut at it one").isEqualTo(4);
        assertThat(emoji.next()).isNull();
    }

    @Test
    void aLongStderrLineIsMaskedBeforeItIsCutForTheErrorMessage() throws Exception {
        // Probe: the limit (64K characters) is far past what is shown, so a secret near the start is still masked.
        StderrTail tail = new StderrTail(Map.of("TOKEN", "tok-secret-1"));
        String stderr = "x".repeat(284) + "tok-secret-1" + "y".repeat(3 * StdioTransport.STDERR_LINE_CHARS) + "\nlast words\n";
        StdioTransport.StderrLines lines = new StdioTransport.StderrLines(new java.io.StringReader(stderr), StdioTransport.STDERR_LINE_CHARS);
        for (String line; (line = lines.next()) != null; ) {
            assertThat(line.length()).isLessThanOrEqualTo(StdioTransport.STDERR_LINE_CHARS);
            tail.add(line, lines.dropped());
        }
        // The count is of the whole line, the part past the reader's limit (read, not kept) included, as shown: masked before
        // the cut, the 12 characters of the secret count as the 16 of its marker (the server sent 196904), as docs/mcp.md says.
        assertThat(tail.describe()).isEqualTo(" Its stderr ended with: " + "x".repeat(284) + "[REDACTED:TOKEN]"
                        + "… [Rein cut it to its first 300 of 196908 characters]" + " | last words")
                .doesNotContain("tok-secret");
    }

    /** A server whose whole output is {@code output}, already written. */
    private record Scripted(byte[] output, ByteArrayOutputStream input) implements ServerProcess {
        @Override
        public OutputStream stdin() {
            return input;
        }

        @Override
        public InputStream stdout() {
            return new ByteArrayInputStream(output);
        }

        @Override
        public InputStream stderr() {
            return InputStream.nullInputStream();
        }

        @Override
        public CompletableFuture<Integer> onExit() {
            return new CompletableFuture<>();
        }

        @Override
        public void destroy() {
        }
    }

    /** {@code dropped}: the warnings of messages dropped as not UTF-8, by kind; {@code input}: what Rein wrote to the server. */
    private record Read(List<McpSchema.JSONRPCMessage> messages, String brokenBecause, List<String> said, StderrTail tail,
                        Map<String, String> dropped, ByteArrayOutputStream input) {}

    private static Read read(String stdout, int expectedMessages) throws Exception {
        return read(stdout.getBytes(StandardCharsets.UTF_8), expectedMessages);
    }

    private static Read read(byte[] stdout, int expectedMessages) throws Exception {
        BlockingQueue<McpSchema.JSONRPCMessage> received = new LinkedBlockingQueue<>();
        CompletableFuture<String> broken = new CompletableFuture<>();
        List<String> said = new java.util.concurrent.CopyOnWriteArrayList<>();
        StderrTail tail = new StderrTail(Map.of("TOKEN", "tok-secret-1"));
        Map<String, String> dropped = new java.util.concurrent.ConcurrentHashMap<>();
        ByteArrayOutputStream input = new ByteArrayOutputStream();
        StdioTransport transport = new StdioTransport(new Scripted(stdout, input), McpJsonDefaults.getMapper(), tail, broken::complete,
                said::add, (kind, text) -> dropped.merge(kind, text, (a, b) -> a + " | " + b));
        transport.connect(message -> message.doOnNext(received::add).then(Mono.empty())).block();
        String why = broken.get(10, TimeUnit.SECONDS); // the output ends after the script
        List<McpSchema.JSONRPCMessage> messages = new ArrayList<>();
        while (messages.size() < expectedMessages) {
            McpSchema.JSONRPCMessage next = received.poll(10, TimeUnit.SECONDS);
            if (next == null) {
                break;
            }
            messages.add(next);
        }
        return new Read(messages, why, said, tail, dropped, input);
    }

    @Test
    void aJsonRpcBatchIsEveryMessageInIt() throws Exception {
        // Protocol revision 2025-03-26, which a server may still negotiate, says a receiver must accept batches.
        Read read = read("[{\"jsonrpc\":\"2.0\",\"id\":\"c-2\",\"result\":{\"content\":[]}},"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}]\n", 2);
        assertThat(read.messages()).hasSize(2);
        assertThat(read.messages().get(0)).isInstanceOfSatisfying(McpSchema.JSONRPCResponse.class,
                response -> assertThat(response.id()).isEqualTo("c-2"));
        assertThat(read.messages().get(1)).isInstanceOfSatisfying(McpSchema.JSONRPCNotification.class,
                notification -> assertThat(notification.method()).isEqualTo("notifications/tools/list_changed"));
        assertThat(read.brokenBecause()).isEqualTo("it closed its output");
    }

    @Test
    void anEmptyBatchIsNotAJsonRpcMessage() throws Exception {
        Read read = read("[]\n", 0);
        assertThat(read.messages()).isEmpty();
        assertThat(read.brokenBecause()).isEqualTo("it sent a message that is not valid JSON-RPC: '[]' (neither a request, a notification"
                + " nor an answer)");
    }

    @Test
    void anOutputThatEndsInTheMiddleOfAMessageIsSaidToHaveEndedSoNotToHoldALogLine() throws Exception {
        // A server killed while writing its answer (out of memory, say): it was told to write its logs to stderr.
        Read read = read("{\"jsonrpc\":\"2.0\",\"id\":\"c-3\",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"aaa", 0);
        assertThat(read.messages()).isEmpty();
        assertThat(read.brokenBecause()).isEqualTo("it closed its output in the middle of a message: '{\"jsonrpc\":\"2.0\",\"id\":\"c-3\","
                + "\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"aaa'");
        // A last message complete but for its newline is still read.
        Read complete = read("{\"jsonrpc\":\"2.0\",\"id\":\"c-4\",\"result\":{}}", 1);
        assertThat(complete.messages()).hasSize(1);
        assertThat(complete.brokenBecause()).isEqualTo("it closed its output");
    }

    @Test
    void linesThatAreNoJsonRpcMessageAreSkippedTheFirstSaidOnceAndTheMessagesAroundThemRead() throws Exception {
        // A banner, a print() and a logging library's JSON line on stdout: the spec forbids them there, but the TypeScript and
        // Python SDKs report and skip such a line; Rein broke the connection at the first, losing the whole server.
        Read read = read("Server started on stdio\n"
                + "{\"level\":30,\"msg\":\"ready\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":\"c-1\",\"result\":{}}\n"
                + "\u001b[31mwarning\u001b[0m: token tok-secret-1 expires soon\n"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}\n", 2);
        assertThat(read.messages()).hasSize(2);
        assertThat(read.brokenBecause()).isEqualTo("it closed its output");
        assertThat(read.said()).containsExactly("Server started on stdio");
        assertThat(read.tail().describe()).isEqualTo(" Lines it wrote to its stdout that are not MCP messages (skipped; a stdio server"
                + " writes its logs to stderr) ended with: Server started on stdio | {\"level\":30,\"msg\":\"ready\"}"
                + " | \\x1b[31mwarning\\x1b[0m: token [REDACTED:TOKEN] expires soon");
    }

    @Test
    void anErrorWithoutAnIdAndWithoutTheJsonRpcMemberIsStillSaidToBeOneNotSkippedAsALogLine() throws Exception {
        // A sloppy server's answer to a request it could not read: skipped as a log line, the calls in flight would wait
        // for their timeout.
        Read read = read("{\"id\":null,\"error\":{\"code\":-32700,\"message\":\"Parse error\"}}\n", 0);
        assertThat(read.said()).isEmpty();
        assertThat(read.brokenBecause()).isEqualTo("it sent JSON-RPC error -32700: Parse error without a request id (its answer to a"
                + " request it could not read)");
    }

    @Test
    void aMessageThatClaimsToBeJsonRpcButIsNoneStillEndsTheConnection() throws Exception {
        // Neither a request, a notification nor an answer: a protocol error, not a log line, so the calls in flight end now.
        Read read = read("{\"jsonrpc\":\"2.0\",\"id\":\"c-1\"}\n{\"jsonrpc\":\"2.0\",\"id\":\"c-2\",\"result\":{}}\n", 0);
        assertThat(read.messages()).isEmpty();
        assertThat(read.said()).isEmpty();
        assertThat(read.brokenBecause()).isEqualTo("it sent a message that is not valid JSON-RPC: '{\"jsonrpc\":\"2.0\",\"id\":\"c-1\"}'"
                + " (neither a request, a notification nor an answer)");
    }

    /** {@code text} as UTF-8 with each '\u0000' character replaced by the byte 0xFF, which is never UTF-8. */
    private static byte[] withInvalidByte(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                bytes[i] = (byte) 0xFF;
            }
        }
        return bytes;
    }

    @Test
    void anAnswerThatIsNotValidUtf8EndsItsRequestSayingSoAndTheMessagesAfterItAreRead() throws Exception {
        // MCP's stdio transport carries UTF-8 JSON-RPC. Before, a byte that is no UTF-8 became U+FFFD without a word, and
        // the tool's output reached the model altered. The answer is not used: its request gets an error saying why.
        Read read = read(withInvalidByte("{\"jsonrpc\":\"2.0\",\"id\":\"c-1\",\"result\":{\"content\":[{\"type\":\"text\","
                + "\"text\":\"caf\u0000\"}]}}\n{\"jsonrpc\":\"2.0\",\"id\":\"c-2\",\"result\":{}}\n"), 2);
        assertThat(read.messages()).hasSize(2);
        assertThat(read.messages().get(0)).isInstanceOfSatisfying(McpSchema.JSONRPCResponse.class, response -> {
            assertThat(response.id()).isEqualTo("c-1");
            assertThat(response.result()).isNull();
            assertThat(MalformedAnswer.described(new io.modelcontextprotocol.spec.McpError(response.error()), text -> text))
                    .isEqualTo("'{\"jsonrpc\":\"2.0\",\"id\":\"c-1\",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"caf\\xff\"}]}}'"
                            + " (it is not valid UTF-8, which every message of MCP's stdio transport is: byte 0xFF at offset 75)");
        });
        assertThat(read.messages().get(1)).isInstanceOfSatisfying(McpSchema.JSONRPCResponse.class,
                response -> assertThat(response.id()).isEqualTo("c-2"));
        assertThat(read.brokenBecause()).isEqualTo("it closed its output");
    }

    @Test
    void aNotificationThatIsNotValidUtf8IsDroppedWithAWarningAndTheAnswersAfterItAreRead() throws Exception {
        // One bad byte in a log notification (a Latin-1 file name) ended the connection: every call in flight was lost,
        // answers already behind it in the pipe too, and the server restarted. The notification is dropped, said once per
        // kind; the connection stays. A log line (no JSON-RPC at all) in another encoding is still skipped.
        Read read = read(withInvalidByte("Caf\u0000 server ready\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                + "\"params\":{\"level\":\"info\",\"data\":\"caf\u0000\"}}\n"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"\u0000\"}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":\"c-2\",\"result\":{}}\n"), 1);
        assertThat(read.messages()).singleElement().isInstanceOfSatisfying(McpSchema.JSONRPCResponse.class,
                response -> assertThat(response.id()).isEqualTo("c-2"));
        assertThat(read.said()).hasSize(1);
        assertThat(read.brokenBecause()).isEqualTo("it closed its output");
        assertThat(read.dropped()).containsOnlyKeys("notifications/message");
        assertThat(read.dropped().get("notifications/message")).startsWith("sent a notifications/message notification that is not"
                + " valid UTF-8, which every message of MCP's stdio transport is (byte 0xFF at offset 86), so Rein dropped it: '{");
    }

    @Test
    void aServerRequestThatIsNotValidUtf8IsAnsweredParseErrorAndOneWhoseIdCannotBeReadIsDropped() throws Exception {
        // JSON-RPC 2.0: -32700 Parse error is the answer to a request that is not valid JSON; the server is told, and waits
        // no longer for an answer. One without an id Rein can read (an object, null) is dropped, said once.
        Read read = read(withInvalidByte("{\"jsonrpc\":\"2.0\",\"id\":\"s-1\",\"method\":\"sampling/createMessage\",\"params\":"
                + "{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"caf\u0000\"}}]}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":{\"n\":1},\"method\":\"roots/list\",\"params\":{\"x\":\"\u0000\"}}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":\"c-2\",\"result\":{}}\n"), 1);
        assertThat(read.messages()).singleElement().isInstanceOfSatisfying(McpSchema.JSONRPCResponse.class,
                response -> assertThat(response.id()).isEqualTo("c-2"));
        assertThat(read.brokenBecause()).isEqualTo("it closed its output");
        String written = awaitWritten(read.input());
        com.fasterxml.jackson.databind.JsonNode answer = dev.rein.json.Json.mapper().readTree(written);
        assertThat(answer.path("id").asText()).isEqualTo("s-1");
        assertThat(answer.at("/error/code").asInt()).isEqualTo(-32700);
        assertThat(answer.at("/error/message").asText()).isEqualTo("Parse error: the request is not valid UTF-8, which every"
                + " message of MCP's stdio transport is (byte 0xFF at offset 135)");
        assertThat(read.dropped()).containsOnlyKeys("request");
        assertThat(read.dropped().get("request")).startsWith("sent a roots/list request that is not valid UTF-8, which every"
                + " message of MCP's stdio transport is (byte 0xFF at offset 67) and whose id Rein cannot read, so Rein answered"
                + " it Parse error with a null id, as JSON-RPC says: '{");
    }

    @Test
    void aServerRequestWhoseIdHoldsTheByteThatIsNotUtf8IsAnsweredParseErrorWithANullIdNotAnAlteredOne() throws Exception {
        // Echoed from the leniently decoded text, the id "s-\xFF" came back as "s-\uFFFD", an id the server never sent and
        // cannot match. JSON-RPC 2.0 (5. Response object): when the id could not be detected (Parse error) it MUST be null.
        Read read = read(withInvalidByte("{\"jsonrpc\":\"2.0\",\"id\":\"s-\u0000\",\"method\":\"roots/list\"}\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":\"c-2\",\"result\":{}}\n"), 1);
        assertThat(read.messages()).singleElement().isInstanceOfSatisfying(McpSchema.JSONRPCResponse.class,
                response -> assertThat(response.id()).isEqualTo("c-2"));
        assertThat(read.brokenBecause()).isEqualTo("it closed its output");
        String written = awaitWritten(read.input());
        assertThat(written).doesNotContain("\uFFFD");
        com.fasterxml.jackson.databind.JsonNode answer = dev.rein.json.Json.mapper().readTree(written);
        assertThat(answer.has("id")).isTrue();
        assertThat(answer.get("id").isNull()).isTrue();
        assertThat(answer.at("/error/code").asInt()).isEqualTo(-32700);
        assertThat(written.strip()).doesNotContain("\n");
        assertThat(read.dropped()).containsOnlyKeys("request");
    }

    @Test
    void anAnswerWhoseIdHoldsTheByteThatIsNotUtf8EndsTheConnectionSoNoCallWaitsItsTimeout() throws Exception {
        // A stand-in for it carried the id "c-\uFFFD", which no call has: the call it answered waited its whole timeout. Its
        // request is not known, so the connection ends, as for an answer whose id cannot be read in UTF-8: every call in flight
        // ends at once saying why. The same for such an answer in a batch.
        for (String script : List.of("{\"jsonrpc\":\"2.0\",\"id\":\"c-\u0000\",\"result\":{}}\n",
                "[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}},"
                        + "{\"jsonrpc\":\"2.0\",\"id\":\"c-\u0000\",\"error\":{\"code\":-1,\"message\":\"x\"}}]\n")) {
            Read read = read(withInvalidByte(script + "{\"jsonrpc\":\"2.0\",\"id\":\"c-2\",\"result\":{}}\n"), 0);
            assertThat(read.messages()).isEmpty();
            assertThat(read.brokenBecause()).startsWith("it sent a message that is not valid UTF-8, which every message of MCP's stdio"
                    + " transport is (byte 0xFF at offset ").contains("c-\\xff");
            assertThat(read.dropped()).isEmpty();
        }
    }

    @Test
    void onlyTheMessagesOfABatchThatAreNotValidUtf8AreRefusedTheOthersAreReadAsTheyCame() throws Exception {
        // One byte that is no UTF-8 in one message of a batch (a progress notification quoting a Latin-1 file name) made
        // every message of it unreadable: the answer beside it ended its call with an error, though it came intact.
        // Each message of a batch is judged by its own bytes now: only the one holding the byte is refused.
        Read read = read(withInvalidByte("[{\"jsonrpc\":\"2.0\",\"id\":\"c-1\",\"result\":{\"content\":[]}},"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"message\":\"\u0000\"}},"
                + " {\"jsonrpc\":\"2.0\",\"id\":\"c-3\",\"result\":{\"text\":\"[\\\"}\u0000\"}},"
                + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\"caf\u00e9 ]}\"}}]\n"
                + "{\"jsonrpc\":\"2.0\",\"id\":\"c-2\",\"result\":{}}\n"), 4);
        assertThat(read.messages()).hasSize(4);
        assertThat(read.messages().get(0)).as("intact: read as it came").isInstanceOfSatisfying(McpSchema.JSONRPCResponse.class,
                response -> {
                    assertThat(response.id()).isEqualTo("c-1");
                    assertThat(response.error()).isNull();
                    assertThat(response.result()).isNotNull();
                });
        assertThat(read.messages().get(1)).isInstanceOfSatisfying(McpSchema.JSONRPCResponse.class, response -> {
            assertThat(response.id()).isEqualTo("c-3");
            assertThat(response.result()).isNull();
            assertThat(MalformedAnswer.described(new io.modelcontextprotocol.spec.McpError(response.error()), text -> text))
                    .contains("(it is not valid UTF-8, which every message of MCP's stdio transport is: byte 0xFF at offset 182)");
        });
        assertThat(read.messages().get(2)).as("intact: read as it came").isInstanceOfSatisfying(McpSchema.JSONRPCNotification.class,
                notification -> assertThat(notification.params()).isEqualTo(Map.of("data", "caf\u00e9 ]}")));
        assertThat(read.messages().get(3)).isInstanceOfSatisfying(McpSchema.JSONRPCResponse.class,
                response -> assertThat(response.id()).isEqualTo("c-2"));
        assertThat(read.brokenBecause()).isEqualTo("it closed its output");
        assertThat(read.dropped()).containsOnlyKeys("notifications/progress");
        assertThat(read.dropped().get("notifications/progress")).contains("byte 0xFF at offset 126");
    }

    /** What Rein wrote to the server, once it wrote something (its writes are made on a thread of their own). */
    private static String awaitWritten(ByteArrayOutputStream input) throws InterruptedException {
        for (int i = 0; i < 500 && input.size() == 0; i++) {
            Thread.sleep(10);
        }
        return input.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theMessageLimitCountsBytesAsOverHttpNotCharacters() throws Exception {
        // 16 MB over streamable HTTP is 16777216 bytes; over stdio it counted characters, so a message of 9 million
        // two-byte characters (18 MB) passed. Both count bytes now.
        String big = "{\"jsonrpc\":\"2.0\",\"id\":\"c-1\",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\""
                + "\u00e9".repeat(9_000_000) + "\"}]}}\n";
        Read read = read(big, 0);
        assertThat(read.messages()).isEmpty();
        assertThat(read.brokenBecause()).isEqualTo("message longer than " + ResumingHttpClient.MAX_MESSAGE_BYTES + " bytes");
    }
}
