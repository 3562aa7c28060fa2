/**
 * The Anthropic Messages API as a Rein {@link dev.rein.model.Model}: {@link dev.rein.anthropic.AnthropicModel}.
 * Everything else in this package is internal: the HTTP transport on the JDK client, the request
 * writer, the event-stream reader and the translation between Rein's provider-neutral types and
 * the wire format; no provider type appears in Rein's core API.
 */
package dev.rein.anthropic;
