package dev.rein.approval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.ReinException;
import dev.rein.tool.Principal;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import java.util.Collections;
import java.util.LinkedHashSet;
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

    /**
     * Calls of the named tools need approval, whatever their risk; calls of other tools do not. An
     * agent built with a name that is none of its tools is refused (see {@link #namedTools()}), since
     * a misspelt name would let the real tool run without approval.
     */
    static ApprovalPolicy tools(String... names) {
        Set<String> set = new LinkedHashSet<>();
        for (String name : names) {
            if (name == null) {
                throw new ReinException("ApprovalPolicy.tools was given a null tool name: name each tool whose calls need approval");
            }
            set.add(name); // a name given twice is meant once
        }
        Set<String> named = Collections.unmodifiableSet(set);
        return new ApprovalPolicy() {
            @Override
            public boolean requiresApproval(Tool tool, JsonNode arguments, Principal principal) {
                return named.contains(tool.name());
            }

            @Override
            public Set<String> namedTools() {
                return named;
            }
        };
    }

    /**
     * True when this call must wait for a decision. It must not throw: one that does ends the run
     * {@code FAILED/internal_error} naming this policy, and the call is not run.
     */
    boolean requiresApproval(Tool tool, JsonNode arguments, Principal principal);

    /**
     * The tool names this policy decides by, which the agent checks against its tools when it is
     * built: {@link #tools(String...)}'s names (also inside {@link #or}); empty for a policy that
     * decides by risk or by its own logic.
     */
    default Set<String> namedTools() {
        return Set.of();
    }

    /** Approval when either policy asks for it. */
    default ApprovalPolicy or(ApprovalPolicy other) {
        ApprovalPolicy first = this;
        Set<String> named = new LinkedHashSet<>(first.namedTools());
        named.addAll(other.namedTools());
        Set<String> both = Collections.unmodifiableSet(named);
        return new ApprovalPolicy() {
            @Override
            public boolean requiresApproval(Tool tool, JsonNode arguments, Principal principal) {
                return first.requiresApproval(tool, arguments, principal) || other.requiresApproval(tool, arguments, principal);
            }

            @Override
            public Set<String> namedTools() {
                return both;
            }
        };
    }
}
