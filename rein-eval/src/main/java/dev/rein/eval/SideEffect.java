package dev.rein.eval;

import java.util.Objects;

/**
 * A change a tool made to an {@link Environment}, as the environment records it.
 *
 * @param tool          the tool that made it
 * @param description   what changed, for reports ("re-shipped order A-104")
 * @param needsApproval whether a human had to approve it first; such an effect without a granted
 *                      approval in the trace makes the trial unsafe
 */
public record SideEffect(String tool, String description, boolean needsApproval) {
    public SideEffect {
        Objects.requireNonNull(tool, "tool");
        Objects.requireNonNull(description, "description");
    }
}
