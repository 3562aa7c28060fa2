package dev.rein.examples.code;

import dev.rein.tool.ErrorClass;
import dev.rein.tool.ToolInterceptor;
import dev.rein.tool.ToolInvocation;
import dev.rein.tool.ToolResult;

/**
 * An executor stage that keeps the agent's hands off the tests: "done when the tests pass" is an
 * objective check only if the agent cannot change the tests. An edit under {@code tests/} is
 * refused as permission denied before the tool runs.
 */
final class ProtectedPaths implements ToolInterceptor {
    static final String PROTECTED = "tests/";

    @Override
    public ToolResult intercept(ToolInvocation invocation, Chain chain) throws InterruptedException {
        if (invocation.tool().name().equals(CodeTools.EDIT_FILE)) {
            String path = invocation.call().arguments().path("path").asText().strip();
            String normal = path.startsWith("./") ? path.substring(2) : path;
            if (normal.startsWith(PROTECTED) || normal.contains("/../") || normal.startsWith("../")) {
                return ToolResult.error(invocation.call(), ErrorClass.PERMISSION_DENIED, "Permission denied: '" + path
                        + "' is a test file; the tests define when the work is done, so they cannot be edited. Change the"
                        + " code under src/ instead.");
            }
        }
        return chain.proceed(invocation);
    }
}
