package dev.rein.tool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** An interceptor's aroundHandler wraps the handler call on the handler's own thread, the first interceptor outermost. */
class AroundHandlerTest {
    private static final ThreadLocal<String> BOUND = new ThreadLocal<>();

    private final List<String> seen = new CopyOnWriteArrayList<>();

    private ToolInterceptor binding(String name) {
        return new ToolInterceptor() {
            @Override
            public ToolOutcome intercept(ToolInvocation invocation, Chain chain) throws InterruptedException {
                return chain.proceed(invocation);
            }

            @Override
            public ToolHandler aroundHandler(ToolInvocation invocation, ToolHandler handler) {
                return (arguments, context) -> {
                    seen.add("enter " + name + " " + invocation.call().id());
                    String before = BOUND.get();
                    BOUND.set(before == null ? name : before + ">" + name);
                    try {
                        return handler.handle(arguments, context);
                    } finally {
                        BOUND.set(before);
                    }
                };
            }
        };
    }

    private static Tool tool(ToolHandler handler) {
        return Tool.builder("echo").description("Echoes.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"x\":{\"type\":\"string\"}},\"required\":[\"x\"]}")
                .handler(handler).build();
    }

    @Test
    void theWrappersRunOnTheHandlersThreadInOrderAndTheToolStaysTheSame() throws Exception {
        Thread caller = Thread.currentThread();
        ToolExecutor executor = ToolExecutor.builder(ToolRegistry.of(tool((args, ctx) -> {
            seen.add("handler on " + (Thread.currentThread() == caller ? "caller" : "own thread") + " bound " + BOUND.get());
            return "ok";
        }))).interceptor(binding("a")).interceptor(binding("b")).build();

        ToolResult result = executor.execute(new ToolCall("c1", "echo", Json.parse("{\"x\":\"1\"}"), 0), ToolContext.standalone("c1"));

        assertThat(result.isError()).isFalse();
        assertThat(seen).containsExactly("enter a c1", "enter b c1", "handler on own thread bound a>b");
    }

    @Test
    void aRefusedCallNeverReachesTheWrappers() throws Exception {
        ToolExecutor executor = ToolExecutor.builder(ToolRegistry.of(tool((args, ctx) -> "ok"))).interceptor(binding("a")).build();
        ToolResult result = executor.execute(new ToolCall("c2", "echo", Json.parse("{\"y\":1}"), 0), ToolContext.standalone("c2"));
        assertThat(result.errorClass()).isEqualTo(ErrorClass.INVALID_ARGUMENTS);
        assertThat(seen).isEmpty();
    }
}
