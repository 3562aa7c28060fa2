package dev.rein.examples.code;

import dev.rein.tool.ErrorClass;
import dev.rein.tool.ToolInterceptor;
import dev.rein.tool.ToolInvocation;
import dev.rein.tool.ToolOutcome;
import dev.rein.tool.ToolResult;
import java.nio.file.Path;

/**
 * An executor stage that keeps the agent's hands off the tests: "done when the tests pass" is an
 * objective check only if the agent cannot change the tests. An edit under {@code tests/} is
 * refused as permission denied before the tool runs.
 */
final class ProtectedPaths implements ToolInterceptor {
    static final String PROTECTED = "tests/";

    private final Path root;

    /** @param root the workspace whose tests are protected */
    ProtectedPaths(Path root) {
        this.root = root;
    }

    @Override
    public ToolOutcome intercept(ToolInvocation invocation, Chain chain) throws InterruptedException {
        if (invocation.tool().name().equals(CodeTools.EDIT_FILE)) {
            String path = invocation.call().arguments().path("path").asText();
            // The same normalisation the tools use: ././tests/x, .//tests/x and src/../tests/x are tests/x.
            if (protectedPath(path)) {
                return ToolOutcome.of(ToolResult.error(invocation.call(), ErrorClass.PERMISSION_DENIED, "Permission denied: '" + path
                        + "' is a test file; the tests define when the work is done, so they cannot be edited. Change the"
                        + " code under src/ instead."));
            }
        }
        return chain.proceed(invocation);
    }

    private boolean protectedPath(String path) {
        try {
            return WorkspacePaths.isUnder(root, path, PROTECTED.substring(0, PROTECTED.length() - 1));
        } catch (IllegalArgumentException e) {
            return false; // not a path inside the project at all: the tool refuses it with its own message
        }
    }
}
