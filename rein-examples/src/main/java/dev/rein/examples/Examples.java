package dev.rein.examples;

import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.eval.Suite;
import dev.rein.eval.cli.EvalCommandSupport;
import dev.rein.eval.cli.TextSummary;
import dev.rein.eval.report.EvalReport;
import dev.rein.eval.report.ReportWriter;
import dev.rein.eval.run.EvalInterruptedException;
import dev.rein.eval.run.EvalRunner;
import dev.rein.eval.run.Progress;
import dev.rein.eval.run.TrialModels;
import dev.rein.examples.assistant.PersonalAssistant;
import dev.rein.examples.code.CodeChange;
import dev.rein.examples.date.DateAssistant;
import dev.rein.examples.expense.ExpenseApproval;
import dev.rein.examples.npc.GameNpc;
import dev.rein.examples.orders.OrderInvestigation;
import dev.rein.examples.sql.DataAnalysis;
import dev.rein.examples.web.WebResearch;
import dev.rein.examples.workflow.TriageWorkflow;
import dev.rein.internal.text.NearNames;
import dev.rein.model.Model;
import dev.rein.model.ModelOption;
import dev.rein.budget.ModelPrice;
import dev.rein.provider.ModelProvider;
import dev.rein.provider.OptionedModel;
import dev.rein.provider.PricedModel;
import dev.rein.provider.ProviderConfig;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Tool;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The worked examples, by name. A command-line front end lists them with {@link #list()} and runs
 * one with {@link #run(String, boolean, PrintStream, PrintStream)}; {@link #evaluate} runs an
 * example's evaluation suite.
 *
 * <p>Without {@code ANTHROPIC_API_KEY} (or when asked to), examples run offline on a scripted
 * model, and say so: the tools, the loop, the limits and the checks are real; the model's replies
 * are a fixed script.
 */
public final class Examples {
    /** The demo ended as intended, or every trial of the suite passed. */
    public static final int OK = 0;
    /** The demo did not end as intended, or some trial failed. */
    public static final int NOT_AS_INTENDED = 1;
    /** No example has that name, or the options were unusable. */
    public static final int USAGE = 2;
    /** The example could not be set up (a missing program, a port, a file), or a trial hit an infrastructure error. */
    public static final int SETUP_FAILED = 3;
    /** Interrupted. */
    public static final int INTERRUPTED = 130;

    /** The model provider the examples use with a real model unless {@code REIN_PROVIDER} names another. */
    static final String PROVIDER = "anthropic";
    static final String PROVIDER_ENV = "REIN_PROVIDER";

    private static final List<Example> ALL = List.of(
            new DateAssistant(),
            new OrderInvestigation(),
            new ExpenseApproval(),
            new PersonalAssistant(),
            new CodeChange(),
            new DataAnalysis(),
            new WebResearch(),
            new GameNpc(),
            new TriageWorkflow());

    /** An example's name and what it shows. */
    public record Info(String name, String description) {}

    private Examples() {}

    /** Every example, in the order the documentation presents them. */
    public static List<Info> list() {
        return ALL.stream().map(e -> new Info(e.name(), e.description())).toList();
    }

    /** The example called {@code name}. */
    public static Optional<Example> find(String name) {
        return ALL.stream().filter(e -> e.name().equals(name)).findFirst();
    }

    /** The evaluation suite of the example called {@code name}. */
    public static Suite suite(String name) {
        return require(name).suite();
    }

    /**
     * Runs the demo of the example called {@code name}.
     *
     * @param offline run on the scripted model even when an API key is set
     * @return {@link #OK}, {@link #NOT_AS_INTENDED}, {@link #USAGE}, {@link #SETUP_FAILED} or {@link #INTERRUPTED}
     */
    public static int run(String name, boolean offline, PrintStream out, PrintStream err) {
        return run(name, offline, provider().defaultModel(), System.getenv(), out, err);
    }

    /** Like {@link #run(String, boolean, PrintStream, PrintStream)} with a model name and an explicit environment. */
    public static int run(String name, boolean offline, String modelName, Map<String, String> env, PrintStream out,
                          PrintStream err) {
        return run(name, offline, modelName, env, null, List.of(), out, err);
    }

    /**
     * Like {@link #run(String, boolean, String, Map, PrintStream, PrintStream)}, with a price for the
     * real model (null: the provider's table), e.g. zero for a local server, the demo's agent also
     * being offered {@code extraTools} (e.g. the tools of MCP servers) next to its own.
     */
    public static int run(String name, boolean offline, String modelName, Map<String, String> env, ModelPrice price,
                          List<Tool> extraTools,
                          PrintStream out, PrintStream err) {
        return run(name, offline, modelName, env, price, extraTools, null, out, err);
    }

    /**
     * Like {@link #run(String, boolean, String, Map, ModelPrice, List, PrintStream, PrintStream)}, with advice on a
     * provider failure. A demo that did not end as intended because the real model's provider failed its last call (a
     * key refused with HTTP 401, a server that cannot be reached) is a setup failure: {@link #SETUP_FAILED}, with one
     * line on {@code err} saying so.
     *
     * @param advice what to do about the provider's failure, given the message the run ended with ("the model provider
     *               failed (HTTP 401): ..."), such as the variable to check when the provider refused the key, or null
     *               when there is nothing to add; null for none
     */
    public static int run(String name, boolean offline, String modelName, Map<String, String> env, ModelPrice price,
                          List<Tool> extraTools, Function<String, String> advice, PrintStream out, PrintStream err) {
        return run(name, offline, modelName, env, price, List.of(), extraTools, advice, out, err);
    }

    /**
     * Like {@link #run(String, boolean, String, Map, ModelPrice, List, Function, PrintStream, PrintStream)}, the real
     * model sending {@code options} with every request (e.g. {@code OpenAiReasoningEffort.of("none")} or Claude's
     * thinking, given on the command line; null or empty for none); the scripted model ignores them.
     *
     * <p>A demo whose thread is interrupted (Ctrl-C) ends its run CANCELLED, shown on {@code out}, and returns
     * {@link #INTERRUPTED} with one line on {@code err}, the thread's interrupt status kept.
     */
    public static int run(String name, boolean offline, String modelName, Map<String, String> env, ModelPrice price,
                          List<? extends ModelOption> options, List<Tool> extraTools, Function<String, String> advice,
                          PrintStream out, PrintStream err) {
        Optional<Example> example = find(name);
        if (example.isEmpty()) {
            err.println("rein example: " + unknown(name));
            return USAGE;
        }
        ProviderWatch watch = null;
        try {
            DemoModel model = model(example.get(), offline, modelName, env, price, err).offering(extraTools);
            if (!model.scripted()) {
                watch = new ProviderWatch(model.model());
                // the options outermost, so the demo's agent takes them as its own request options (traced, stored)
                model = new DemoModel(OptionedModel.of(watch, listed(options)), model.name(), false, model.via(), model.offered());
            }
            out.println("Example: " + example.get().name() + " — " + example.get().description());
            out.println("Model:   " + model.label());
            out.println();
            int code = example.get().demo(model, out);
            out.flush();
            if (Thread.currentThread().isInterrupted()) {
                // an agent's run on an interrupted thread is cancelled (its ending printed above), not a demo gone wrong
                err.println("rein example: interrupted");
                return INTERRUPTED;
            }
            String failure = watch == null ? null : watch.lastFailure();
            if (code == NOT_AS_INTENDED && failure != null) {
                // the agent never got to work: the provider refused it, which the key or the server settings can change
                String said = advice == null ? null : advice.apply(failure);
                err.println("rein example " + name + ": the demo ended in an infrastructure error: "
                        + oneLine(failure) + (said == null ? "" : " (" + oneLine(said) + ")"));
                return SETUP_FAILED;
            }
            return code;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("rein example: interrupted");
            return INTERRUPTED;
        } catch (ExampleSetupException e) {
            err.println("rein example " + name + ": " + oneLine(e.getMessage()));
            return SETUP_FAILED;
        } catch (ReinException e) {
            err.println("rein example " + name + ": " + oneLine(e.getMessage()));
            return USAGE;
        } finally {
            closeQuietly(watch);
        }
    }

    /**
     * {@code text} on one line with its control characters shown as escapes: what a user typed (an unknown name) or an
     * exception's message, as the command line prints every message.
     */
    private static String oneLine(String text) {
        return Display.visible(text == null ? "" : text.strip().replaceAll("\\s*\\R\\s*", "; "), false);
    }

    /** Releases the real model's HTTP client; a failure to close must not change how the demo ended. */
    private static void closeQuietly(AutoCloseable model) {
        if (model == null) {
            return;
        }
        try {
            model.close();
        } catch (Exception e) {
            // nothing of the demo depends on it any more
        }
    }

    /**
     * Runs the evaluation suite of the example called {@code name}: offline on its scripts, or
     * against the real model when a key is set and {@code offline} is false. Prints the summary. When the calling
     * thread is interrupted (Ctrl-C), the trials in flight are cancelled, the summary of those that had ended is printed
     * with a line on {@code err} saying so ({@link EvalCommandSupport#reportInterrupted}), and {@link #INTERRUPTED} is
     * returned.
     *
     * @param trials trials per task; 0 for the suite's own number
     */
    public static int evaluate(String name, boolean offline, int trials, PrintStream out, PrintStream err) {
        return evaluate(name, offline, trials, provider().defaultModel(), System.getenv(), out, err);
    }

    /** Like {@link #evaluate(String, boolean, int, PrintStream, PrintStream)} with a model name and an explicit environment. */
    public static int evaluate(String name, boolean offline, int trials, String modelName, Map<String, String> env,
                               PrintStream out, PrintStream err) {
        return evaluate(name, offline, trials, modelName, env, null, out, err);
    }

    /** Like {@link #evaluate(String, boolean, int, String, Map, PrintStream, PrintStream)}, with a price for the real model. */
    public static int evaluate(String name, boolean offline, int trials, String modelName, Map<String, String> env,
                               ModelPrice price, PrintStream out, PrintStream err) {
        return evaluate(name, offline, trials, modelName, env, price, null, out, err);
    }

    /**
     * Like {@link #evaluate(String, boolean, int, String, Map, ModelPrice, PrintStream, PrintStream)}, with advice on
     * the trials' infrastructure errors, printed on {@code err} after the summary as {@code rein eval} prints it
     * ({@link EvalCommandSupport#printAdvice}).
     *
     * @param advice what to do about an infrastructure error, given its message (such as the variable to check when the
     *               provider refused the key), or null when there is nothing to add; null for none
     */
    public static int evaluate(String name, boolean offline, int trials, String modelName, Map<String, String> env,
                               ModelPrice price, Function<String, String> advice, PrintStream out, PrintStream err) {
        return evaluate(name, offline, trials, modelName, env, price, advice, false, out, err);
    }

    /**
     * Like {@link #evaluate(String, boolean, int, String, Map, ModelPrice, Function, PrintStream, PrintStream)}; with
     * {@code json}, {@code out} gets the JSON report ({@link ReportWriter#json}) instead of the text summary, as
     * {@code rein eval --json} prints it.
     */
    public static int evaluate(String name, boolean offline, int trials, String modelName, Map<String, String> env,
                               ModelPrice price, Function<String, String> advice, boolean json, PrintStream out,
                               PrintStream err) {
        return evaluate(name, offline, trials, modelName, env, price, List.of(), advice, json, out, err);
    }

    /**
     * Like {@link #evaluate(String, boolean, int, String, Map, ModelPrice, Function, boolean, PrintStream, PrintStream)},
     * the real model sending {@code options} with every request of every trial (e.g. {@code OpenAiReasoningEffort.of("none")}
     * or Claude's thinking, given on the command line; null or empty for none); the scripted models ignore them. The real
     * model's HTTP client is closed when the evaluation ends.
     */
    public static int evaluate(String name, boolean offline, int trials, String modelName, Map<String, String> env,
                               ModelPrice price, List<? extends ModelOption> options, Function<String, String> advice,
                               boolean json, PrintStream out, PrintStream err) {
        return evaluate(name, offline, Evaluation.of(trials, json), modelName, env, price, options, advice, out, err);
    }

    /**
     * How {@link #evaluate(String, boolean, Evaluation, String, Map, ModelPrice, List, Function, PrintStream, PrintStream)}
     * runs an example's suite and reports it: {@code rein eval}'s options, given to {@code rein example NAME --eval}.
     *
     * @param trials      trials per task; 0 (or less) for the suite's own number
     * @param parallelism trials run at once, at least 1 ({@code --parallel}): 1 runs them one after another, for a
     *                    provider's rate limit or a local server that answers one request at a time
     * @param json        print the JSON report ({@link ReportWriter#json}) instead of the text summary
     * @param report      also write the self-contained HTML report to this file, or null: checked before any trial, and
     *                    written after the summary as {@code rein eval --report} writes it
     * @param traces      write each trial's JSONL trace to this folder as {@code TASK.TRIAL.jsonl}, or null
     */
    public record Evaluation(int trials, int parallelism, boolean json, Path report, Path traces) {
        public Evaluation {
            if (parallelism < 1) {
                throw new ReinException("parallelism must be at least 1, was " + parallelism);
            }
        }

        /** {@code trials} per task (0: the suite's own), {@value EvalRunner#DEFAULT_PARALLELISM} at a time, no files. */
        public static Evaluation of(int trials, boolean json) {
            return new Evaluation(trials, EvalRunner.DEFAULT_PARALLELISM, json, null, null);
        }
    }

    /**
     * Like {@link #evaluate(String, boolean, int, String, Map, ModelPrice, List, Function, boolean, PrintStream, PrintStream)},
     * run and reported as {@code evaluation} says (trials at once, the HTML report, the trials' traces), as
     * {@code rein eval} runs a suite file: a report file that cannot be written after the trials is saved to the
     * temporary folder instead, the line on {@code err} says where, and an evaluation whose every trial passed then
     * returns {@link #USAGE}.
     */
    public static int evaluate(String name, boolean offline, Evaluation evaluation, String modelName,
                               Map<String, String> env, ModelPrice price, List<? extends ModelOption> options,
                               Function<String, String> advice, PrintStream out, PrintStream err) {
        if (evaluation == null) {
            throw new ReinException("Examples.evaluate(...) was given no Evaluation (null): pass how to run and report the"
                    + " trials, e.g. Evaluation.of(3, false)");
        }
        boolean json = evaluation.json();
        String command = "rein example " + name;
        Optional<Example> example = find(name);
        if (example.isEmpty()) {
            err.println("rein example: " + unknown(name));
            return USAGE;
        }
        DemoModel model = null;
        try {
            if (evaluation.report() != null) {
                EvalCommandSupport.checkReport(evaluation.report()); // before the trials' time and money are spent
            }
            model = model(example.get(), offline, modelName, env, price, err);
            // the options outermost, so the suite's agents take them as their own request options (traced, stored)
            EvalRunner.Builder runner = EvalRunner.builder().parallelism(evaluation.parallelism()).progress(Progress.auto(err))
                    .models(model.scripted() ? TrialModels.scripted()
                            : TrialModels.shared(OptionedModel.of(model.model(), listed(options)), model.name()));
            if (evaluation.trials() > 0) {
                runner.trials(evaluation.trials());
            }
            if (evaluation.traces() != null) {
                runner.traces(evaluation.traces());
            }
            EvalReport report = EvalReport.of(runner.build().run(example.get().suite()));
            out.print(json ? ReportWriter.json(report) + "\n" : TextSummary.render(report));
            out.flush();
            EvalCommandSupport.printAdvice(report, advice, command, err);
            EvalReport.Summary s = report.summary();
            int code = s.infraErrors() > 0 ? SETUP_FAILED : s.passed() == s.graded() ? OK : NOT_AS_INTENDED;
            if (evaluation.report() != null
                    && !EvalCommandSupport.writeReport(report, evaluation.report(), json, command, out, err)) {
                // as rein eval: only an evaluation that passed turns into USAGE, so a missing report is not read as success
                return code == OK ? USAGE : code;
            }
            return code;
        } catch (EvalInterruptedException e) {
            Thread.currentThread().interrupt();
            EvalReport report = EvalCommandSupport.reportInterrupted(e, json, command, out, err);
            if (evaluation.report() != null) {
                EvalCommandSupport.writeReport(report, evaluation.report(), json, command, out, err);
            }
            return INTERRUPTED;
        } catch (ReinException e) {
            err.println(command + ": " + oneLine(e.getMessage()));
            return USAGE;
        } finally {
            if (model != null && !model.scripted() && model.model() instanceof AutoCloseable real) {
                closeQuietly(real);
            }
        }
    }

    /** {@code options}, none for null. */
    private static List<? extends ModelOption> listed(List<? extends ModelOption> options) {
        return options == null ? List.of() : options;
    }

    /**
     * The real model when {@code offline} is false and the environment configures the provider
     * ({@code REIN_PROVIDER}, default {@value #PROVIDER}); else the example's script, saying why
     * when a setting (such as the API key) is missing.
     */
    private static DemoModel model(Example example, boolean offline, String modelName, Map<String, String> env,
                                   ModelPrice price, PrintStream err) {
        ModelProvider provider = provider(env);
        if (!offline) {
            try {
                String name = modelName == null ? provider.defaultModel() : modelName;
                Model real = provider.create(ProviderConfig.of(env));
                return new DemoModel(price == null ? real : PricedModel.of(real, name, price), name, false, via(provider));
            } catch (ReinException e) {
                String message = e.getMessage() == null ? "" : e.getMessage();
                if (!message.contains(" is not set")) {
                    throw e;
                }
                err.println("rein example: " + offline(message));
            }
        }
        return new DemoModel(ScriptedModel.of(example.demoScript()), provider.defaultModel(), true);
    }

    /**
     * The provider's "not set" message, said of an example that runs offline: what is not set, that the example runs
     * offline, then the provider's advice on setting it, all of it (Anthropic's names ANTHROPIC_AUTH_TOKEN as well) but
     * its pointer to 'rein demo', which is what the example does now.
     */
    static String offline(String notSet) {
        int colon = notSet.indexOf(": ");
        String what = colon < 0 ? notSet : notSet.substring(0, colon);
        String advice = colon < 0 ? "" : notSet.substring(colon + 2);
        int demo = advice.indexOf(", or try './rein demo'");
        advice = demo < 0 ? advice : advice.substring(0, demo);
        return what + ", so the example runs offline on its scripted model" + (advice.isEmpty() ? "." : "; for the real model, "
                + advice + ".");
    }

    /** The examples' model provider by default, {@value #PROVIDER}, found by name with {@link java.util.ServiceLoader}. */
    static ModelProvider provider() {
        return provider(System.getenv());
    }

    /** The provider {@code REIN_PROVIDER} names in {@code env}, else {@value #PROVIDER}. */
    static ModelProvider provider(Map<String, String> env) {
        String name = env.getOrDefault(PROVIDER_ENV, "").strip();
        return ModelProvider.require(name.isEmpty() ? PROVIDER : name);
    }

    /** How the demo announces where the real model runs. */
    private static String via(ModelProvider provider) {
        return switch (provider.name()) {
            case "anthropic" -> "Anthropic API";
            case "openai" -> "OpenAI-compatible API";
            default -> provider.name() + " provider";
        };
    }

    private static Example require(String name) {
        return find(name).orElseThrow(() -> new ReinException(unknown(name)));
    }

    /**
     * That {@code name} is no example: "unknown example 'ordres'; did you mean orders?" when it is one or two letters from
     * an example's name (the rein command's rule for a misspelled command), else the list of examples. The name is quoted
     * as given, not stripped: a stray space ('date ') would otherwise be quoted as the very example the message goes on
     * to list.
     *
     * @param name a name that {@link #find} finds no example by
     * @return the message, as {@link #run} and {@link #evaluate} print it after "rein example: "
     */
    public static String unknown(String name) {
        return NearNames.unknown("example", String.valueOf(name), ALL.stream().map(Example::name).toList(),
                "the examples are: " + names());
    }

    /** The examples' names, in the order 'rein examples' lists them: "date, orders, ...". */
    public static String names() {
        return String.join(", ", ALL.stream().map(Example::name).toList());
    }
}
