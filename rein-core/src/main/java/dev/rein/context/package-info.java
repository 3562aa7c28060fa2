/**
 * Context management: {@link dev.rein.context.ContextPolicy} (tool output truncation, clearing of
 * old tool results, compaction, client- or server-side), the out-of-band
 * {@link dev.rein.context.OutputStore}, token estimation, and the
 * {@link dev.rein.context.HistoryValidator} every edit must satisfy.
 */
package dev.rein.context;
