package dev.rein.tool;

import dev.rein.json.Json;
import java.util.List;

/**
 * Refuses arguments that are too large or do not fit the tool's input schema, before anything
 * else looks at them.
 */
final class ArgumentValidation implements ToolInterceptor {
    private final int maxArgumentBytes;

    ArgumentValidation(int maxArgumentBytes) {
        this.maxArgumentBytes = maxArgumentBytes;
    }

    @Override
    public ToolOutcome intercept(ToolInvocation invocation, Chain chain) throws InterruptedException {
        int depth = Json.depth(invocation.call().arguments());
        if (depth > ToolExecutor.MAX_ARGUMENT_DEPTH) {
            return ToolOutcome.of(ToolResult.reinError(invocation.call(), ErrorClass.INVALID_ARGUMENTS, "The arguments for tool '"
                    + invocation.tool().name() + "' are nested " + depth + " levels deep, over the limit of "
                    + ToolExecutor.MAX_ARGUMENT_DEPTH + " levels. The tool was not called. Call it again with flat arguments"
                    + " matching its JSON schema."));
        }
        long size = Utf8Length.ofJson(invocation.call().arguments());
        if (size > maxArgumentBytes) {
            return ToolOutcome.of(ToolResult.reinError(invocation.call(), ErrorClass.INVALID_ARGUMENTS, "The arguments for tool '"
                    + invocation.tool().name() + "' are " + size + " bytes, over the limit of " + maxArgumentBytes
                    + " bytes. The tool was not called. Pass a reference (a file name, an id) instead of the data itself."));
        }
        List<String> problems = invocation.tool().validationProblems(invocation.call().arguments());
        if (problems.isEmpty()) {
            return chain.proceed(invocation);
        }
        String message = "Invalid arguments for tool '" + invocation.tool().name() + "': "
                + String.join("; ", problems)
                + ". The tool was not called. Call it again with arguments matching this JSON schema: "
                + Json.write(invocation.tool().definition().inputSchema());
        return ToolOutcome.of(ToolResult.reinError(invocation.call(), ErrorClass.INVALID_ARGUMENTS, message));
    }
}
