package dev.rein.tool;

import dev.rein.ReinException;

/**
 * A tool-chain stage broke the chain's contract (returned null, or changed the call's id or tool,
 * or answered for another call). A programmer error, not the model's: the run ends
 * {@code internal_error} with this message; the model never sees it as a tool error.
 */
public final class ToolChainException extends ReinException {
    public ToolChainException(String message) {
        super(message);
    }
}
