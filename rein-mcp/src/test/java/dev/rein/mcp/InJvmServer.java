package dev.rein.mcp;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * An MCP server built with the SDK's server side, running inside the test JVM on pipes in place of
 * a process's stdin and stdout, so a test can make it crash, hang or send garbage on demand.
 */
final class InJvmServer extends PipedProcess {
    private final OutputStream serverOut = Channels.newOutputStream(toClient.sink());
    private final McpSyncServer server;
    /** Everything the client wrote to the server (the tests' messages are ASCII, so each read decodes on its own). */
    private final StringBuffer received = new StringBuffer();
    private final AtomicBoolean stripStructuredContent = new AtomicBoolean();
    /** Every line the server wrote to its stdout. */
    private final StringBuffer sent = new StringBuffer();

    /** Starts a server whose tools are made by {@code tools} (they may use this server to misbehave). */
    InJvmServer(Function<InJvmServer, List<McpServerFeatures.SyncToolSpecification>> tools) {
        StdioServerTransportProvider transport = new StdioServerTransportProvider(McpJsonDefaults.getMapper(),
                new FilterInputStream(Channels.newInputStream(toServer.source())) {
                    @Override
                    public int read(byte[] b, int off, int len) throws IOException {
                        int n = super.read(b, off, len);
                        if (n > 0) {
                            received.append(new String(b, off, n, StandardCharsets.UTF_8));
                        }
                        return n;
                    }
                }, new LineRewriter());
        server = McpServer.sync(transport)
                .serverInfo("faulty", "1.0")
                .capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
                .jsonSchemaValidator((schema, content) -> JsonSchemaValidator.ValidationResponse.asValid(null))
                .tools(tools.apply(this))
                .build();
    }

    McpSyncServer server() {
        return server;
    }

    /**
     * What a crash looks like from outside: the output ends and the process exits. Its last words
     * on stderr are read only after that, as may happen with a real process, whose pipes are read
     * on threads of their own.
     */
    void crash() {
        closeQuietly(serverOut);
        exit.complete(137);
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        writeStderr("fatal: simulated crash\n");
        closeQuietly(Channels.newOutputStream(errors.sink()));
    }

    /**
     * Removes {@code structuredContent} from the next result the server sends: a result the SDK's
     * server would refuse to send for a tool with an output schema.
     */
    void stripStructuredContentFromNextResult() {
        stripStructuredContent.set(true);
    }

    /** The SDK server's stdout: whole lines, each passed on as it is or with its structured content removed. */
    private final class LineRewriter extends OutputStream {
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        @Override
        public void write(int b) throws IOException {
            if (b != '\n') {
                line.write(b);
                return;
            }
            String text = line.toString(StandardCharsets.UTF_8);
            line.reset();
            JsonNode message = text.contains("\"structuredContent\"") ? Json.parse(text) : null;
            if (message != null && message.path("result") instanceof ObjectNode result && stripStructuredContent.getAndSet(false)) {
                result.remove("structuredContent");
                text = Json.write(message);
            }
            sent.append(text).append('\n');
            synchronized (serverOut) {
                serverOut.write((text + "\n").getBytes(StandardCharsets.UTF_8));
                serverOut.flush();
            }
        }

        @Override
        public void flush() throws IOException {
            serverOut.flush();
        }

        @Override
        public void close() throws IOException {
            serverOut.close();
        }
    }

    /** Writes {@code line} on the server's stdout, outside the protocol. */
    void writeRaw(String line) {
        try {
            synchronized (serverOut) {
                serverOut.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                serverOut.flush();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void writeStderr(String text) {
        try {
            Channels.newOutputStream(errors.sink()).write(text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // stderr already closed
        }
    }

    /** The JSON-RPC messages the client sent so far, one per line. */
    List<String> sentLines() {
        return sent.toString().lines().toList();
    }

    List<String> receivedLines() {
        return received.toString().lines().toList();
    }

    boolean ended() {
        return exit.isDone();
    }

    @Override
    public void destroy() {
        try {
            server.close();
        } catch (RuntimeException e) {
            // a crashed server may fail to close: it is gone either way
        }
        closeQuietly(serverOut);
        closeQuietly(Channels.newOutputStream(errors.sink()));
        closeQuietly(Channels.newOutputStream(toServer.sink()));
        exit.complete(143);
    }

    private static void closeQuietly(OutputStream out) {
        try {
            out.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
