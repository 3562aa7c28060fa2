package dev.rein.tool;

import java.util.Objects;
import java.util.Set;

/** On whose behalf a run acts: a user, a tenant and the scopes granted to them. */
public record Principal(String user, String tenant, Set<String> scopes) {
    /** No user, no tenant, no scopes. */
    public static final Principal ANONYMOUS = new Principal("anonymous", "default", Set.of());

    public Principal {
        Objects.requireNonNull(user, "user");
        Objects.requireNonNull(tenant, "tenant");
        scopes = Set.copyOf(scopes);
    }

    public boolean hasScope(String scope) {
        return scopes.contains(scope);
    }
}
