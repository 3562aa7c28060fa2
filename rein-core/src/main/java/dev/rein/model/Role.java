package dev.rein.model;

/** Who authored a message in the conversation. */
public enum Role {
    USER,
    ASSISTANT
}
