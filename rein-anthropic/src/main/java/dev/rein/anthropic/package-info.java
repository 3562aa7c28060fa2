/**
 * The Anthropic Messages API as a Rein {@link dev.rein.model.Model}: {@link dev.rein.anthropic.AnthropicModel}.
 * Everything else in this package is internal translation between Rein's provider-neutral types
 * and the official Anthropic Java SDK; no SDK type appears in Rein's core API.
 */
package dev.rein.anthropic;
