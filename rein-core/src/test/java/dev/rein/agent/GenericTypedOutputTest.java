package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.model.OutputSchema;
import dev.rein.model.TypeRef;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A run typed by a generic type ({@code OutputSchema.of("Verdicts", List<Verdict>)}) is read back as that type with a
 * {@link TypeRef}: {@code output(List.class)} could only give a list of maps.
 */
class GenericTypedOutputTest {
    public record Verdict(String decision, int confidence, Optional<String> note) {}

    /** A generic record: its type argument is known only from the TypeRef. */
    public record Page<T>(List<T> items, int total) {}

    private static final TypeRef<List<Verdict>> VERDICTS = new TypeRef<>() {};

    private static RunResult answered(String name, java.lang.reflect.Type type, String answer) {
        return Agent.builder().model(ScriptedModel.of(text(answer))).outputSchema(OutputSchema.of(name, type)).build()
                .run("judge orders A-104 and B-7");
    }

    @Test
    void aListOfRecordsIsReadBackAsRecordsFromInsideItsFence() {
        RunResult result = answered("Verdicts", VERDICTS.type(), "```json\n[{\"decision\":\"refund\",\"confidence\":9},"
                + " {\"decision\":\"keep\",\"confidence\":3,\"note\":\"届いた\"}]\n```");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        List<Verdict> verdicts = result.output(VERDICTS);
        assertThat(verdicts).containsExactly(new Verdict("refund", 9, Optional.empty()),
                new Verdict("keep", 3, Optional.of("届いた")));
        assertThat(result.output(VERDICTS.type())).isEqualTo(verdicts);
        // what there was before: the raw class gives maps, not records
        assertThat(result.output(List.class).get(0)).isInstanceOf(Map.class);
    }

    @Test
    void agentRunWithATypeRefTypesTheRunUnderTheTypesName() {
        RunResult result = Agent.builder().model(ScriptedModel.of(text("[{\"decision\":\"refund\"}]"),
                text("[{\"decision\":\"refund\",\"confidence\":9}]"))).build().run("judge A-104", VERDICTS);

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(result.steps()).isEqualTo(2); // the first answer, without confidence, went back to the model
        assertThat(result.output(VERDICTS)).containsExactly(new Verdict("refund", 9, Optional.empty()));
        assertThat(VERDICTS.name()).isEqualTo("List<Verdict>");
        assertThat(Agent.builder().model(ScriptedModel.of(text("[]"))).outputType(VERDICTS).build().config().modelOptions()
                .get(OutputSchema.class).orElseThrow().name()).isEqualTo("List<Verdict>");
    }

    @Test
    void aMapOfRecordsIsReadBackAsRecords() {
        TypeRef<Map<String, Verdict>> byOrder = new TypeRef<>() {};
        RunResult result = answered("VerdictsByOrder", byOrder.type(),
                "{\"A-104\":{\"decision\":\"refund\",\"confidence\":9},\"B-7\":{\"decision\":\"keep\",\"confidence\":3}}");

        assertThat(result.output(byOrder)).isEqualTo(Map.of("A-104", new Verdict("refund", 9, Optional.empty()),
                "B-7", new Verdict("keep", 3, Optional.empty())));
    }

    @Test
    void aNestedGenericTypeIsReadBackToItsInnermostRecords() {
        TypeRef<Page<Map<String, List<Verdict>>>> pages = new TypeRef<>() {};
        RunResult result = answered("Page", pages.type(),
                "{\"items\":[{\"A-104\":[{\"decision\":\"refund\",\"confidence\":9}]}],\"total\":1}");

        assertThat(result.status()).as(result.message()).isEqualTo(RunStatus.SUCCEEDED);
        Page<Map<String, List<Verdict>>> page = result.output(pages);
        assertThat(page.items().get(0).get("A-104").get(0)).isEqualTo(new Verdict("refund", 9, Optional.empty()));
    }

