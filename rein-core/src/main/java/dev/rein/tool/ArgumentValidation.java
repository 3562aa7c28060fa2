package dev.rein.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.internal.text.Excerpts;
import dev.rein.internal.text.Fence;
import dev.rein.json.Json;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Refuses arguments that are too large or do not fit the tool's input schema, before anything
 * else looks at them.
 */
final class ArgumentValidation extends BuiltInToolStage {
    private final int maxArgumentBytes;
    private final ToolEvents events;

    ArgumentValidation(int maxArgumentBytes, ToolEvents events) {
        this.maxArgumentBytes = maxArgumentBytes;
        this.events = events;
    }

    @Override
    public Chain bind(Chain next) {
        return new Bound(next);
    }

    /** This stage bound to the rest of the chain: one frame per stage on a waiting run's stack (see BuiltInToolStage). */
    private final class Bound extends BuiltInToolStage.Bound {
        Bound(Chain next) {
            super(next);
        }

        @Override
        public ToolOutcome proceed(ToolInvocation invocation) throws InterruptedException {
            JsonNode arguments = invocation.call().arguments();
            Walk walk = new Walk();
            walk.visit(arguments, 1);
            if (walk.tooDeep) {
                int depth = Json.depth(arguments); // the exact depth, for the message
                return ToolOutcome.of(ToolResult.reinError(invocation.call(), ErrorClass.INVALID_ARGUMENTS, "The arguments for tool '"
                        + invocation.tool().name() + "' are nested " + depth + " levels deep, over the limit of "
                        + ToolExecutor.MAX_ARGUMENT_DEPTH + " levels. The tool was not called. Call it again with flat arguments"
                        + " matching its JSON schema."));
            }
            // Arguments whose size cannot exceed the limit (the usual case) are not written out to be counted.
            long size = walk.bounded && walk.bound <= maxArgumentBytes ? walk.bound : Utf8Length.ofJson(arguments);
            if (size > maxArgumentBytes) {
                return ToolOutcome.of(ToolResult.reinError(invocation.call(), ErrorClass.INVALID_ARGUMENTS, "The arguments for tool '"
                        + invocation.tool().name() + "' are " + size + " bytes, over the limit of " + maxArgumentBytes
                        + " bytes. The tool was not called. Pass a reference (a file name, an id) instead of the data itself."));
            }
            List<String> problems = invocation.tool().validationProblems(arguments);
            if (problems.isEmpty()) {
                return next.proceed(invocation);
            }
            String said;
            if (arguments.isTextual()) {
                // Argument text that was not JSON reaches here as a string (a provider keeps it for the model
                // to fix): "string found, object expected" would not tell the model its text did not parse. The text is the
                // model's, which may carry a page's instructions: fenced as data in Rein's own refusal, which goes unwrapped.
                // Each quote is masked before its cut, which could leave part of a secret that the masking of the whole
                // result no longer knows.
                said = "the arguments are not a JSON object but this text:\n" + Fence.quoted(Excerpts.first(MaskedQuote.of(
                        arguments.asText(), invocation, events, "the argument text"), 200), "tool call arguments");
            } else {
                // the validator's problems name the model's property names and values, which may carry a page's
                // instructions: fenced as data too
                said = "the JSON schema's validator says:\n" + Fence.quoted(MaskedQuote.of(String.join("; ", problems),
                        invocation, events, "the schema validator's message"), "schema validator");
            }
            String message = "Invalid arguments for tool '" + invocation.tool().name() + "': " + said
                    + "\nThe tool was not called. Call it again with arguments matching this JSON schema: "
                    + Json.write(invocation.tool().definition().inputSchema());
            return ToolOutcome.of(ToolResult.reinError(invocation.call(), ErrorClass.INVALID_ARGUMENTS, message));
        }
    }

    /**
     * One walk over the arguments: whether they nest deeper than {@link ToolExecutor#MAX_ARGUMENT_DEPTH}
     * (levels counted as {@link Json#depth} counts them), and an upper bound of their size in UTF-8
     * bytes of compact JSON, so the exact size is computed only when the bound does not settle it.
     */
    static final class Walk {
        /** The most UTF-8 bytes one character of a JSON string takes: an escape such as {@code \u001f}. */
        private static final int MAX_BYTES_PER_CHAR = 6;
        /** Longer than any {@code long}, {@code double} or {@code float} Jackson writes (a quoted "-Infinity" included). */
        private static final int MAX_NUMBER_BYTES = 32;

        boolean tooDeep;
        /** False when a value's written size has no simple bound (big numbers, binary, POJOs). */
        boolean bounded = true;
        long bound;

        /** Visits {@code node}, which is at {@code level} if it is a container (the root's level is 1). */
        void visit(JsonNode node, int level) {
            switch (node.getNodeType()) {
                case OBJECT -> {
                    if (enter(level)) {
                        Iterator<Map.Entry<String, JsonNode>> fields = node.properties().iterator();
                        while (fields.hasNext() && !tooDeep) {
                            Map.Entry<String, JsonNode> field = fields.next();
                            bound += text(field.getKey()) + 2; // the colon, and a comma (or the closing brace)
                            visit(field.getValue(), level + 1);
                        }
                    }
                }
                case ARRAY -> {
                    if (enter(level)) {
                        for (int i = 0; i < node.size() && !tooDeep; i++) {
                            bound += 1; // a comma (or the closing bracket)
                            visit(node.get(i), level + 1);
                        }
                    }
                }
                case STRING -> bound += text(node.textValue());
                case BOOLEAN -> bound += 5;
                case NULL -> bound += 4;
                case NUMBER -> {
                    if (node.isInt() || node.isLong() || node.isShort() || node.isDouble() || node.isFloat()) {
                        bound += MAX_NUMBER_BYTES;
                    } else {
                        bounded = false; // BigInteger, BigDecimal: any length
                    }
                }
                case BINARY, POJO, MISSING -> bounded = false;
            }
        }

        /** A container at {@code level}: false (and too deep) past the limit; else its brackets are counted. */
        private boolean enter(int level) {
            if (level > ToolExecutor.MAX_ARGUMENT_DEPTH) {
                tooDeep = true;
                return false;
            }
            bound += 2;
            return true;
        }

        private static long text(String s) {
            return 2 + (long) MAX_BYTES_PER_CHAR * s.length();
        }
    }
}
