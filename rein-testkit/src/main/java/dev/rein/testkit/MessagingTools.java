package dev.rein.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.ReinException;
import dev.rein.json.Json;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolContext;
import dev.rein.tool.ToolOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A small demo tool set with one side effect, for trying approvals from the command line:
 * {@code lookup_contact} (READ), {@code send_message} (IRREVERSIBLE: it waits for approval under
 * the default policy) and {@code list_sent_messages} (READ). "Sending" appends one JSON line to an
 * outbox file. The outbox behaves like a real mail or payment API: it deduplicates by the
 * idempotency key it receives, so a message delivered twice (a resumed call that was in flight)
 * is sent once.
 */
public final class MessagingTools {
    private static final Map<String, String> CONTACTS = Map.of(
            "alice", "alice@example.com",
            "bob", "bob@example.com",
            "佐藤", "sato@example.jp");

    private MessagingTools() {}

    /** The three tools, sending to {@code outbox} (created on first send). */
    public static List<Tool> outbox(Path outbox) {
        return List.of(lookupContact(), sendMessage(outbox), listSent(outbox));
    }

    private static Tool lookupContact() {
        return Tool.builder("lookup_contact")
                .description("Finds the e-mail address of a contact by name (alice, bob, 佐藤). Returns the address or says it is unknown.")
                .inputSchema("""
                        {"type":"object","properties":{"name":{"type":"string","description":"the contact's name"}},
                         "required":["name"],"additionalProperties":false}""")
                .risk(Risk.READ)
                .handler((args, ctx) -> {
                    String name = args.get("name").asText().strip();
                    String address = CONTACTS.get(name.toLowerCase(java.util.Locale.ROOT));
                    address = address == null ? CONTACTS.get(name) : address;
                    return ToolOutput.text(address == null ? "No contact named '" + name + "'." : name + ": " + address)
                            .withSource("contacts");
                })
                .build();
    }

    private static Tool sendMessage(Path outbox) {
        return Tool.builder("send_message")
                .description("Sends a message to an e-mail address. It cannot be undone, so a person approves each message before it goes out.")
                .inputSchema("""
                        {"type":"object","properties":{
                          "to":{"type":"string","description":"the recipient's e-mail address"},
                          "subject":{"type":"string"},
                          "body":{"type":"string"}},
                         "required":["to","subject","body"],"additionalProperties":false}""")
                .risk(Risk.IRREVERSIBLE)
                .handler((args, ctx) -> send(outbox, args, ctx))
                .build();
    }

    private static Tool listSent(Path outbox) {
        return Tool.builder("list_sent_messages")
                .description("Lists the messages sent so far (recipient and subject).")
                .risk(Risk.READ)
                .handler((args, ctx) -> {
                    List<String> lines = new ArrayList<>();
                    for (JsonNode m : read(outbox)) {
                        lines.add(m.path("to").asText() + ": " + m.path("subject").asText());
                    }
                    return ToolOutput.text(lines.isEmpty() ? "No messages sent yet." : String.join("\n", lines)).withSource("outbox");
                })
                .build();
    }

    private static ToolOutput send(Path outbox, JsonNode args, ToolContext ctx) throws IOException {
        Path parent = outbox.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (FileChannel channel = FileChannel.open(outbox, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            // Another process may be sending too: the lock makes check-then-append atomic.
            FileLock lock = channel.lock();
            try {
                return appendOnce(outbox, channel, args, ctx);
            } finally {
                lock.release();
            }
        }
    }

    private static ToolOutput appendOnce(Path outbox, FileChannel channel, JsonNode args, ToolContext ctx) throws IOException {
        for (JsonNode m : read(outbox)) {
            if (ctx.idempotencyKey().equals(m.path("idempotency_key").asText())) {
                return ToolOutput.text("Message to " + m.path("to").asText() + " was already sent at "
                        + m.path("sent_at").asText() + " (same idempotency key; not sent twice).").withSource("outbox");
            }
        }
        ObjectNode line = Json.object();
        line.put("idempotency_key", ctx.idempotencyKey());
        line.put("run_id", ctx.runId());
        line.set("to", args.get("to"));
        line.set("subject", args.get("subject"));
        line.set("body", args.get("body"));
        line.put("sent_at", Instant.now().toString());
        channel.position(channel.size());
        channel.write(ByteBuffer.wrap((Json.write(line) + "\n").getBytes(StandardCharsets.UTF_8)));
        channel.force(true);
        return ToolOutput.text("Sent to " + args.get("to").asText() + ": " + args.get("subject").asText()).withSource("outbox");
    }

    /** The messages in {@code outbox}, in the order they were sent. */
    public static List<JsonNode> read(Path outbox) {
        if (!Files.exists(outbox)) {
            return List.of();
        }
        try {
            List<JsonNode> messages = new ArrayList<>();
            for (String line : Files.readAllLines(outbox, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    messages.add(Json.parse(line));
                }
            }
            return messages;
        } catch (IOException e) {
            throw new ReinException("cannot read the outbox " + outbox + ": " + e.getMessage(), e);
        }
    }
}
