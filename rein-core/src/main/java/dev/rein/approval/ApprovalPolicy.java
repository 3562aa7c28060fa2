package dev.rein.approval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.tool.Principal;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import java.util.Set;

/**
 * Decides which proposed calls need a person's approval before they run. It looks only at the
 * tool, the validated arguments and the principal, never at anything the model or a tool output
 * says, so an observation cannot talk its way past it.
 */
@FunctionalInterface
public interface ApprovalPolicy {
    /** The default: every WRITE and IRREVERSIBLE call needs approval; reads run freely. */
    ApprovalPolicy SIDE_EFFECTS = (tool, arguments, principal) -> tool.risk() != Risk.READ;

    /** Only IRREVERSIBLE calls need approval. */
    ApprovalPolicy IRREVERSIBLE_ONLY = (tool, arguments, principal) -> tool.risk() == Risk.IRREVERSIBLE;

    /** No call needs approval (trusted automation and tests). */
    ApprovalPolicy NEVER = (tool, arguments, principal) -> false;

    /** Every call needs approval, reads included. */
    ApprovalPolicy ALWAYS = (tool, arguments, principal) -> true;

    /** Calls of the named tools need approval, whatever their risk. */
    static ApprovalPolicy tools(String... names) {
        Set<String> set = Set.of(names);
        return (tool, arguments, principal) -> set.contains(tool.name());
    }

    /** True when this call must wait for a decision. */
    boolean requiresApproval(Tool tool, JsonNode arguments, Principal principal);

    /** Approval when either policy asks for it. */
    default ApprovalPolicy or(ApprovalPolicy other) {
        return (tool, arguments, principal) -> requiresApproval(tool, arguments, principal)
                || other.requiresApproval(tool, arguments, principal);
    }
}
