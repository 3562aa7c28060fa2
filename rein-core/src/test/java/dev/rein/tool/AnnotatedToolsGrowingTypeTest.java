package dev.rein.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/** A tool parameter whose type holds itself at ever larger types has no schema that ends: refused when the tool is made. */
class AnnotatedToolsGrowingTypeTest {
    /** A generic record holding itself at a larger type: each level is a new type. */
    public record Fork<T>(T value, Fork<List<T>> next) {}

    public static final class Forks {
        @ToolMethod(description = "Takes a fork.")
        public String take(@ToolParam("a fork") Fork<String> fork) {
            return "ok";
        }
    }

    /** A finite nesting of one generic record, however deep, is kept. */
    public record Wrap<T>(T value) {}

    public static final class Wraps {
        @ToolMethod(description = "Takes a wrap.")
        public String take(@ToolParam("a wrap") Wrap<Wrap<Wrap<Wrap<Wrap<Wrap<Wrap<Wrap<Wrap<String>>>>>>>>> wrap) {
            return "ok";
        }
    }

    /**
     * Typed output refuses such a type with its never-ending-type check; a tool taking it as a parameter had none, and
     * AnnotatedTools.from spun in the schema generator. Failed first: timed out after 10 s.
     */
    @Test
    void aParameterTypeThatHoldsItselfAtEverLargerTypesIsRefusedWhenTheToolIsMade() {
        Assertions.assertTimeoutPreemptively(Duration.ofSeconds(10), () ->
                assertThatThrownBy(() -> AnnotatedTools.from(new Forks()))
                        .isInstanceOf(ReinException.class)
                        .hasMessage("tool 'take': parameter 'fork' has no JSON Schema that ends: Fork,"
                                + " through its property 'next', holds itself at a larger type (as a Fork<T> holding a"
                                + " Fork<List<T>>), so each level is a new type to describe, without end. Give such a"
                                + " property its class's own type (Fork<T>), or a type of its own"));
        assertThat(AnnotatedTools.from(new Wraps()).getFirst().definition().inputSchema().toString()).contains("value");
    }
}
