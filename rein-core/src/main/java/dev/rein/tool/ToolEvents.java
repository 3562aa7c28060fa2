package dev.rein.tool;

import java.time.Duration;

/**
 * What the executor's stages report while they work, for the trace and the audit log. Every
 * method defaults to doing nothing; implementations must not throw.
 */
public interface ToolEvents {
    ToolEvents NONE = new ToolEvents() {};

    /** Attempt {@code attempt} of a call failed transiently and will be tried again after {@code delay}. */
    default void retrying(ToolInvocation invocation, int attempt, ToolResult failed, Duration delay) {}

    /**
     * A security-relevant event about one call (a secret masked in its output, a replayed
     * side effect...). {@code kind} is a short machine-readable name. For a call of a tool the run does not have (a
     * secret masked in the name the model gave), {@code invocation.tool()} is a stand-in named {@code unknown_tool}, never
     * called; {@code invocation.call().name()} is the name as given.
     */
    default void audit(ToolInvocation invocation, String kind, String detail) {}
}
