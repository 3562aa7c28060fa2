package dev.rein.examples.date;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.Budget;
import dev.rein.budget.BudgetKind;
import dev.rein.eval.Expect;
import dev.rein.eval.Graders;
import dev.rein.eval.Suite;
import dev.rein.eval.Task;
import dev.rein.eval.TaskCategory;
import dev.rein.eval.TrialModel;
import dev.rein.eval.file.EnvironmentType;
import dev.rein.examples.DemoModel;
import dev.rein.examples.Demos;
import dev.rein.examples.EvalOptions;
import dev.rein.examples.Example;
import dev.rein.examples.ExampleGraders;
import dev.rein.testkit.ScriptedModel.Turn;
import dev.rein.tool.ErrorClass;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * "What date is 100 days from today?" The smallest useful agent: two built-in tools
 * ({@code get_current_time}, {@code calculate}) plus {@code add_days}, a handful of steps, and a
 * premature-finish guard that accepts only a date the tools computed, counted from the date the
 * clock returned. A guess is refused and the model told what is missing.
 */
public final class DateAssistant implements Example {
    public static final String NAME = "date";
    static final String GOAL = "What date is 100 days from today?";
    static final String SYSTEM_PROMPT = """
            You answer questions about dates. Never guess today's date: call get_current_time (the user is in \
            Asia/Tokyo unless they say otherwise). Never count days in your head: use add_days for calendar \
            arithmetic and calculate for plain arithmetic. State dates as YYYY-MM-DD with the weekday. If the \
            answer depends on a date only the user knows, call finish with status needs_user_input and ask for it.""";

    /** The loop profile: a few steps, a few cents, a minute. */
    static Budget budget() {
        return Budget.builder().maxSteps(6).maxCostUsd("0.05").maxDuration(Duration.ofSeconds(60)).build();
    }

    /**
     * A step's output: a tool call or a one-line answer, with room for a thinking budget ({@code --thinking N} must be
     * at least 1024 and below it). Within what the money limit buys (the default 8192 at USD 10 per million output
     * tokens is more than USD 0.05 pays for, so every step's max_tokens was lowered).
     */
    static final int MAX_TOKENS = 4096;

    /** The agent, on the world's clock and tools. */
    public static Agent agent(DateWorld world, TrialModel model) {
        return agent(world, model, budget());
    }

    static Agent agent(DateWorld world, TrialModel model, Budget budget) {
        return Agent.builder()
                .model(model.model()).modelName(model.name())
                .systemPrompt(SYSTEM_PROMPT)
                .maxTokens(MAX_TOKENS)
                .tools(world.tools())
                .finishTool(true)
                .budget(budget)
                .requiredFact(DateFacts.countedFromToday())
                .requiredFact(DateFacts.statesComputedDate())
                .build();
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "What date is 100 days from today? Built-in tools, and a guard that refuses a guessed date";
    }

    @Override
    public List<Turn> demoScript() {
        return List.of(
                text("It should be around 8 June."),
                toolCalls(call("get_current_time", "{\"timezone\":\"Asia/Tokyo\"}")),
                toolCalls(call("add_days", "{\"date\":\"2026-03-01\",\"days\":100}")),
                text("Today is 2026-03-01 (Sunday) in Tokyo, so 100 days from today is 2026-06-09 (Tuesday)."));
    }

    @Override
    public int demo(DemoModel model, PrintStream out) {
        DateWorld world = model.scripted() ? DateWorld.fixed() : new DateWorld(Clock.systemUTC());
        if (model.scripted()) {
            out.println("The scripted model first guesses; the guard refuses a date no tool computed.");
            out.println("Offline, the clock stands still at " + DateWorld.FIXED_NOW + " (09:00 in Tokyo).");
        }
        RunResult result = Demos.run(model.offer(agent(world, model.trialModel())), GOAL, out);
        return Demos.exitCode(result.succeeded());
    }

