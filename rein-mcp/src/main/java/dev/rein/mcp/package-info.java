/**
 * MCP servers as governed Rein tools: {@link dev.rein.mcp.McpConfig} reads the
 * {@code {"mcpServers": {...}}} file, {@link dev.rein.mcp.McpToolset} starts the servers and
 * offers their tools, {@link dev.rein.mcp.McpRisk} maps annotations to a risk, safe by default.
 * Everything in {@code dev.rein.mcp.internal} may change without notice.
 */
package dev.rein.mcp;
