/**
 * Context management: {@link dev.rein.context.ContextPolicy} (tool output truncation, clearing of
 * old tool results, compaction, client- or server-side), the out-of-band
 * {@link dev.rein.context.OutputStore}, and token estimation. The edits are applied by
 * {@code dev.rein.internal.context}, which checks each one against the history's invariants.
 */
package dev.rein.context;
