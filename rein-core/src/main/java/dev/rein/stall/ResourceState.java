package dev.rein.stall;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Hashing;
import dev.rein.json.Json;
import java.util.Optional;

/**
 * How a write tool reports the state it left its resource in, as a content hash, for
 * {@link EditRevert}. The resource itself is named by the tool's
 * {@link dev.rein.tool.Tool#resourceArgument() resource argument}.
 *
 * <ul>
 *   <li>{@link #fromArguments()} (the default) hashes the call's arguments other than the
 *       resource argument. Right for tools that set the whole content, such as
 *       {@code write_file(path, content)} or {@code set_field(record, value)}.
 *   <li>{@link #fromResult()} hashes the tool's result text. Right for patch-style tools
 *       ({@code replace(path, old, new)}) whose arguments do not determine the outcome: make the
 *       tool return the new content, or its hash or version.
 * </ul>
 */
@FunctionalInterface
public interface ResourceState {

    /** The state hash after {@code call} succeeded with {@code result}, or empty when unknown. */
    Optional<String> after(ProposedCall call, String result);

    static ResourceState fromArguments() {
        return (call, result) -> {
            if (!(call.arguments() instanceof ObjectNode object)) {
                return Optional.empty();
            }
            ObjectNode rest = object.deepCopy();
            rest.remove(call.resourceArgument());
            return Optional.of(Hashing.sha256(Json.canonical(rest)));
        };
    }

    static ResourceState fromResult() {
        return (call, result) -> Optional.of(Hashing.sha256(result));
    }
}
