package dev.rein.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.internal.text.Fence;
import dev.rein.json.Json;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeoutException;

/**
 * The last stage: calls the handler on the current thread (the timeout stage owns the thread and
 * the clock) and turns whatever happens into a normalised {@link ToolResult}.
 */
final class HandlerInvocation extends BuiltInToolStage {
    /** What the model gets for a result whose only content is for the person (README, Tools); Rein's own. */
    static final String USER_ONLY_RESULT = "(the tool returned content for the user only, which is not shown to you)";
    /** What the model gets for an error whose only message is for the person (README, Tools); Rein's own, as the next. */
    static final String USER_ONLY_ERROR = "(the tool reported an error; its message was for the user only)";
    static final String NO_MESSAGE_ERROR = "(the tool reported an error without a message)";
    /** What the model gets for an empty result (README, Tools); Rein's own, as the notes above. */
    static final String EMPTY_RESULT = "(the tool ran successfully; the result was empty)";

    /** The application's interceptors, whose {@link ToolInterceptor#aroundHandler} wrap the call. */
    private final List<ToolInterceptor> around;
    private final ToolEvents events;

    HandlerInvocation(List<ToolInterceptor> around, ToolEvents events) {
        this.around = List.copyOf(around);
        this.events = events;
    }

    @Override
    public Chain bind(Chain next) {
        return new Bound(next);
    }

    /** It catches whatever the handler throws (an Error too) and answers it as the tool's failure. */
    @Override
    public boolean namesOwnFailures() {
        return true;
    }

    /** This stage bound to the rest of the chain: one frame per stage on a waiting run's stack (see BuiltInToolStage). */
    private final class Bound extends BuiltInToolStage.Bound {
        Bound(Chain next) {
            super(next);
        }

        @Override
        public ToolOutcome proceed(ToolInvocation invocation) throws InterruptedException {
            ToolCall call = invocation.call();
            try {
                // the risk of the tool this call runs, also when a stage above gave the invocation a context of its own
                ToolContext context = invocation.context().withRisk(invocation.tool().risk());
                return ToolOutcome.of(normalise(call, handler(invocation).handle(call.arguments(), context)));
            } catch (InterruptedException e) {
                throw e;
            } catch (AnnotatedTools.UnreadableArgument e) {
                // the reader's message quotes the model's value, which may carry a page's instructions: fenced as data in
                // Rein's own refusal, which the model gets unwrapped; masked before the fence's cut, which could leave part
                // of a secret that the masking stage above, which masks the whole result, no longer knows
                String said = MaskedQuote.of(e.getMessage(), invocation, events, "the argument reader's message");
                return ToolOutcome.of(ToolResult.reinError(call, ErrorClass.INVALID_ARGUMENTS, "Invalid arguments for tool '" + call.name()
                        + "': a value does not fit its parameter's type, as the reader of the arguments says, quoting them:\n"
                        + Fence.quoted(said, "argument reader") + "\nThe tool was not called. Call it again with"
                        + " arguments matching this JSON schema: " + Json.write(invocation.tool().definition().inputSchema())));
            } catch (Exception | Error e) {
                // an Error (AssertionError, StackOverflowError, NoClassDefFoundError) is the handler's failure
                // too: caught here, its message passes secret masking and provenance on the way up like any
                // other; caught by the timeout stage above them, the model read a secret in it unmasked
                return ToolOutcome.of(failure(call, e));
            }
        }
    }

    private ToolHandler handler(ToolInvocation invocation) {
        ToolHandler own = invocation.tool().handler();
        Risk risk = invocation.tool().risk();
        // set again inside the wrappers: one that builds a context of its own (the 9-argument constructor) loses it
        ToolHandler withRisk = (arguments, context) -> own.handle(arguments, context.withRisk(risk));
        ToolHandler handler = withRisk;
        for (int i = around.size() - 1; i >= 0; i--) {
            handler = around.get(i).aroundHandler(invocation, handler);
        }
        // No stage wrapped it (the usual case): intercept gave the context the tool's risk, so the handler is called as
        // it is; the wrapper would be two more frames under a handler that blocks, which parks its thread with them
        return handler == withRisk ? own : handler;
    }

    static ToolResult normalise(ToolCall call, Object value) {
        return switch (value) {
            case null -> ToolResult.reinNote(call, EMPTY_RESULT, null);
            // a lookup that found nothing, Optional.empty(), is an empty result as null is; a present value is sent as itself
            case Optional<?> maybe -> normalise(call, maybe.orElse(null));
            // the part for the person rides along; a result with nothing else for the model says so, not "empty" or
            // "without a message" (the message was there, for the person): either note is Rein's words, not the tool's;
            // the success note keeps the tool's source, so strict provenance refuses it when the tool gives none
            case ToolOutput out when out.userContent() != null && out.content().isBlank() -> (out.isError()
                    ? ToolResult.reinError(call, ErrorClass.EXECUTION_FAILED, USER_ONLY_ERROR)
                    : ToolResult.reinNote(call, USER_ONLY_RESULT, out.source())).withUserContent(out.userContent());
            case ToolOutput out when out.userContent() != null ->
                    normalise(call, new ToolOutput(out.content(), out.isError(), out.source())).withUserContent(out.userContent());
            case ToolOutput out when out.content().isBlank() ->
                    out.isError() ? ToolResult.reinError(call, ErrorClass.EXECUTION_FAILED, NO_MESSAGE_ERROR)
                            : ToolResult.reinNote(call, EMPTY_RESULT, out.source());
            case ToolOutput out -> out.isError()
                    ? withSource(ToolResult.error(call, ErrorClass.EXECUTION_FAILED, out.content()), out.source())
                    : ToolResult.success(call, out.content(), out.source());
            case String s when s.isBlank() -> ToolResult.reinNote(call, EMPTY_RESULT, null);
            case String s -> ToolResult.success(call, s, null);
            case JsonNode node when node.isTextual() && node.asText().isBlank() -> ToolResult.reinNote(call, EMPTY_RESULT, null);
            case JsonNode node -> ToolResult.success(call, node.isTextual() ? node.asText() : Json.write(node), null);
            default -> ToolResult.success(call, Json.write(value), null);
        };
    }

    private static ToolResult withSource(ToolResult r, String source) {
        return source == null ? r : r.withSource(source);
    }

    private static ToolResult failure(ToolCall call, Throwable cause) {
        String message = cause.getMessage() == null ? "(no message)" : cause.getMessage();
        return switch (cause) {
            case RetryableToolException retryable -> ToolResult.error(call, ErrorClass.TRANSIENT,
                    "Tool '" + call.name() + "' failed temporarily: " + message).withRetryAfter(retryable.retryAfter());
            // The handler's own limit on a blocking operation: as much a timeout as the executor's.
            case TimeoutException timedOut -> ToolResult.error(call, ErrorClass.TIMEOUT,
                    "Tool '" + call.name() + "' timed out: " + message);
            case PermissionDeniedException denied -> ToolResult.error(call, ErrorClass.PERMISSION_DENIED,
                    "Permission denied: " + message + ". Do not try again with the same request.");
            default -> ToolResult.error(call, ErrorClass.EXECUTION_FAILED,
                    "Tool '" + call.name() + "' failed with " + cause.getClass().getSimpleName() + ": " + message);
        };
    }

}
