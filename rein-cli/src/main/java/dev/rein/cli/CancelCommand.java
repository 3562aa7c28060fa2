package dev.rein.cli;

import dev.rein.run.RunStatus;
import dev.rein.state.RunSnapshot;
import dev.rein.state.Runs;
import dev.rein.store.jdbc.JdbcRunStore;
import dev.rein.trace.JsonlTraceListener;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code rein cancel RUN [--reason TEXT] [--trace FILE] [--json]}: ends a stored run as CANCELLED ({@link Runs#cancel}). */
@Command(name = "cancel", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        header = "Cancel a run that waits for approval, or whose process died.",
        description = {"Ends a stored run as CANCELLED (reason cancelled): the actions it waits for never run, and its"
                + " stored trace ends with the cancellation ('rein show RUN'). A cancelled run 'rein run' started can be"
                + " continued with 'rein reply RUN TEXT'. Exit code 0 when the cancellation is recorded, 2 when nothing"
                + " was cancelled (no such run, or it already ended).", ""})
final class CancelCommand implements Callable<Integer> {
    private final CliEnvironment env;

    @ExampleValue("run_3f1c9a7e5b2d4c8e6a0b")
    @Parameters(index = "0", paramLabel = "RUN", description = "The run id (see 'rein runs').")
    String runId;

    @ExampleValue("\"no longer needed\"")
    @Option(names = "--reason", paramLabel = "TEXT",
            description = "Why the run is cancelled; kept as the run's message (default: \"cancelled by a person\").")
    String reason;

    @ExampleValue("run.jsonl")
    @Option(names = "--trace", paramLabel = "FILE",
            description = "Append the cancellation (state_change, run_finished) to the run's JSONL trace FILE.")
    Path trace;

    @Option(names = "--json", description = "Print the cancelled run as one JSON object on stdout (as 'rein run --json').")
    boolean json;

    CancelCommand(CliEnvironment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        CliHome home = CliHome.of(env.env());
        // kept as the run's message, shown by 'rein show': bytes the JVM replaced would be stored silently changed
        CommandLineArgs.requireUtf8("--reason", reason);
        if (reason != null && reason.isBlank()) {
            // Runs.cancel would store its default for it: say so rather than drop what was meant as a reason
            throw new UsageException("--reason is empty: say why the run is cancelled, e.g. --reason \"no longer needed\","
                    + " or leave --reason out");
        }
        if (trace != null) {
            TraceFile.checkWritable(trace);
            TraceFile.requireOwnFile(trace, "--trace", home, java.util.Map.of(), "trace", "run.jsonl");
        }
        if (!home.hasStore()) {
            throw new UsageException(home.noStoreMessage());
        }
        try (JdbcRunStore store = home.existingStore()) {
            // the id as 'rein runs' shows it names the run too: an older Rein's id with a control character, which
            // Runs.cancel ends (it cannot be decided or resumed, but it can be cancelled)
            runId = home.storedRunId(store, runId, env.err(), "rein cancel");
            home.requireWritable(store);
            if (dev.rein.internal.text.RunIds.unstorable(runId) != null) {
                throw home.noSuchRun(runId);
            }
            RunSnapshot run = Runs.in(store).find(runId).orElseThrow(() -> home.noSuchRun(runId));
            if (run.status().terminal()) {
                throw new UsageException("run " + Text.visible(runId) + " already ended " + run.status() + " (" + run.reason()
                        + "); there is nothing to cancel; see " + SuggestedCommand.forRun("rein show", runId));
            }
            if (run.status() == RunStatus.RUNNING) {
                // The store keeps no owner or heartbeat, as for 'rein resume': say what is assumed and what a live
                // process makes of it (its next save finds the run changed, and it stops without overwriting it).
                env.err().println("rein cancel: run " + Text.visible(runId) + " was stored as RUNNING: it is taken to have"
                        + " stopped with its process; if another process is still running it, that process stops at its next"
                        + " save of the run (FAILED, store_conflict) without overwriting the cancellation, and a tool call it"
                        + " has under way may still finish");
            }
            // OpenTelemetry is told of the run's end as 'rein run' and 'rein resume' tell theirs: a span of the cancellation
            // linked to the run's earlier one, the run's stop metric, and the decisions made on the pause (counted now,
            // since no resumed run will count them); OTEL_* settings it cannot use are refused before anything changes
            try (CliTelemetry telemetry = CliTelemetry.from(env, home, () -> providerName(home, run))) {
                List<dev.rein.trace.RunListenerFactory> listeners = new java.util.ArrayList<>(telemetry.runListeners());
                if (trace != null) {
                    listeners.add(JsonlTraceListener.to(trace));
                }
                // a decision or resume saved meanwhile is Runs.cancel's to see: it refuses a run that ended since (exit 2)
                RunSnapshot cancelled = Runs.in(store).withListeners(null, listeners).cancel(runId, reason);
                if (json) {
                    env.out().println(ResultJson.line(ResultJson.of(cancelled)));
                }
                env.err().println("rein cancel: cancelled run " + Text.visible(runId) + " (it was " + run.status() + neverRun(run)
                        + "); see " + SuggestedCommand.forRun("rein show", runId) + (home.startedByRun(runId) ? ", or " + ResumeCommand.nextTurn(cancelled) : ""));
                return ExitCodes.SUCCEEDED;
            }
        }
    }

    /**
     * The provider named on the run's cancellation span, or null for none. A cancel calls no model, so no provider
     * setting refuses it. For a run 'rein run' started, the provider it stored (as 'rein resume' would continue it), else
     * REIN_PROVIDER's. For a run an application stored, whose provider the CLI was never told, the provider whose prices
     * list the run's model (REIN_PROVIDER's first, as a replay is priced), else none rather than a guess: a gateway's name
     * ({@code anthropic/claude-sonnet-4.5}) names none, as the vendor's table prices it whichever provider called it.
     */
    private String providerName(CliHome home, RunSnapshot run) {
        if (home.startedByRun(runId)) {
            try {
                RunSettings settings = home.settings(runId);
                return ProviderModels.provider(settings.provider() == null ? env.env() : settings.provider().environment(env.env())).name();
            } catch (dev.rein.ReinException e) {
                // settings that cannot be read, or a provider no longer installed: named as for an application's run
            }
        }
        String preferred = env.env().getOrDefault(ProviderModels.PROVIDER_ENV, "").strip();
        return dev.rein.provider.ModelProvider.available().stream()
                .sorted(java.util.Comparator.comparing(p -> !p.name().equalsIgnoreCase(preferred.isEmpty() ? ProviderModels.DEFAULT_PROVIDER : preferred)))
                // not a gateway's name (anthropic/claude-sonnet-4.5 on OpenRouter): its vendor's table prices it, but the run
                // went through another provider, so naming the vendor would be a guess
                .filter(p -> run.model() != null && !run.model().contains("/") && p.prices().find(run.model()).isPresent())
                .map(dev.rein.provider.ModelProvider::name).findFirst().orElse(null);
    }

    /**
     * The actions of the pause the cancel ended, which never run: a decided one too (it runs only when the run resumes).
     * Identical calls share one hash and are one action.
     */
    private static String neverRun(RunSnapshot run) {
        if (run.status() != RunStatus.WAITING_APPROVAL) {
            return "";
        }
        long waiting = run.approvals().requests().stream().map(r -> r.actionHash()).distinct().count();
        long decided = run.approvals().requests().stream().filter(r -> run.approvals().decisions().containsKey(r.callId()))
                .map(r -> r.actionHash()).distinct().count();
        return waiting == 0 ? "" : "; the " + waiting + " action" + (waiting == 1 ? "" : "s") + " it waited for will never run"
                + (decided == 0 ? "" : decided == waiting ? ", though decided" : ", decided or not");
    }
}
