package dev.rein.tool;

import dev.rein.json.Json;
import java.util.List;

/** Refuses arguments that do not fit the tool's input schema, before the handler is called. */
final class ArgumentValidation implements ToolInterceptor {
    @Override
    public ToolResult intercept(ToolInvocation invocation, Chain chain) throws InterruptedException {
        List<String> problems = invocation.tool().validationProblems(invocation.call().arguments());
        if (problems.isEmpty()) {
            return chain.proceed(invocation);
        }
        String message = "Invalid arguments for tool '" + invocation.tool().name() + "': "
                + String.join("; ", problems)
                + ". The tool was not called. Call it again with arguments matching this JSON schema: "
                + Json.write(invocation.tool().definition().inputSchema());
        return ToolResult.error(invocation.call(), ErrorClass.INVALID_ARGUMENTS, message);
    }
}
