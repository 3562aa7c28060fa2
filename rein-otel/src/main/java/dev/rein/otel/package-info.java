/**
 * OpenTelemetry for Rein: runs as GenAI spans ({@code invoke_agent}, {@code chat},
 * {@code execute_tool}) and metrics, through {@link dev.rein.otel.ReinTelemetry}. Depends on the
 * OpenTelemetry API only; the application supplies the SDK and exporters.
 */
package dev.rein.otel;
