package dev.rein.eval;

import dev.rein.ReinException;
import dev.rein.testkit.ScriptedModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * One task of a suite: a goal, the environment it runs in (a fresh one per trial), the agent
 * under test, how it should end and what else graders check. Offline tasks carry one or more
 * scripts for the scripted model; trial {@code i} uses script {@code i mod scripts}.
 *
 * <pre>{@code
 * Task<OrdersDb> task = Task.builder("delay-a104", OrdersDb::new)
 *         .goal("Why has order A-104 not arrived?")
 *         .agent((db, model) -> Agent.builder().model(model.model()).modelName(model.name()).tools(db.tools()).build())
 *         .script(toolCalls(call("get_order", "{\"id\":\"A-104\"}")), text("It is held at the warehouse."))
 *         .grader(Graders.mustNotCall("reship_order"))
 *         .grader(Graders.answerContains("warehouse"))
 *         .build();
 * }</pre>
 */
public final class Task<E extends Environment> {
    /** How long the harness lets one trial run before cancelling it (on top of the agent's own deadline). */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(10);

    private final String id;
    private final String goal;
    private final TaskCategory category;
    private final Supplier<? extends E> environment;
    private final AgentFactory<E> agent;
    private final List<List<ScriptedModel.Turn>> scripts;
    private final EndExpectation expectation;
    private final List<Grader<? super E>> graders;
    private final Duration timeout;
    private final List<String> replies;

    private Task(Builder<E> b, EndExpectation expectation) {
        this.id = b.id;
        this.goal = b.goal;
        this.category = b.category;
        this.environment = b.environment;
        this.agent = b.agent;
        this.scripts = b.scripts.stream().map(List::copyOf).toList();
        this.expectation = expectation;
        this.graders = List.copyOf(b.graders);
        this.timeout = b.timeout;
        this.replies = List.copyOf(b.replies);
    }

    /**
     * A builder of the task {@code id}, unique in its suite ignoring case (two ids that differ only in case would be one
     * trace file on macOS or Windows), in Unicode's normal form NFC: 1-80 letters or digits of any script ({@code release-date},
     * {@code 注文確認}), {@code _}, {@code -} or {@code .}, starting with a letter or digit, at most 200 bytes in UTF-8,
     * as it names the trial traces ({@code TASK.TRIAL.jsonl}); checked by {@link Builder#build()}.
     */
    public static <E extends Environment> Builder<E> builder(String id, Supplier<? extends E> environment) {
        return new Builder<>(id, environment);
    }

    public String id() {
        return id;
    }

    public String goal() {
        return goal;
    }

    public TaskCategory category() {
        return category;
    }

    /** A new environment for one trial. */
    public E newEnvironment() {
        E env = environment.get();
        if (env == null) {
            throw new ReinException("the environment factory of task '" + id + "' returned null");
        }
        return env;
    }

    public AgentFactory<E> agent() {
        return agent;
    }

    /** True when the task can run offline (it has at least one script). */
    public boolean scripted() {
        return !scripts.isEmpty();
    }

    /** The script of trial {@code trial} (scripts are used in turn); empty when the task has none. */
    public List<ScriptedModel.Turn> script(int trial) {
        return scripts.isEmpty() ? List.of() : scripts.get(trial % scripts.size());
    }

    public int scriptCount() {
        return scripts.size();
    }

    /** How the run should end; null when nothing is expected of it (category {@code other}). */
    public EndExpectation expectation() {
        return expectation;
    }

    /** The other graders, in the order they were added. */
    public List<Grader<? super E>> graders() {
        return graders;
    }

    public Duration timeout() {
        return timeout;
    }

    /**
     * The person's replies, in order: after the run's first turn, each continues the run as its next
     * turn ({@code Agent.reply}) while it can take one (it answered, or asked for input); the last
     * turn's result is graded. Empty (the default) for a task of one turn.
     */
    public List<String> replies() {
        return replies;
    }

    /** Builder for {@link Task}; {@link #build()} validates. */
    public static final class Builder<E extends Environment> {
        private final String id;
        private final Supplier<? extends E> environment;
        private String goal;
        private TaskCategory category = TaskCategory.SHOULD_SUCCEED;
        private AgentFactory<E> agent;
        private final List<List<ScriptedModel.Turn>> scripts = new ArrayList<>();
        private EndExpectation expectation;
        private final List<Grader<? super E>> graders = new ArrayList<>();
        private Duration timeout = DEFAULT_TIMEOUT;
        private final List<String> replies = new ArrayList<>();

        private Builder(String id, Supplier<? extends E> environment) {
            this.id = id;
            this.environment = environment;
        }

        /** What the user asks the agent (the run's goal). */
        public Builder<E> goal(String goal) {
            this.goal = goal;
            return this;
        }

        /** What the task exercises (default {@link TaskCategory#SHOULD_SUCCEED}); sets the default expectation. */
        public Builder<E> category(TaskCategory category) {
            this.category = Objects.requireNonNull(category, "category");
            return this;
        }

        /** Builds the agent of each trial from its environment and model (required). */
        public Builder<E> agent(AgentFactory<E> agent) {
            this.agent = Objects.requireNonNull(agent, "agent");
            return this;
        }

        /** Adds a script for the scripted model; several scripts make trials differ. */
        public Builder<E> script(ScriptedModel.Turn... turns) {
            return script(List.of(turns));
        }

        public Builder<E> script(List<ScriptedModel.Turn> turns) {
            if (turns.isEmpty()) {
                throw new ReinException("task '" + id + "': a script needs at least one turn");
            }
            scripts.add(List.copyOf(turns));
            return this;
        }

        /** How the run should end (replaces the category's default). */
        public Builder<E> expect(EndExpectation expectation) {
            this.expectation = Objects.requireNonNull(expectation, "expectation");
            return this;
        }

        public Builder<E> grader(Grader<? super E> grader) {
            graders.add(Objects.requireNonNull(grader, "grader"));
            return this;
        }

        /** The harness's limit for one trial (default 10 minutes); the agent's own budget should bind first. */
        public Builder<E> timeout(Duration timeout) {
            this.timeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** The person's replies that continue the run turn by turn (see {@link Task#replies()}). */
        public Builder<E> replies(List<String> replies) {
            replies.forEach(reply -> this.replies.add(Objects.requireNonNull(reply, "reply")));
            return this;
        }

        public Task<E> build() {
            String problem = dev.rein.eval.internal.TaskIds.problem(id);
            if (problem != null) {
                // the id names trace files (TASK.TRIAL.jsonl): letters of any script, nothing a file name cannot hold
                throw new ReinException("task id '" + (id == null ? "null" : dev.rein.internal.text.RunIds.shown(id))
                        + "' is invalid: " + problem + "; " + dev.rein.eval.internal.TaskIds.RULE);
            }
            if (environment == null) {
                throw new ReinException("task '" + id + "' needs an environment factory");
            }
            if (goal == null || goal.isBlank()) {
                throw new ReinException("task '" + id + "' needs a goal");
            }
            if (agent == null) {
                throw new ReinException("task '" + id + "' needs an agent factory: call agent((env, model) -> ...)");
            }
            if (timeout.isNegative() || timeout.isZero()) {
                throw new ReinException("task '" + id + "': the timeout must be positive");
            }
            return new Task<>(this, expectation != null ? expectation : category.defaultExpectation());
        }
    }
}
