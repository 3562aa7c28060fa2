package dev.rein.replay;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.tool.ErrorClass;
import dev.rein.tool.Risk;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolInterceptor;
import dev.rein.tool.ToolInvocation;
import dev.rein.tool.ToolOutcome;
import dev.rein.tool.ToolResult;
import java.time.Duration;

/** Answers each tool call with its recorded result (by call id), so no side effect runs again. */
final class RecordedTools implements ToolInterceptor {
    private final Recording recording;
    private final boolean liveReadTools;

    RecordedTools(Recording recording, boolean liveReadTools) {
        this.recording = recording;
        this.liveReadTools = liveReadTools;
    }

    @Override
    public ToolOutcome intercept(ToolInvocation invocation, Chain chain) throws InterruptedException {
        ToolCall call = invocation.call();
        if (liveReadTools && invocation.tool().risk() == Risk.READ) {
            return chain.proceed(invocation);
        }
        JsonNode r = recording.toolResults().get(call.id());
        if (r == null) {
            return ToolOutcome.of(new ToolResult(call.id(), call.name(), "[rein replay] the recording has no result for this call; it was"
                    + " not run", true, ErrorClass.EXECUTION_FAILED, null, invocation.context().clock().instant(), Duration.ZERO,
                    null, true));
        }
        return ToolOutcome.of(new ToolResult(call.id(), call.name(), r.path("content").asText(), r.path("is_error").asBoolean(),
                errorClass(r.path("error_class").asText()), r.hasNonNull("source") ? r.get("source").asText() : null,
                invocation.context().clock().instant(), Duration.ofMillis(r.path("duration_millis").asLong()), null,
                r.path("rein_message").asBoolean(false)));
    }

    private static ErrorClass errorClass(String name) {
        try {
            return name.isEmpty() ? ErrorClass.NONE : ErrorClass.valueOf(name);
        } catch (IllegalArgumentException e) {
            return ErrorClass.EXECUTION_FAILED;
        }
    }
}
