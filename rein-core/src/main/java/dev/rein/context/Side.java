package dev.rein.context;

/** Where a context edit is applied. */
public enum Side {
    /** Rein edits the history before sending it (works with any provider; the edit is in the trace). */
    CLIENT,
    /** The provider edits the context on its server; Rein sends the setting ({@link dev.rein.model.ServerContextEdits}). */
    SERVER
}
