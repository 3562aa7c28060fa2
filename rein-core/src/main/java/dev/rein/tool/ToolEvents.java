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
     * A security-relevant event about one call (a secret masked in its output, a replayed side effect...) whose tool the
     * run has. {@code kind} is a short machine-readable name. By default this is handed on to
     * {@link #audit(ToolCall, ToolContext, String, String)}, which every audit event reaches as long as this form is
     * not overridden without calling this default ({@code ToolEvents.super.audit(...)}): override that form to see them
     * all, this one for those of a tool the run has only.
     */
    default void audit(ToolInvocation invocation, String kind, String detail) {
        audit(invocation.call(), invocation.context(), kind, detail);
    }

    /**
     * A security-relevant event about one call, whether or not the run has a tool of its name. The executor calls this
     * form directly for a call of a tool the run does not have (a secret masked in the name the model gave), where there
     * is no tool to name: {@code call.name()} is the name as the model gave it; every other event comes through
     * {@link #audit(ToolInvocation, String, String)}. {@code kind} is a short machine-readable name.
     */
    default void audit(ToolCall call, ToolContext context, String kind, String detail) {}
}
