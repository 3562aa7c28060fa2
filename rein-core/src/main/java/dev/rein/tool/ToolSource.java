package dev.rein.tool;

import java.util.List;

/**
 * Tools that may change while an agent exists, such as the tools of an MCP server that announces
 * a new tool list. Give it to {@code Agent.Builder.toolSource}: before each model request a run
 * asks {@link #version()} and re-reads {@link #tools()} only when the version changed, so the
 * request offers the current tools and the executor gates calls with them (schema, risk,
 * approval, scopes, limits), exactly as for tools given once.
 *
 * <p>Implementations must be thread-safe: runs read them from their own threads.
 */
public interface ToolSource {
    /**
     * A value that changes whenever {@link #tools()} would return something different. Called
     * once per model request of every run, so it must be cheap (a volatile read).
     */
    long version();

    /** The tools offered now; their names must be unique within the source. */
    List<Tool> tools();
}
