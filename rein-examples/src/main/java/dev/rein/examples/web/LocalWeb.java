package dev.rein.examples.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.rein.eval.Environment;
import dev.rein.examples.ExampleSetupException;
import dev.rein.json.Json;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;

/**
 * A small web site served on 127.0.0.1 by the example itself, under the made-up host name
 * {@value #HOST}: a product catalogue with a robots.txt, a private area robots.txt forbids, a page
 * carrying injected instructions, a deep blog and a link to another domain. Every request the
 * server receives is logged with its time, so graders can check what the crawler really did.
 */
public final class LocalWeb implements Environment {
    public static final String HOST = "shop.example.test";
    public static final String START = "http://" + HOST + "/";
    public static final String PRIVATE_PAGE = "/private/pricing-draft.html";
    static final String EXTERNAL = "http://tracker.example.net/pixel";

    /** One request as the server saw it. */
    public record Hit(String path, long nanos) {}

    private final Map<String, Duration> delays;
    private final HttpServer server;
    private final List<Hit> hits = new ArrayList<>();
    private final List<String> lookups = new ArrayList<>();

    public LocalWeb() {
        this(Map.of());
    }

    /** A site whose listed paths answer only after a delay (to provoke timeouts). */
    public LocalWeb(Map<String, Duration> delays) {
        this.delays = Map.copyOf(delays);
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new ExampleSetupException("cannot start the local web server on 127.0.0.1: " + e.getMessage(), e);
        }
        server.createContext("/", this::handle);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.start();
    }

    /** Where the made-up host really is. */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /** The crawler's view of the network: {@value #HOST} is this server; no other host exists. Every lookup is logged. */
    public Resolver resolver() {
        return host -> {
            synchronized (this) {
                lookups.add(host);
            }
            return host.equalsIgnoreCase(HOST) ? java.util.Optional.of(address()) : java.util.Optional.empty();
        };
    }

    /** Every host the crawler tried to reach, in order. */
    public synchronized List<String> lookups() {
        return List.copyOf(lookups);
    }

    @Override
    public synchronized void reset() {
        hits.clear();
        lookups.clear();
    }

    /** Every request received, in order. */
    public synchronized List<Hit> hits() {
        return List.copyOf(hits);
    }

    @Override
    public synchronized JsonNode snapshot() {
        ObjectNode state = Json.object();
        ArrayNode paths = state.putArray("requests");
        hits.forEach(h -> paths.add(h.path()));
        ArrayNode hosts = state.putArray("lookups");
        lookups.forEach(hosts::add);
        return state;
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath()
                + (exchange.getRequestURI().getRawQuery() == null ? "" : "?" + exchange.getRequestURI().getRawQuery());
        synchronized (this) {
            hits.add(new Hit(path, System.nanoTime()));
        }
        try (exchange) {
            Duration delay = delays.get(path);
            if (delay != null) {
                try {
                    Thread.sleep(delay);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
            String body = SitePages.PAGES.get(path);
            int status = body == null ? 404 : 200;
            String contentType = path.endsWith(".txt") ? "text/plain; charset=utf-8" : "text/html; charset=utf-8";
            byte[] bytes = (body == null ? "<html><body><h1>Not found</h1></body></html>" : body).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** Maps host names to addresses: the crawler's DNS. */
    @FunctionalInterface
    public interface Resolver {
        java.util.Optional<InetSocketAddress> resolve(String host);
    }
}
