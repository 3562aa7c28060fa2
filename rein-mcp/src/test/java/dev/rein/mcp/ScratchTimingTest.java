package dev.rein.mcp;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ScratchTimingTest {
    @Test
    void stdio() {
        long t = System.nanoTime();
        try {
            McpToolset.start(McpTesting.config("scripted", "\"command\": \"scripted\""), stdio -> new ScriptedStdioServer((server, message) -> {
                if ("initialize".equals(message.path("method").asText())) {
                    server.result(message.get("id"), Map.of("protocolVersion", "2025-11-25", "serverInfo", Map.of("name", "x", "version", "1")));
                }
            }));
        } catch (McpConfigException e) {
            System.out.println("STDIO " + (System.nanoTime() - t) / 1_000_000 + " ms: " + e.getMessage());
        }
    }

    @Test
    void http() {
        try (FakeHttpEndpoint server = FakeHttpEndpoint.start((exchange, message) -> {
            System.out.println("T " + System.nanoTime() / 1_000_000 + " HTTP got " + exchange.getRequestMethod() + " " + FakeHttpEndpoint.method(message));
            if ("initialize".equals(FakeHttpEndpoint.method(message))) {
                FakeHttpEndpoint.json(exchange, 200, "{\"jsonrpc\":\"2.0\",\"id\":" + FakeHttpEndpoint.id(message)
                        + ",\"result\":{\"protocolVersion\":\"2025-06-18\",\"serverInfo\":{\"name\":\"x\",\"version\":\"1\"}}}");
            } else {
                FakeHttpEndpoint.empty(exchange, 405);
            }
        })) {
            for (int rep = 0; rep < 3; rep++) {
            long t = System.nanoTime();
            Thread d = null; if (false) d = new Thread(() -> { for (int k = 1; k <= 3; k++) { try { Thread.sleep(k == 1 ? 1500 : 2000); } catch (InterruptedException e) { return; }
                System.out.println("=== DUMP " + (System.nanoTime() - t) / 1_000_000);
                try { new ProcessBuilder("/usr/lib/jvm/temurin-25-jdk-amd64/bin/jcmd", "" + ProcessHandle.current().pid(), "Thread.dump_to_file", "-overwrite", "/tmp/mcp9/vd" + k + ".txt").inheritIO().start().waitFor(); } catch (Exception e) { }
                Thread.getAllStackTraces().forEach((th, st) -> { String x = java.util.Arrays.stream(st).limit(25).map(Object::toString).collect(java.util.stream.Collectors.joining("\n   "));
                    if (x.contains("modelcontextprotocol") || x.contains("dev.rein")) System.out.println(th.getName() + "\n   " + x); }); } });
            
            try {
                McpToolset.start(server.config("h", "/mcp", ""));
            } catch (McpConfigException e) {
                System.out.println("HTTP " + (System.nanoTime() - t) / 1_000_000 + " ms: " + e.getMessage());
            }
            }
        }
    }

    @Test
    void hang() throws Exception {
        for (boolean[] v : new boolean[][] {{false, false}, {true, false}, {false, true}, {true, true}}) {
            var server = ScratchHang.server(v[0], v[1], false);
            McpConfig config = McpConfig.parse("{\"mcpServers\": {\"h\": {\"url\": \"http://127.0.0.1:" + server.getAddress().getPort() + "/mcp\"}}}", "t", Map.of());
            for (int rep = 0; rep < 2; rep++) {
                long t = System.nanoTime();
                try { McpToolset.start(config); } catch (McpConfigException e) {
                    System.out.println("HANG holdGet=" + v[0] + " hangDelete=" + v[1] + " " + (System.nanoTime() - t) / 1_000_000 + " ms: " + e.getMessage());
                }
            }
            server.stop(0);
        }
    }

    @Test
    void nodeStdio() throws Exception {
        java.nio.file.Path js = java.nio.file.Files.writeString(java.nio.file.Files.createTempFile("srv", ".js"),
                "const rl=require('readline').createInterface({input:process.stdin});rl.on('line',l=>{const m=JSON.parse(l);"
                + "if(m.method==='initialize')process.stdout.write(JSON.stringify({jsonrpc:'2.0',id:m.id,result:{protocolVersion:'2025-06-18',serverInfo:{name:'x',version:'1'}}})+'\\n');});");
        long t = System.nanoTime();
        try {
            McpToolset.start(McpConfig.parse("{\"mcpServers\": {\"n\": {\"command\": \"node\", \"args\": [\"" + js + "\"]}}}", "t", Map.of()));
        } catch (McpConfigException e) {
            System.out.println("NODE " + (System.nanoTime() - t) / 1_000_000 + " ms: " + e.getMessage());
        }
    }
}
class ScratchHang {
    static com.sun.net.httpserver.HttpServer server(boolean holdGet, boolean hangDelete, boolean capabilities) throws Exception {
        var server = com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.createContext("/", ex -> {
            String body = new String(ex.getRequestBody().readAllBytes());
            System.out.println("T " + System.nanoTime() / 1_000_000 + " got " + ex.getRequestMethod() + " " + body.replaceAll(".*\"method\":\"([^\"]*)\".*", "$1"));
            ex.getResponseHeaders().set("Mcp-Session-Id", "s1");
            try {
                switch (ex.getRequestMethod()) {
                    case "GET" -> {
                        if (!holdGet) { ex.sendResponseHeaders(405, -1); ex.close(); return; }
                        ex.getResponseHeaders().set("Content-Type", "text/event-stream");
                        ex.sendResponseHeaders(200, 0);
                        ex.getResponseBody().write(": hi\n\n".getBytes()); ex.getResponseBody().flush();
                        Thread.sleep(60_000);
                    }
                    case "DELETE" -> {
                        if (hangDelete) Thread.sleep(60_000);
                        ex.sendResponseHeaders(200, -1); ex.close();
                    }
                    default -> {
                        var m = dev.rein.json.Json.mapper().readTree(body);
                        if (!m.has("id")) { ex.sendResponseHeaders(202, -1); ex.close(); return; }
                        String r = "{\"jsonrpc\":\"2.0\",\"id\":" + m.get("id") + ",\"result\":{\"protocolVersion\":\"2025-06-18\","
                                + (capabilities ? "\"capabilities\":{\"tools\":{}}," : "") + "\"serverInfo\":{\"name\":\"x\",\"version\":\"1\"}}}";
                        byte[] b = r.getBytes();
                        ex.getResponseHeaders().set("Content-Type", "application/json");
                        ex.sendResponseHeaders(200, b.length); ex.getResponseBody().write(b); ex.close();
                    }
                }
            } catch (InterruptedException e) { }
        });
        server.start();
        return server;
    }
}
