package dev.rein.tool;

/** What a tool can do to the world; the approval policy decides per risk. */
public enum Risk {
    /** Reads only; safe to repeat. */
    READ,
    /** Changes state that can be changed back. */
    WRITE,
    /** Changes state that cannot be undone (payments, sent mail, deletions). */
    IRREVERSIBLE
}
