package dev.rein.agent;

import dev.rein.tool.Tool;

/** Small tools shared by the loop tests. */
final class TestTools {
    private TestTools() {}

    /** {@code echo(text)} returns "echo: " + text. */
    static Tool echo() {
        return Tool.builder("echo").description("Echoes its text.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}")
                .handler((args, ctx) -> "echo: " + args.get("text").asText())
                .build();
    }
}
