/** Internals of {@code rein-mcp}: the config parser, the stdio transport, connections and tool adapters. Not API. */
package dev.rein.mcp.internal;
