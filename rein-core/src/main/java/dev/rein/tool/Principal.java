package dev.rein.tool;

import dev.rein.ReinException;
import java.util.Objects;
import java.util.Set;

/** On whose behalf a run acts: a user, a tenant and the scopes granted to them. */
public record Principal(String user, String tenant, Set<String> scopes) {
    /** No user, no tenant, no scopes. */
    public static final Principal ANONYMOUS = new Principal("anonymous", "default", Set.of());

    public Principal {
        if (user == null || tenant == null) {
            throw new ReinException("a Principal was given no " + (user == null ? "user" : "tenant") + " (null): pass the user"
                    + " and the tenant the run acts for, e.g. new Principal(\"alice\", \"acme\", Set.of(\"orders:read\"))");
        }
        if (scopes == null || scopes.stream().anyMatch(Objects::isNull)) { // not contains(null): Set.of refuses to be asked
            throw new ReinException("the Principal of user '" + user + "' was given " + (scopes == null ? "no scopes (null)" : "a null scope")
                    + ": pass the scopes granted, or Set.of() for none");
        }
        scopes = Set.copyOf(scopes);
    }

    public boolean hasScope(String scope) {
        return scopes.contains(scope);
    }
}
