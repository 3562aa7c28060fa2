package dev.rein.model;

import java.util.List;

/**
 * The request option carrying context edits the provider should apply server-side, set by the
 * agent from its context policy. Providers without server-side context management ignore it, so
 * choose client-side clearing and compaction for them.
 */
public record ServerContextEdits(List<ServerContextEdit> edits) implements ModelOption {
    public ServerContextEdits {
        edits = List.copyOf(edits);
    }
}
