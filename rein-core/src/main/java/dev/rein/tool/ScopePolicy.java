package dev.rein.tool;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decides whether the run's principal may make a call. The default requires every scope the tool
 * declares ({@link Tool#requiredScopes()}). Write your own to check tenants or single resources,
 * for example that the order id in the arguments belongs to the principal's tenant.
 */
@FunctionalInterface
public interface ScopePolicy {
    /** Every required scope must be granted. */
    ScopePolicy REQUIRED_SCOPES = (principal, tool, arguments) -> {
        if (tool.requiredScopes().isEmpty() || principal.scopes().containsAll(tool.requiredScopes())) {
            return Optional.empty(); // nothing missing: no set to build per call
        }
        Set<String> missing = new TreeSet<>(tool.requiredScopes());
        missing.removeAll(principal.scopes());
        return missing.isEmpty() ? Optional.empty()
                : Optional.of("tool '" + tool.name() + "' requires the scope(s) " + missing + ", which user '"
                        + principal.user() + "' of tenant '" + principal.tenant() + "' does not have");
    };

    /**
     * Why the call is denied, or empty when it is allowed. Never null, and it must not throw: either
     * ends the run {@code FAILED/internal_error} naming this policy, and the call is not run.
     *
     * @param arguments the arguments, already validated against the tool's schema
     */
    Optional<String> deny(Principal principal, Tool tool, JsonNode arguments);
}
