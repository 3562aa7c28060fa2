package dev.rein.otel.internal;

/** What every span of a {@code ReinTelemetry} shares; {@code providerName} and {@code serverAddress} may be null. */
public record Settings(String agentName, String providerName, String serverAddress, int serverPort, boolean captureContent) {}
