package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import dev.rein.ReinException;
import dev.rein.model.OutputSchema;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.AnnotatedTools;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolMethod;
import dev.rein.tool.ToolParam;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** Typed output and annotated tools with Jackson's type info on a recursive hierarchy, wrapper-included ids, class-level ignores (rev112). */
class JacksonTypeInfoShapesTest {
    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
    @JsonSubTypes({@JsonSubTypes.Type(value = Num.class, name = "num"), @JsonSubTypes.Type(value = Add.class, name = "add")})
    public sealed interface Expr permits Num, Add {}
    public record Num(int value) implements Expr {}
    public record Add(Expr left, Expr right) implements Expr {}

    public record HoldsAdd(Add add) {}

    public static final class AddTool {
        @ToolMethod(description = "adds") public String add(@ToolParam(name = "b") Add b) { return "ok"; }
    }

    /** Failed first: victools' IllegalStateException "... produced duplicate keys: Add", from both. */
    @Test
    void aSubtypeOfARecursiveTypeInfoHierarchyIsRefusedWithWhatToDo() {
        assertThatThrownBy(() -> AnnotatedTools.from(new AddTool())).isInstanceOf(ReinException.class)
                .hasMessageContaining("tool 'add'").hasMessageContaining("'b'").hasMessageContaining("Expr");
        assertThatThrownBy(() -> OutputSchema.of(Add.class)).isInstanceOf(ReinException.class)
                .hasMessageContaining("Add").hasMessageContaining("Expr");
        // what the refusal advises: held in a record, the subtype is described
        assertThat(OutputSchema.of(HoldsAdd.class).schema().toString()).contains("left");
        assertThat(OutputSchema.readAnswer("{\"add\":{\"type\":\"add\",\"left\":{\"type\":\"num\",\"value\":1},\"right\":{\"type\":\"num\",\"value\":2}}}",
                HoldsAdd.class)).isEqualTo(new HoldsAdd(new Add(new Num(1), new Num(2))));
    }

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.WRAPPER_OBJECT)
    @JsonSubTypes({@JsonSubTypes.Type(value = WCircle.class, name = "circle")})
    public sealed interface WShape permits WCircle {}
    public record WCircle(double radius) implements WShape {}

    @JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.WRAPPER_ARRAY)
    @JsonSubTypes({@JsonSubTypes.Type(value = ACircle.class, name = "circle")})
    public sealed interface AShape permits ACircle {}
    public record ACircle(double radius) implements AShape {}

    public static final class WrapTool {
        final List<Object> got = new CopyOnWriteArrayList<>();
        @ToolMethod(description = "w") public String wrap(@ToolParam(name = "w") WShape w, @ToolParam(name = "a") AShape a) {
            got.add(w); got.add(a); return "ok";
        }
    }

    /** Failed first: BeanNames compared WCircle's "radius" with the wrapper's property "circle" and refused both. */
    @Test
    void wrapperIncludedTypeIdsAreReadForToolsAndTypedOutput() {
        WrapTool target = new WrapTool();
        List<Tool> tools = AnnotatedTools.from(target);
        ScriptedModel model = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("wrap",
                "{\"w\":{\"circle\":{\"radius\":2}},\"a\":[\"circle\",{\"radius\":3}]}")), text("done"));
        RunResult r = Agent.builder().model(model).tools(tools).build().run("go");
        assertThat(r.status()).as(r.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(target.got).containsExactly(new WCircle(2), new ACircle(3));
        assertThat(OutputSchema.readAnswer("{\"circle\":{\"radius\":2}}", WShape.class)).isEqualTo(new WCircle(2));
        assertThat(OutputSchema.readAnswer("[\"circle\",{\"radius\":2}]", AShape.class)).isEqualTo(new ACircle(2));
    }

    @JsonIgnoreProperties({"drop"})
    public static final class ClassIgnore { public String keep; public String drop; }
    public record HoldsIgnore(ClassIgnore v) {}

    public static final class IgnoreTool {
        @ToolMethod(description = "ci") public String ci(@ToolParam(name = "v") ClassIgnore v) { return "ok"; }
    }

    /** Failed first: the schema listed "drop", which Jackson drops. */
    @Test
    void classLevelIgnoredPropertiesAreLeftOutOfTheSchema() {
        Tool tool = AnnotatedTools.from(new IgnoreTool()).get(0);
        assertThat(tool.definition().inputSchema().path("properties").path("v").path("properties").has("drop")).isFalse();
        assertThat(tool.definition().inputSchema().path("properties").path("v").path("properties").has("keep")).isTrue();
        assertThat(OutputSchema.of(HoldsIgnore.class).schema().toString()).doesNotContain("drop").contains("keep");
    }
}
