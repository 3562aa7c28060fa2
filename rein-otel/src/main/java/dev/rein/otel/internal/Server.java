package dev.rein.otel.internal;

import java.net.URI;

/**
 * A model API's {@code server.address} and {@code server.port}: the address as the conventions give it (an IPv6
 * address without the brackets a URL puts around it), the port always (the conventions require it with the address).
 */
public record Server(String address, int port) {
    /**
     * The server of {@code baseUrl}: its host and port, the scheme's default port when it gives none (80 for
     * http, else 443); null when there is no URL or it has no host.
     */
    public static Server of(URI baseUrl) {
        if (baseUrl == null || baseUrl.getHost() == null) {
            return null;
        }
        int port = baseUrl.getPort() >= 0 ? baseUrl.getPort() : "http".equalsIgnoreCase(baseUrl.getScheme()) ? 80 : 443;
        return new Server(unbracketed(baseUrl.getHost()), port);
    }

    /** {@code address} without the brackets of a URL's IPv6 address (URI.getHost keeps them). */
    public static String unbracketed(String address) {
        return address != null && address.length() > 2 && address.startsWith("[") && address.endsWith("]")
                ? address.substring(1, address.length() - 1) : address;
    }
}