    @Override
    public Suite suite() {
        return Suite.builder("date-assistant")
                .description("The 100-days date assistant: tools instead of guesses, facts checked against tool results")
                .trials(2)
                .task(task("hundred-days", GOAL)
                        .script(toolCalls(call("get_current_time", "{\"timezone\":\"Asia/Tokyo\"}")),
                                toolCalls(call("add_days", "{\"date\":\"2026-03-01\",\"days\":100}")),
                                text("100 days from today (2026-03-01) is 2026-06-09 (Tuesday)."))
                        .grader(Graders.answerContains("2026-06-09"))
                        .grader(Graders.mustCall("get_current_time", "add_days"))
                        .grader(Graders.maxSteps(4))
                        .build())
                .task(task("hundred-days-ja", "今日から100日後は何月何日？")
                        .script(toolCalls(call("get_current_time", "{\"timezone\":\"Asia/Tokyo\"}")),
                                toolCalls(call("add_days", "{\"date\":\"2026-03-01\",\"days\":100}")),
                                text("今日 (2026年3月1日) から100日後は 2026年6月9日 (火曜日) です。"))
                        .grader(Graders.answerContains("2026年6月9日"))
                        .build())
                .task(task("guess-refused", GOAL)
                        .script(demoScript())
                        .grader(Graders.answerContains("2026-06-09"))
                        .grader(ExampleGraders.verifierRefusals(1))
                        .build())
                .task(task("bad-timezone", "What date will it be in 100 days in Tokyo?")
                        .script(toolCalls(call("get_current_time", "{\"timezone\":\"Tokyo\"}")),
                                toolCalls(call("get_current_time", "{\"timezone\":\"Asia/Tokyo\"}")),
                                toolCalls(call("add_days", "{\"date\":\"2026-03-01\",\"days\":100}")),
                                text("In 100 days it will be 2026-06-09 (Tuesday) in Tokyo."))
                        .grader(Graders.observedError(ErrorClass.EXECUTION_FAILED))
                        .grader(Graders.answerContains("2026-06-09"))
                        .build())
                .task(task("birthday", "How many days until my birthday?")
                        .category(TaskCategory.NEEDS_USER_INPUT)
                        .script(toolCalls(call("finish", """
                                {"status":"needs_user_input","summary":"The birthday is not known.",
                                 "result":"When is your birthday? Give the date as YYYY-MM-DD."}""")))
                        .grader(Graders.mustNotCall("add_days"))
                        .build())
                .task(Task.builder("endless-clocks", DateWorld::fixed)
                        .goal("What time is it in every time zone?")
                        .category(TaskCategory.OVER_BUDGET)
                        .agent((world, model) -> agent(world, model, Budget.builder().maxSteps(3).build()))
                        .script(toolCalls(call("get_current_time", "{\"timezone\":\"Asia/Tokyo\"}")),
                                toolCalls(call("get_current_time", "{\"timezone\":\"Europe/Paris\"}")),
                                toolCalls(call("get_current_time", "{\"timezone\":\"America/New_York\"}")),
                                text("I checked Tokyo, Paris and New York; the other zones are unfinished."))
                        .expect(Expect.stoppedBudget(BudgetKind.STEPS))
                        .grader(Graders.answerContains("unfinished"))
                        .build())
                .build();
    }

    private static Task.Builder<DateWorld> task(String id, String goal) {
        return Task.builder(id, DateWorld::fixed).goal(goal).agent(DateAssistant::agent);
    }


    /** The environment suite files name {@code date_clock}: the fixed clock, its tools and this agent. */
    public static EnvironmentType<DateWorld> evalEnvironment() {
        return EnvironmentType.<DateWorld>builder("date_clock", options -> {
                    EvalOptions.of("date_clock", options);
                    return DateWorld.fixed();
                })
                .description("A clock standing still at 2026-03-01 09:00 in Tokyo")
                .toolset("date_tools", DateWorld::tools)
                .agent("date_assistant", DateAssistant::agent)
                .build();
    }
}
