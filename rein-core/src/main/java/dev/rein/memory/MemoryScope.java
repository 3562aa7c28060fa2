package dev.rein.memory;

import dev.rein.tool.Principal;
import java.util.Objects;

/**
 * Whose memory: a tenant and a user in it. Every read and write of a {@link MemoryStore} names one;
 * the memory tools take it from the run's principal, never from the model's arguments.
 */
public record MemoryScope(String tenant, String user) {
    public MemoryScope {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(user, "user");
        if (tenant.isBlank() || user.isBlank()) {
            throw new IllegalArgumentException("a memory scope needs a tenant and a user, was '" + tenant + "' / '" + user + "'");
        }
    }

    public static MemoryScope of(Principal principal) {
        return new MemoryScope(principal.tenant(), principal.user());
    }
}
