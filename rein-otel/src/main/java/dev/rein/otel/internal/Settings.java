package dev.rein.otel.internal;

/**
 * What every span of a {@code ReinTelemetry} shares; {@code agentId}, {@code agentDescription},
 * {@code agentVersion}, {@code providerName}, {@code defaultProviderName} and {@code serverAddress} may be null
 * (not given). {@code providerName} names every span's provider; {@code defaultProviderName} only where the model
 * names none.
 */
public record Settings(String agentName, String agentId, String agentDescription, String agentVersion, String providerName,
                       String defaultProviderName, String serverAddress, int serverPort, boolean captureContent) {
    /** The configured server, null when none was: then each chat span takes its model's. */
    public Server server() {
        return serverAddress == null ? null : new Server(serverAddress, serverPort);
    }
}
