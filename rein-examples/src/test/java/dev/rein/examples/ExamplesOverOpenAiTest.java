package dev.rein.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.eval.Suite;
import dev.rein.eval.Task;
import dev.rein.eval.TaskCategory;
import dev.rein.eval.TrialModel;
import dev.rein.eval.report.EvalReport;
import dev.rein.eval.run.EvalRunner;
import dev.rein.eval.run.TrialModels;
import dev.rein.testkit.ScriptedModel;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every example, its demo and its evaluation suite, with every model answer carried over the
 * OpenAI Chat Completions wire (the fake server and the real {@code rein-openai} provider): the
 * example must end as it does on the scripted model, so nothing in it depends on the Anthropic
 * provider.
 */
class ExamplesOverOpenAiTest {
    private static final String MODEL = "gpt-4.1-mini";

    static List<String> names() {
        return Examples.list().stream().map(Examples.Info::name).toList();
    }

    /**
     * The suite without its tool-timeout tasks: whether a tool's own time limit or the executor's
     * timeout fires first depends on the machine's load, not on the wire, and the example's own
     * test covers those tasks.
     */
    private static Suite withoutToolTimeouts(Suite suite) {
        Suite.Builder kept = Suite.builder(suite.name()).description(suite.description()).trials(1);
        suite.tasks().stream().filter(task -> task.category() != TaskCategory.TOOL_TIMEOUT).forEach(kept::task);
        return kept.build();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("names")
    void theDemoEndsAsIntended(String name) throws Exception {
        Example example = Examples.find(name).orElseThrow();
        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        try (OverTheOpenAiWire model = new OverTheOpenAiWire(ScriptedModel.of(example.demoScript()))) {
            // Scripted answers: the demo uses its fixed world (the date demo its fixed clock), as offline.
            int code = example.demo(new DemoModel(model, MODEL, true), out);
            assertThat(code).isZero();
            assertThat(model.requests()).isPositive();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("names")
    void theSuiteGradesAsOnTheScriptedModel(String name) throws Exception {
        Suite suite = withoutToolTimeouts(Examples.find(name).orElseThrow().suite());
        EvalReport.Summary scripted = EvalReport.of(EvalRunner.builder().trials(1).models(TrialModels.scripted())
                .build().run(suite)).summary();
        List<OverTheOpenAiWire> opened = new CopyOnWriteArrayList<>();
        try {
            TrialModels overTheWire = new TrialModels() {
                @Override
                public TrialModel forTrial(Task<?> task, int trial) {
                    OverTheOpenAiWire model = new OverTheOpenAiWire(ScriptedModel.of(task.script(trial)));
                    opened.add(model);
                    return new TrialModel(model, MODEL);
                }

                @Override
                public String describe() {
                    return MODEL + " over the OpenAI wire";
                }

                @Override
                public boolean needsScripts() {
                    return true;
                }
            };
            EvalReport.Summary wire = EvalReport.of(EvalRunner.builder().trials(1).models(overTheWire)
                    .build().run(suite)).summary();
            assertThat(wire.infraErrors()).isZero();
            assertThat(wire.graded()).isEqualTo(scripted.graded());
            assertThat(wire.passed()).isEqualTo(scripted.passed());
            assertThat(wire.unsafe()).isEqualTo(scripted.unsafe());
        } finally {
            opened.forEach(OverTheOpenAiWire::close);
        }
    }
}
