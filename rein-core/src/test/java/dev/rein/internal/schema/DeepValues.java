package dev.rein.internal.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Values too deep for the schema validator's stack, and a thread with a small stack to check them on: the tests of what
 * an overflow is blamed on (the value, or a schema that loops) for an output schema and a tool's input schema.
 */
public final class DeepValues {
    /** A schema whose property {@code n} is an object of the same schema or an integer, at any depth. */
    public static final String DEEP_SCHEMA = "{\"$defs\":{\"n\":{\"type\":[\"object\",\"integer\"],\"properties\":{\"n\":"
            + "{\"$ref\":\"#/$defs/n\"}}}},\"type\":\"object\",\"properties\":{\"n\":{\"$ref\":\"#/$defs/n\"}}}";

    /**
     * Deep enough that the validator runs out of any stack a test thread gets: 900 levels overflowed a 256 KiB stack in
     * one JVM and fit in another (compiled frames are smaller), so the check's outcome depended on the JIT.
     */
    public static final int OVERFLOWING_DEPTH = 20_000;

    private DeepValues() {}

    /** {@code {"n": {"n": ... 1}}}, {@code levels} objects deep, built without a parser's nesting limit. */
    public static JsonNode deepNode(int levels) {
        JsonNode node = IntNode.valueOf(1);
        for (int i = 0; i < levels; i++) {
            ObjectNode outer = JsonNodeFactory.instance.objectNode();
            outer.set("n", node);
            node = outer;
        }
        return node;
    }

    /**
     * {@code check} run on a thread with a small stack (256 KiB), so the validator surely runs out of it; what the check
     * threw comes back as the cause of an {@link AssertionError}.
     */
    public static <T> T onSmallStack(Callable<T> check) throws Exception {
        AtomicReference<Object> out = new AtomicReference<>();
        Thread thread = new Thread(null, () -> {
            try {
                out.set(check.call());
            } catch (Throwable t) {
                out.set(t);
            }
        }, "small-stack", 256 * 1024);
        thread.start();
        thread.join();
        if (out.get() instanceof Throwable t) {
            throw new AssertionError("the check threw " + t, t);
        }
        @SuppressWarnings("unchecked")
        T result = (T) out.get();
        return result;
    }
}