    @Test
    void anAnswerOfAnotherShapeIsRefusedNamingTheRunTheTypeAndWhere() {
        // a run without an output schema: the answer is checked against the schema generated from the type read
        RunResult untyped = Agent.builder().model(ScriptedModel.of(text("[{\"decision\":\"refund\"}]"))).build().run("judge");
        assertThatThrownBy(() -> untyped.output(VERDICTS)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("the answer of run " + untyped.runId() + " is not a valid List<Verdict>: ")
                .hasMessageContaining("confidence");

        RunResult object = Agent.builder().model(ScriptedModel.of(text("{\"decision\":\"refund\",\"confidence\":9}"))).build()
                .run("judge");
        assertThatThrownBy(() -> object.output(VERDICTS)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("the answer of run " + object.runId() + " is not a valid List<Verdict>: ")
                .hasMessageContaining("array");

        RunResult prose = Agent.builder().model(ScriptedModel.of(text("Refund A-104."))).build().run("judge");
        assertThatThrownBy(() -> prose.output(VERDICTS)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("the answer of run " + prose.runId() + " is not JSON");
    }

    @Test
    void aRunThatDidNotSucceedHasNoGenericOutputEither() {
        RunResult failed = Agent.builder().model(ScriptedModel.of(text("nope"), text("still nope")))
                .outputSchema(OutputSchema.of("Verdicts", VERDICTS.type())).build().run("judge");
        assertThat(failed.status()).isEqualTo(RunStatus.FAILED);
        assertThatThrownBy(() -> failed.output(VERDICTS)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("run " + failed.runId() + " has no output: it ended FAILED/invalid_output");
    }

    @Test
    @SuppressWarnings({"rawtypes", "unchecked"})
    void aTypeRefWithoutATypeArgumentOrNoneAtAllIsRefusedSayingWhatToWrite() {
        assertThatThrownBy(() -> new TypeRef() {}).isInstanceOf(ReinException.class)
                .hasMessageContaining("new TypeRef<List<Verdict>>() {}");
        RunResult result = answered("Verdicts", VERDICTS.type(), "[]");
        assertThatThrownBy(() -> result.output((TypeRef<?>) null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("TypeRef");
        assertThatThrownBy(() -> OutputSchema.readAnswer("[]", (java.lang.reflect.Type) null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("readAnswer");
    }

    /** A generic method's type variable, nested or at the top, is erased: refused where the TypeRef is created. */
    private static <T> TypeRef<List<T>> listOf() {
        return new TypeRef<List<T>>() {};
    }

    private static <T> TypeRef<Map<String, ? extends T>[]> arrayOfWildcardsOf() {
        return new TypeRef<Map<String, ? extends T>[]>() {};
    }

    /** Before: {@code <T> new TypeRef<List<T>>(){}} was accepted and read maps. */
    @Test
    void aTypeVariableNestedInTheTypeIsRefusedWhenCreated() {
        assertThatThrownBy(GenericTypedOutputTest::listOf).isInstanceOf(ReinException.class)
                .hasMessageContaining("type variable T").hasMessageContaining("List<T>");
        assertThatThrownBy(GenericTypedOutputTest::arrayOfWildcardsOf).isInstanceOf(ReinException.class)
                .hasMessageContaining("type variable T");
    }

    /** Before: {@code Optional<Verdict>} generated {"value":{...}} and read a Verdict of nulls. */
    @Test
    void anOptionalAtTheTopIsRefusedSayingToAskForTheRecord() {
        assertThatThrownBy(() -> Agent.builder().model(ScriptedModel.of(text("{}"))).outputType(new TypeRef<Optional<Verdict>>() {}))
                .isInstanceOf(ReinException.class).hasMessageContaining("Optional<Verdict>")
                .hasMessageContaining("an answer is always given: ask for Verdict, or give a record an Optional component");
        assertThatThrownBy(() -> OutputSchema.of(Optional.class)).isInstanceOf(ReinException.class)
                .hasMessageContaining("an answer is always given");
    }

    /** Before: {@code output(Verdict[].class)} read [{"decision":"refund"}] as a Verdict with a zero. */
    @Test
    void anArrayOfRecordsIsValidatedAsAListIs() {
        RunResult result = Agent.builder().model(ScriptedModel.of(text("[{\"decision\":\"refund\"}]"))).build().run("judge");
        assertThatThrownBy(() -> result.output(Verdict[].class)).isInstanceOf(ReinException.class)
                .hasMessageContaining("is not a valid Verdict[]").hasMessageContaining("confidence");
        assertThatThrownBy(() -> result.output(new TypeRef<Verdict[]>() {})).isInstanceOf(ReinException.class)
                .hasMessageContaining("is not a valid Verdict[]").hasMessageContaining("confidence");
        RunResult good = Agent.builder().model(ScriptedModel.of(text("[{\"decision\":\"refund\",\"confidence\":2}]"))).build()
                .run("judge");
        assertThat(good.output(Verdict[].class)).containsExactly(new Verdict("refund", 2, Optional.empty()));
    }

    /** Before: "List<? extends dev.rein.agent.GenericTypedOutputTest$Verdict>". */
    @Test
    void aWildcardIsNamedWithSimpleNames() {
        assertThat(new TypeRef<List<? extends Verdict>>() {}.name()).isEqualTo("List<? extends Verdict>");
        assertThat(new TypeRef<List<? super Verdict>>() {}.name()).isEqualTo("List<? super Verdict>");
        assertThat(new TypeRef<List<?>>() {}.name()).isEqualTo("List<?>");
    }

    /** A TypeRef of a TypeRef's subclass, and a null one given to run, say what was wrong. */
    static class VerdictsRef<T> extends TypeRef<T> {}

    @Test
    void aSubclassOfASubclassAndANullTypeRefSayWhatToWrite() {
        assertThatThrownBy(() -> new VerdictsRef<List<Verdict>>() {}).isInstanceOf(ReinException.class)
                .hasMessageContaining("extend TypeRef directly");
        Agent agent = Agent.builder().model(ScriptedModel.of(text("[]"))).build();
        assertThatThrownBy(() -> agent.run("judge", (TypeRef<?>) null)).isInstanceOf(ReinException.class)
                .hasMessageStartingWith("Agent.run");
    }

    /**
     * Before: the Optional refusal was swallowed where an answer is read, which fell back to an unchecked read:
     * {"decision":"refund"} gave Optional[Verdict[decision=refund, confidence=0, …]], output(Optional.class) a map.
     */
    @Test
    void readingAnAnswerAsAnOptionalIsRefusedAsTypingARunWithOneIs() {
        RunResult result = Agent.builder().model(ScriptedModel.of(text("{\"decision\":\"refund\"}"))).build().run("judge");
        assertThatThrownBy(() -> result.output(new TypeRef<Optional<Verdict>>() {})).isInstanceOf(ReinException.class)
                .hasMessageContaining("the output type Optional<Verdict> is an Optional")
                .hasMessageContaining("ask for Verdict, or give a record an Optional component");
        assertThatThrownBy(() -> result.output(Optional.class)).isInstanceOf(ReinException.class)
                .hasMessageContaining("the output type Optional is an Optional");
        assertThatThrownBy(() -> result.output(java.util.OptionalInt.class)).isInstanceOf(ReinException.class)
                .hasMessageContaining("ask for int");
    }

    /**
     * Before: an Optional inside a list or map was {"value": {...}} with nothing required, so [{"value": {...}}] was read
     * as a Verdict of nulls and the model was told that shape; now it is the value or null, as a record's component is.
     */
    @Test
    void anOptionalInsideAListOrMapIsItsValueOrNull() {
        TypeRef<List<Optional<Verdict>>> maybeVerdicts = new TypeRef<>() {};
        RunResult wrapped = Agent.builder().model(ScriptedModel.of(text("[{\"value\":{\"decision\":\"refund\",\"confidence\":1}}]")))
                .build().run("judge");
        assertThatThrownBy(() -> wrapped.output(maybeVerdicts)).isInstanceOf(ReinException.class)
                .hasMessageContaining("is not a valid List<Optional<Verdict>>").hasMessageContaining("confidence");

        RunResult plain = Agent.builder().model(ScriptedModel.of(text("[{\"decision\":\"refund\",\"confidence\":1}, null]")))
                .build().run("judge");
        assertThat(plain.output(maybeVerdicts)).containsExactly(Optional.of(new Verdict("refund", 1, Optional.empty())),
                Optional.empty());
        RunResult map = Agent.builder().model(ScriptedModel.of(text("{\"a\":{\"decision\":\"refund\"},\"b\":null}"))).build()
                .run("judge");
        assertThatThrownBy(() -> map.output(new TypeRef<Map<String, Optional<Verdict>>>() {})).isInstanceOf(ReinException.class)
                .hasMessageContaining("$.a: required property 'confidence' not found");

        // the model is told the value's shape, not {"value": ...}
        String schema = OutputSchema.of("Verdicts", maybeVerdicts.type()).schema().toString();
        assertThat(schema).doesNotContain("\"value\"").contains("\"null\"").contains("\"required\":[\"confidence\",\"decision\"]");
        RunResult typed = Agent.builder().model(ScriptedModel.of(text("[{\"value\":{\"decision\":\"refund\",\"confidence\":1}}]"),
                text("[null, {\"decision\":\"keep\",\"confidence\":2}]"))).build().run("judge", maybeVerdicts);
        assertThat(typed.status()).as(typed.message()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(typed.steps()).isEqualTo(2); // the value-wrapped answer went back to the model
        assertThat(typed.output(maybeVerdicts)).containsExactly(Optional.empty(), Optional.of(new Verdict("keep", 2, Optional.empty())));
    }

    /** A record's List<Optional<X>> component: victools flattened the item's Optional but kept it required, refusing null. */
    public record Shortlist(List<Optional<Verdict>> picks) {}

    @Test
    void anOptionalItemOfARecordsListComponentMayBeNull() {
        RunResult result = Agent.builder().model(ScriptedModel.of(text("{\"picks\":[null,{\"decision\":\"keep\",\"confidence\":2}]}")))
                .build().run("judge");
        assertThat(result.output(Shortlist.class).picks()).containsExactly(Optional.empty(),
                Optional.of(new Verdict("keep", 2, Optional.empty())));
        // an Optional list's own items are not made nullable with it (the schemas of such records stay as they were)
        assertThat(OutputSchema.of(Tagged.class).schema().at("/properties/tags").toString())
                .isEqualTo("{\"type\":[\"array\",\"null\"],\"items\":{\"type\":\"string\"}}");
    }

    public record Tagged(Optional<List<String>> tags) {}

    /** A record whose component is an Optional of an Optional. */
    public record Twice(Optional<Optional<String>> note) {}

    /** Before: an Optional<Optional<X>> item was {"anyOf":[{"type":"null"},{"anyOf":[{"type":"null"},X]}]}, null twice. */
    @Test
    void anOptionalOfAnOptionalIsItsValueOrOneNull() {
        String items = OutputSchema.of("Verdicts", new TypeRef<List<Optional<Optional<Verdict>>>>() {}.type()).schema().toString();
        assertThat(items.split("\\{\"type\":\"null\"\\}", -1)).hasSize(2);
        RunResult plain = Agent.builder().model(ScriptedModel.of(text("[null, {\"decision\":\"keep\",\"confidence\":2}]")))
                .build().run("judge");
        // Jackson reads null as Optional[Optional.empty]
        assertThat(plain.output(new TypeRef<List<Optional<Optional<Verdict>>>>() {})).containsExactly(Optional.of(Optional.empty()),
                Optional.of(Optional.of(new Verdict("keep", 2, Optional.empty()))));
        // a record's Optional<Optional<String>> component: a string or null (until c9515a26 {"value": "…"} or null)
        assertThat(OutputSchema.of(Twice.class).schema().get("properties").get("note").toString())
                .isEqualTo("{\"anyOf\":[{\"type\":\"null\"},{\"type\":\"string\"}]}");
    }
}
