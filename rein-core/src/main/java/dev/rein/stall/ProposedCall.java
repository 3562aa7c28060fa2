package dev.rein.stall;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.ReinException;
import dev.rein.json.Hashing;
import dev.rein.json.Json;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import java.util.Optional;

/**
 * A tool call as the stall detectors see it: the proposed call plus what its tool declares
 * (polling, risk, resource argument). {@code key} identifies (tool, canonical arguments): key
 * order and whitespace in the arguments do not change it.
 *
 * @param step     the run step that proposed the call
 * @param polling  the tool declared itself a status-polling tool
 * @param risk     the tool's risk, or null when the tool is unknown
 * @param resourceArgument the argument naming the resource a write changes, or null
 */
public record ProposedCall(String callId, String tool, JsonNode arguments, String key, int step, boolean polling,
                           Risk risk, String resourceArgument) {
    /** @throws ReinException when the call id, the tool name, the arguments or the key is null, naming it */
    public ProposedCall {
        requireArguments(callId, tool, arguments);
        if (key == null) {
            throw new ReinException("proposed call " + callId + " (" + tool + ") was given no key (null): build it with"
                    + " ProposedCall.of(callId, toolName, arguments, tool, step), which computes the key");
        }
    }

    /**
     * A call of {@code tool} (null when no tool of that name exists) proposed at {@code step}.
     *
     * @throws ReinException when the call id, the tool name or the arguments are null, naming it
     */
    public static ProposedCall of(String callId, String toolName, JsonNode arguments, Tool tool, int step) {
        requireArguments(callId, toolName, arguments); // before the key is computed from them
        String key = Hashing.sha256(toolName + "\n" + Json.canonical(arguments));
        return tool == null
                ? new ProposedCall(callId, toolName, arguments, key, step, false, null, null)
                : new ProposedCall(callId, toolName, arguments, key, step, tool.polling(), tool.risk(), tool.resourceArgument());
    }

    private static void requireArguments(String callId, String tool, JsonNode arguments) {
        if (callId == null) {
            throw new ReinException("a proposed call was given no callId (null): give the id of the model's tool call");
        }
        if (tool == null) {
            throw new ReinException("proposed call " + callId + " was given no tool (null): give the name of the tool called");
        }
        if (arguments == null) {
            throw new ReinException("proposed call " + callId + " (" + tool + ") was given no arguments (null): give a JSON"
                    + " object, Json.object() for none");
        }
    }

    /** The resource this call writes, when its tool declares a resource argument and the call sets it. */
    public Optional<String> resource() {
        if (resourceArgument == null) {
            return Optional.empty();
        }
        JsonNode value = arguments.get(resourceArgument);
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        return Optional.of(value.isTextual() ? value.asText() : Json.canonical(value));
    }
}
