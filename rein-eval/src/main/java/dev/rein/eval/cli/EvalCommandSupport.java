package dev.rein.eval.cli;

import dev.rein.ReinException;
import dev.rein.internal.text.Controls;
import dev.rein.eval.Suite;
import dev.rein.eval.file.EvalRegistry;
import dev.rein.eval.file.SuiteFile;
import dev.rein.eval.report.EvalReport;
import dev.rein.eval.report.ReportWriter;
import dev.rein.eval.run.EvalInterruptedException;
import dev.rein.eval.run.EvalResult;
import dev.rein.eval.run.EvalRunner;
import dev.rein.eval.run.Progress;
import dev.rein.eval.run.TrialModels;
import dev.rein.eval.run.TrialOutcome;
import dev.rein.internal.text.Counts;
import dev.rein.eval.trace.RecordedAgentFactory;
import dev.rein.eval.trace.TraceSuite;
import dev.rein.model.Model;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * What {@code rein eval SUITE [--trials N] [--model NAME] [--report out.html] [--json] [--traces DIR]}
 * does, in a form a command-line front end can call directly. SUITE is a suite file, or a folder of
 * JSONL traces whose recorded runs are replayed as regression tasks ({@link TraceSuite}). Progress
 * and errors go to {@code err}; the summary (or, with {@code json}, the JSON report) goes to {@code out}.
 *
 * <p>Exit codes: {@value #OK} every graded trial passed; {@value #TRIALS_FAILED} some trial failed
 * or was unsafe; {@value #INVALID} the suite, the options or the report file were unusable (before
 * any trial runs; or, when every trial passed, the report could not be written after them);
 * {@value #INFRA_ERRORS} some trial hit an infrastructure error (results are incomplete);
 * {@value #INTERRUPTED} interrupted (the summary, JSON report and HTML report then cover the trials that had ended, and a
 * line on {@code err} says so). A report that cannot be written after trials that failed keeps
 * {@value #TRIALS_FAILED} or {@value #INFRA_ERRORS}.
 */
public final class EvalCommandSupport {
    public static final int OK = 0;
    public static final int TRIALS_FAILED = 1;
    public static final int INVALID = 2;
    public static final int INFRA_ERRORS = 3;
    public static final int INTERRUPTED = 130;

    /**
     * The command's options.
     *
     * @param suiteFile   the suite, .yaml/.yml/.json
     * @param trials      trials per task; 0 means the suite's own {@code trials}
     * @param modelName   null to run offline on the suites' scripts; else the real model to run
     * @param models      makes the real model for {@code modelName} (e.g. the Anthropic provider when
     *                    a key is set); null when no provider is available
     * @param htmlReport  where to write the HTML report, or null
     * @param json        print the JSON report instead of the text summary
     * @param parallelism trials run at once
     * @param traces      the folder each trial writes its JSONL trace to ({@code TASK.TRIAL.jsonl}), or null
     * @param recorded    builds the agent under test for each recorded run when {@code suiteFile} is a folder
     *                    of traces; null for {@link RecordedAgentFactory#standIns()}
     * @param advice      what to do about a trial's infrastructure error, given its message (such as the variable
     *                    to check when the provider refused the key), or null when there is nothing to add; printed
     *                    on {@code err} after the summary, once per distinct advice. Null for none
     */
    public record Options(Path suiteFile, int trials, String modelName, Function<String, Model> models, Path htmlReport,
                          boolean json, int parallelism, Path traces, RecordedAgentFactory recorded,
                          Function<String, String> advice) {
        public Options {
            Objects.requireNonNull(suiteFile, "suiteFile");
            recorded = recorded == null ? RecordedAgentFactory.standIns() : recorded;
            advice = advice == null ? message -> null : advice;
        }

        /** Options without advice on infrastructure errors. */
        public Options(Path suiteFile, int trials, String modelName, Function<String, Model> models, Path htmlReport,
                       boolean json, int parallelism, Path traces, RecordedAgentFactory recorded) {
            this(suiteFile, trials, modelName, models, htmlReport, json, parallelism, traces, recorded, null);
        }

        /** Options without trace output, recorded runs replayed with stand-in tools. */
        public Options(Path suiteFile, int trials, String modelName, Function<String, Model> models, Path htmlReport,
                       boolean json, int parallelism) {
            this(suiteFile, trials, modelName, models, htmlReport, json, parallelism, null, null, null);
        }
    }

    private EvalCommandSupport() {}

    /** Runs a suite offline on its scripted models (a {@code modelName} is refused without a model provider). */
    public static int run(Path suiteFile, int trials, String modelName, Path htmlReport, boolean json, PrintStream out,
                          PrintStream err) {
        return run(suiteFile, trials, modelName, null, htmlReport, json, out, err);
    }

    /** Like {@link #run(Path, int, String, Path, boolean, PrintStream, PrintStream)}, with a real model provider. */
    public static int run(Path suiteFile, int trials, String modelName, Function<String, Model> models, Path htmlReport,
                          boolean json, PrintStream out, PrintStream err) {
        return run(new Options(suiteFile, trials, modelName, models, htmlReport, json, EvalRunner.DEFAULT_PARALLELISM),
                EvalRegistry.load(), out, err);
    }

    /** Runs with explicit options and registry. */
    public static int run(Options options, EvalRegistry registry, PrintStream out, PrintStream err) {
        try {
            if (options.trials() < 0) {
                throw new ReinException("--trials must be 1 or more, was " + options.trials());
            }
            boolean traceFolder = Files.isDirectory(options.suiteFile());
            if (!traceFolder && options.htmlReport() != null && sameFile(options.htmlReport(), options.suiteFile())) {
                // the report would replace the suite it grades, after every trial ran
                throw new ReinException("--report " + options.htmlReport() + " is the suite file; write the report to another"
                        + " file, such as report.html");
            }
            Suite suite = traceFolder ? traceSuite(options) : SuiteFile.load(existing(options.suiteFile()), registry);
            if (options.htmlReport() != null) {
                checkReport(options.htmlReport());
            }
            EvalRunner.Builder runner = EvalRunner.builder().models(traceFolder ? TrialModels.recorded() : models(options, suite))
                    .parallelism(options.parallelism()).progress(Progress.auto(err));
            if (options.trials() > 0) {
                runner.trials(options.trials());
            }
            if (options.traces() != null) {
                runner.traces(options.traces());
            }
            EvalResult result = runner.build().run(suite);
            EvalReport report = EvalReport.of(result);
            out.print(options.json() ? ReportWriter.json(report) + "\n" : TextSummary.render(report));
            out.flush();
            printAdvice(report, options.advice(), "rein eval", err);
            int code = exitCode(report);
            if (options.htmlReport() != null && !writeReport(report, options.htmlReport(), options.json(), out, err)) {
                // a failed or incomplete evaluation says so whatever became of the report (saved elsewhere, as the line
                // says); only one that passed turns into INVALID, so a CI step cannot take a missing report for success
                return code == OK ? INVALID : code;
            }
            return code;
        } catch (ReinException e) {
            // One line: parser messages (YAML carets, class names) are folded onto it.
            err.println("rein eval: " + Controls.visible(String.valueOf(e.getMessage()).strip().replaceAll("\\s*\\R\\s*", "; "),
                    false));
            return INVALID;
        } catch (EvalInterruptedException e) {
            Thread.currentThread().interrupt();
            EvalReport report = reportInterrupted(e, options.json(), "rein eval", out, err);
            if (options.htmlReport() != null) {
                writeReport(report, options.htmlReport(), options.json(), out, err);
            }
            return INTERRUPTED;
        }
    }

    /**
     * After an interruption: prints the summary (or, with {@code json}, the JSON report) of the trials that ended before
     * it, as an evaluation that ran to its end prints it, then one line on {@code err} saying that {@code command} was
     * interrupted, how many of the trials the summary covers, how many were cancelled in flight and how many had not
     * started, so the trials already paid for are not lost.
     *
     * @return the report printed
     */
    public static EvalReport reportInterrupted(EvalInterruptedException interrupted, boolean json, String command,
                                               PrintStream out, PrintStream err) {
        EvalReport report = EvalReport.of(interrupted);
        out.print(json ? ReportWriter.json(report) + "\n" : TextSummary.render(report));
        out.flush();
        int ended = interrupted.finished().trials().size();
        err.println(command + ": interrupted after " + ended + " of " + Counts.of(interrupted.planned(), "trial") + ": the "
                + (json ? "report" : "summary") + " covers the " + ended + " that ended; " + TextSummary.unfinished(report));
        return report;
    }

    /**
     * Prints on {@code err}, after {@code command} ("rein eval"), one line per distinct advice on the trials'
     * infrastructure errors, with how many trials it concerns: the summary quotes the provider's words
     * ('invalid x-api-key'), which do not say what to change on this machine.
     *
     * @param advice what to do about an infrastructure error, given its message, or null when there is nothing to add
     *               (as {@link Options#advice})
     */
    public static void printAdvice(EvalReport report, Function<String, String> advice, String command, PrintStream err) {
        if (advice == null) {
            return;
        }
        Map<String, Integer> trials = new LinkedHashMap<>();
        for (TrialOutcome trial : report.trials()) {
            String said = trial.infraError() == null ? null : advice.apply(trial.infraError());
            if (said != null) {
                trials.merge(said, 1, Integer::sum);
            }
        }
        trials.forEach((said, count) -> err.println(command + ": " + Counts.of(count, "trial")
                + " ended in an infrastructure error: " + Controls.visible(said, false)));
    }

    /**
     * Before any trial: a report path that cannot be written is found before the trials' time and money are spent.
     *
     * @throws ReinException saying why the file cannot be written and what to give instead
     */
    public static void checkReport(Path report) {
        try {
            ReportWriter.checkWritable(report);
        } catch (ReinException e) {
            throw new ReinException(e.getMessage() + "; give --report a file in a folder you can write, such as report.html"
                    + " (no trial was run)");
        }
    }

    /**
     * Writes the HTML report after the summary was printed, so a path that fails only now (a full disk, a folder
     * removed during the run) costs no results: the report is then saved to a file in the temporary folder, and
     * the line says where. False when it could not be written where asked.
     */
    private static boolean writeReport(EvalReport report, Path file, boolean json, PrintStream out, PrintStream err) {
        return writeReport(report, file, json, "rein eval", out, err);
    }

    /**
     * Writes the HTML report of {@code command} ("rein example orders") after its summary or JSON report was printed
     * ({@code json}), as {@code rein eval --report} does: "HTML report: PATH" on {@code out} after a summary; a file that
     * cannot be written now is saved to the temporary folder instead, and one line on {@code err} says where.
     *
     * @return false when the report could not be written to {@code file}
     */
    public static boolean writeReport(EvalReport report, Path file, boolean json, String command, PrintStream out,
                                      PrintStream err) {
        try {
            ReportWriter.writeHtml(report, file);
            if (!json) {
                out.println("\nHTML report: " + file.toAbsolutePath());
            }
            return true;
        } catch (ReinException e) {
            String results = json ? "the JSON report above holds the results" : "the summary above holds the results";
            String saved;
            try {
                Path elsewhere = Files.createTempFile("rein-eval-" + report.suite().replaceAll("[^A-Za-z0-9._-]", "_") + "-",
                        ".html");
                Files.writeString(elsewhere, ReportWriter.html(report), java.nio.charset.StandardCharsets.UTF_8);
                saved = "it was saved to " + elsewhere + " instead, and " + results;
            } catch (java.io.IOException | RuntimeException again) {
                saved = "nor could it be saved to the temporary folder (" + again.getMessage() + "); " + results;
            }
            out.flush();
            err.println(command + ": " + Controls.visible(String.valueOf(e.getMessage()).strip() + "; " + saved, false));
            return false;
        }
    }

    /** A folder of JSONL traces: every recorded run is a task, replayed on its recording. */
    private static Suite traceSuite(Options options) {
        if (options.modelName() != null && !options.modelName().isBlank()) {
            throw new ReinException("--model does not apply to a folder of traces: each recorded run is replayed from its"
                    + " recorded responses; drop --model");
        }
        if (options.traces() != null && sameFile(options.traces(), options.suiteFile())) {
            throw new ReinException("--traces " + options.traces() + " is the folder being replayed; write the new traces to"
                    + " another folder");
        }
        return TraceSuite.load(options.suiteFile(), options.recorded());
    }

    private static boolean sameFile(Path a, Path b) {
        if (a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize())) {
            return true;
        }
        try {
            return Files.exists(a) && Files.exists(b) && Files.isSameFile(a, b); // a link or another spelling of one file
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** A missing path that does not look like a suite file may have been meant as a trace folder: say both. */
    private static Path existing(Path suiteFile) {
        String name = String.valueOf(suiteFile.getFileName()).toLowerCase(Locale.ROOT);
        if (!Files.exists(suiteFile) && !name.endsWith(".yaml") && !name.endsWith(".yml") && !name.endsWith(".json")) {
            throw new ReinException("no such suite file or trace folder: " + suiteFile + "; give a suite file (.yaml, .yml,"
                    + " .json) or a folder of JSONL traces");
        }
        return suiteFile;
    }

    private static TrialModels models(Options options, Suite suite) {
        if (options.modelName() == null || options.modelName().isBlank()) {
            List<String> unscripted = suite.unscriptedTaskIds();
            if (!unscripted.isEmpty()) {
                // as the runner would refuse it, in the command's terms: the option that gives a real model and its key
                throw new ReinException("suite '" + suite.name() + "' cannot run offline: these tasks have no script: "
                        + String.join(", ", unscripted) + "; run it against a real model with --model NAME (an Anthropic"
                        + " model with ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN set, or with --provider openai an OpenAI model with OPENAI_API_KEY"
                        + " set), or give these tasks scripts (see docs/eval.md)");
            }
            return TrialModels.scripted();
        }
        // a suite with unscripted tasks cannot run offline: leaving --model out is no way on for it
        boolean offline = suite.unscriptedTaskIds().isEmpty();
        if (options.models() == null) {
            throw new ReinException("--model " + options.modelName() + " needs a model provider (for Anthropic models, set"
                    + " ANTHROPIC_API_KEY)." + (offline ? " Without --model the suite runs offline on its scripted models." : ""));
        }
        Model model = options.models().apply(options.modelName());
        if (model == null) {
            throw new ReinException("no model provider knows the model '" + options.modelName() + "'; " + knownModels(offline));
        }
        return TrialModels.shared(model, options.modelName());
    }

    /**
     * What to give instead of a model no provider knows: the models of the installed providers (their price tables, the
     * names the CLI lists for an unpriced model), or that none is installed, and, when {@code offline} (every task has a
     * script), that the suite also runs offline.
     */
    private static String knownModels(boolean offline) {
        List<dev.rein.provider.ModelProvider> providers = dev.rein.provider.ModelProvider.available();
        String orOffline = offline ? ", or leave --model out to run the suite offline on its scripted models" : "";
        if (providers.isEmpty()) {
            return "no model provider is installed: add one to the class path (such as rein-anthropic or rein-openai)" + orOffline;
        }
        return "give --model a model an installed provider knows (" + providers.stream()
                // a plug-in without a price table names at least its default model
                .map(p -> p.name() + ": " + (p.prices().entries().isEmpty() ? p.defaultModel() + " (its default)"
                        : String.join(", ", p.prices().entries().keySet())))
                .collect(java.util.stream.Collectors.joining("; ")) + ")" + orOffline;
    }

    static int exitCode(EvalReport report) {
        EvalReport.Summary s = report.summary();
        if (s.infraErrors() > 0) {
            return INFRA_ERRORS;
        }
        return s.passed() == s.graded() ? OK : TRIALS_FAILED;
    }
}
