package dev.rein.memory;

import dev.rein.ReinException;
import dev.rein.tool.Principal;

/**
 * Whose memory: a tenant and a user in it. Every read and write of a {@link MemoryStore} names one;
 * the memory tools take it from the run's principal, never from the model's arguments.
 *
 * @throws ReinException when the tenant or the user is null or blank
 */
public record MemoryScope(String tenant, String user) {
    public MemoryScope {
        for (String[] part : new String[][] {{"tenant", tenant}, {"user", user}}) {
            if (part[1] == null || part[1].isBlank()) {
                throw new ReinException((part[1] == null ? "a memory scope was given no " + part[0] + " (null)"
                        : "a memory scope's " + part[0] + " is blank ('" + part[1] + "')")
                        + ": give the tenant and the user whose memory it is, e.g. MemoryScope.of(principal)"
                        + " or new MemoryScope(\"acme\", \"alice\")");
            }
        }
    }

    public static MemoryScope of(Principal principal) {
        return new MemoryScope(principal.tenant(), principal.user());
    }
}
