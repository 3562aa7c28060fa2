package dev.rein.mcp;

import dev.rein.tool.Risk;

/**
 * What Rein made of one MCP tool, for listings ({@code rein mcp list}) and audits.
 *
 * @param server         the server's name in the configuration
 * @param name           the Rein tool name the model sees (the server's name, with the server's prefix)
 * @param mcpName        the tool's name on the server
 * @param description    the server's description
 * @param derivedRisk    the risk the annotations give
 * @param risk           the risk Rein applies (the derived one or a configured override); after the server lists
 *                       its tools again, never looser than the risk the tool or its Rein name was offered with, unless the server has
 *                       {@code trust} (so it may then be stricter than {@code derivedRisk})
 * @param overridden     true when a configured override set {@code risk}
 * @param idempotentHint the server's {@code idempotentHint}, or null when absent
 */
public record McpToolInfo(String server, String name, String mcpName, String description, Risk derivedRisk, Risk risk,
                          boolean overridden, Boolean idempotentHint) {}
