package dev.rein.safety;

import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolOutput;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An external system with side effects, as tests need it: it records every delivery with its
 * idempotency key and applies a key once, like a mail or payment API.
 */
final class FakeOutbox {
    final List<String> deliveries = new CopyOnWriteArrayList<>();
    final Map<String, String> applied = new ConcurrentHashMap<>();

    /** send_message(to, body): WRITE by default. */
    Tool sendTool(Risk risk) {
        return Tool.builder("send_message")
                .description("Sends a message.")
                .inputSchema("""
                        {"type":"object","properties":{"to":{"type":"string"},"body":{"type":"string"}},
                         "required":["to","body"]}""")
                .risk(risk)
                .handler((args, ctx) -> {
                    deliveries.add(ctx.idempotencyKey());
                    applied.putIfAbsent(ctx.idempotencyKey(), args.get("to").asText() + ": " + args.get("body").asText());
                    return ToolOutput.text("sent to " + args.get("to").asText()).withSource("outbox");
                })
                .build();
    }

    Tool sendTool() {
        return sendTool(Risk.WRITE);
    }

    /** Effects actually applied (deliveries deduplicated by key). */
    int effects() {
        return applied.size();
    }

    static Tool lookup(String answer) {
        return Tool.builder("lookup_order")
                .description("Looks up an order.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .handler((args, ctx) -> ToolOutput.text(answer).withSource("orders-db"))
                .build();
    }
}
