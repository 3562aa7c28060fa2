package dev.rein.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.tool.AnnotatedTools;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolContext;
import dev.rein.tool.ToolExecutor;
import dev.rein.tool.ToolMethod;
import dev.rein.tool.ToolParam;
import dev.rein.tool.ToolRegistry;
import dev.rein.tool.ToolResult;
import org.junit.jupiter.api.Test;

/**
 * docs/tools: the public {@code @ToolMethod} methods of any object are its tools. The object's class
 * is often not public (a private nested class of the application, a package-private class, an
 * anonymous class); its tools must run all the same. In another package than {@link AnnotatedTools}.
 */
class AnnotatedToolClassesTest {
    private static final class OrderTools {
        @ToolMethod(description = "Looks up an order by id.")
        public String lookupOrder(@ToolParam(name = "orderId", value = "the order id") String orderId) {
            return "order " + orderId + " is 配送中";
        }
    }

    private static String run(Object target, String tool, String arguments) throws Exception {
        ToolExecutor executor = ToolExecutor.builder(ToolRegistry.of(AnnotatedTools.from(target))).build();
        ToolResult result = executor.execute(new ToolCall("c1", tool, Json.parse(arguments), 0), ToolContext.standalone("c1"));
        return (result.isError() ? "ERROR " : "") + result.content();
    }

    @Test
    void theToolsOfAPrivateNestedClassRun() throws Exception {
        // before: every call failed with "Tool 'lookupOrder' failed with IllegalAccessException: class
        // dev.rein.tool.AnnotatedTools cannot access a member of class ...OrderTools with modifiers "public""
        assertThat(run(new OrderTools(), "lookupOrder", "{\"orderId\":\"A-104\"}")).isEqualTo("order A-104 is 配送中");
    }

    @Test
    void theToolsOfAnAnonymousClassRun() throws Exception {
        Object tools = new Object() {
            @ToolMethod(description = "Says hello.")
            public String hello(@ToolParam(name = "who", value = "whom to greet") String who) {
                return "hello " + who;
            }
        };
        assertThat(run(tools, "hello", "{\"who\":\"Alice\"}")).isEqualTo("hello Alice");
    }

    @Test
    void anErrorTheMethodThrowsIsNamedNotItsReflectionWrapper() throws Exception {
        // before: "Tool 'check' failed with InvocationTargetException: (no message)", naming neither the error nor its message
        assertThat(run(new Checks(), "check", "{}")).contains("AssertionError: the total is negative").doesNotContain("InvocationTargetException");
    }

    public static final class Checks {
        @ToolMethod(description = "Checks the totals.")
        public String check() {
            throw new AssertionError("the total is negative");
        }
    }

    public static final class Dates {
        static final java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();

        @ToolMethod(description = "Books a day.")
        public String book(@ToolParam(name = "day", value = "the day") java.time.LocalDate day, @ToolParam(name = "n", value = "n") int n) {
            calls.incrementAndGet();
            return "booked " + day + " x" + n;
        }
    }

    @Test
    void aValueTheSchemaTakesButTheParametersTypeCannotHoldIsRefusedAsInvalidArgumentsAndTheMethodIsNotCalled() throws Exception {
        ToolExecutor executor = ToolExecutor.builder(ToolRegistry.of(AnnotatedTools.from(new Dates()))).build();
        ToolResult badDay = executor.execute(new ToolCall("c1", "book", Json.parse("{\"day\":\"2026-02-30\",\"n\":1}"), 0),
                ToolContext.standalone("c1"));
        ToolResult badCount = executor.execute(new ToolCall("c2", "book", Json.parse("{\"day\":\"2026-02-03\",\"n\":30000000000}"), 0),
                ToolContext.standalone("c2"));

        // before: EXECUTION_FAILED "Tool 'book' failed with IllegalArgumentException: Cannot deserialize value of type
        // `java.time.LocalDate` from String "2026-02-30": ...", as if the tool had run and failed
        assertThat(badDay.errorClass()).isEqualTo(dev.rein.tool.ErrorClass.INVALID_ARGUMENTS);
        assertThat(badDay.content()).startsWith("Invalid arguments for tool 'book': ").contains("$.day: ").contains("2026-02-30")
                .contains("The tool was not called. Call it again with arguments matching this JSON schema: {\"type\":\"object\"")
                .doesNotContain("IllegalArgumentException");
        assertThat(badCount.errorClass()).isEqualTo(dev.rein.tool.ErrorClass.INVALID_ARGUMENTS);
        assertThat(badCount.content()).startsWith("Invalid arguments for tool 'book': ").contains("$.n: ").contains("30000000000");
        assertThat(Dates.calls).hasValue(0);
    }
}
