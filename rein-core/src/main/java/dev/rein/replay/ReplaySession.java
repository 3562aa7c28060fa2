package dev.rein.replay;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.budget.Budget;
import dev.rein.model.Model;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelResponse;
import dev.rein.run.Reasons;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One replay of a recorded run, in parts, for a harness that starts and awaits the run itself
 * (the eval harness does): the {@link #model() model} that answers from the recording, the agent
 * under test {@linkplain #agent(Agent) set up} to replay with it, and the {@link #report(RunResult)
 * report} once the run has ended. Made by {@link Replay#session()}; a session replays its run once.
 *
 * <pre>{@code
 * ReplaySession session = Replay.from(trace).session();
 * RunResult result = session.agent(agentUnderTest).run(session.recorded().goal());
 * ReplayReport report = session.report(result);
 * }</pre>
 */
public final class ReplaySession {
    private final Recording recording;
    private final Comparison comparison;
    private final ReplayModel model;
    private final boolean liveReadTools;
    /** The agent under test, once {@link #agent} set it up; its settings are the base of every resumption's too. */
    private volatile Agent underTest;
    /** The step of the pause the recorded run ended from, its resume refused, where the replay stopped; -1 for none. */
    private volatile int stoppedAtRefusal = -1;
    /** How many times the replay resumed from a pause at each step, to take the recorded resumptions in order. */
    private final Map<Integer, Integer> resumes = new java.util.concurrent.ConcurrentHashMap<>();

    ReplaySession(Recording recording, boolean liveReadTools, boolean stopAtDivergence) {
        this.recording = recording;
        this.comparison = new Comparison(recording);
        this.model = new ReplayModel(recording, comparison, stopAtDivergence);
        this.liveReadTools = liveReadTools;
    }

    /** What the trace recorded about the run: goal, model, tools, system prompt, max_tokens. */
    public RecordedRun recorded() {
        return RecordedRun.of(recording);
    }

    /** The model that answers each call with the next recorded response, comparing the request with the recorded one first. */
    public Model model() {
        return model;
    }

    /**
     * {@code agent}'s configuration (its tools, guards, policies and prompt: the version under test)
     * set up to replay: this session's model, the recorded model name, run id and limits (the conversation's too,
     * when the trace records them; the per-tool caps as recorded, in place of the agent's, when the trace records
     * them; a critic's own model at its recorded price), the model priced
     * as the recording says its money limit counted it (when the trace records that price; else as the
     * agent prices it), so that the replay spends and lowers max_tokens where the run did (and only if it did:
     * {@link Agent.Builder#capOutputToMoneyLeft} as the recording says), tools
     * answered from the recording, and requests compared after masking the agent's secrets, as the
     * trace masked them. The replay is kept in a store of its own, never in the agent's: it has the
     * recorded run id, and the recorded run in the agent's store is left as it is. Start it with the
     * recorded goal.
     */
    public Agent agent(Agent agent) {
        Objects.requireNonNull(agent, "agent");
        underTest = agent;
        comparison.secrets(agent.config().secrets());
        // a stage of the agent's own may move a call on from a failed attempt, as the recorded run's did
        model.stages(!agent.config().modelInterceptors().isEmpty(),
                agent.config().modelInterceptors().stream().anyMatch(ModelInterceptor::retries));
        return limited(agent.config().toBuilder().model(model), recording.model(), recording.limits())
                .modelInterceptor(toRecording())
                .toolInterceptor(new RecordedTools(recording, liveReadTools, comparison))
                .listener(comparison::listener)
                .runIds(new dev.rein.internal.replay.RecordedRunId(recording.runId()))
                // The replay keeps the recorded run id: in the agent's own store it would meet the recorded run
                // (a store conflict at the first save) and add its trace to that run's
                .store(new dev.rein.state.InMemoryRunStore())
                .build();
    }

    /**
     * The agent to resume a replayed run with once {@link #decidePaused} gave its pause the recorded decisions:
     * {@code replaying} with the model name and limits the recorded run's resumption from that pause ran under (its
     * {@code run_resumed} records the resuming agent's, which may be other than the starting agent's), so after the
     * resume the replay stops, lowers max_tokens and refuses a tool's calls where the run did; {@code replaying} itself
     * when the trace records none there (a trace written before run_resumed recorded them). A resumption after the
     * recorded run's process stopped while RUNNING has no pause to resume from in a replay: its limits are not taken
     * up, and a divergence at or after it says which differed ({@link #report}).
     *
     * @param replaying the agent this session {@linkplain #agent(Agent) set up} (or one made from it with
     *                  {@link Agent#withListener}); the one returned shares its store and listeners
     * @param paused    the replayed run's pause, just decided
     */
    public Agent resuming(Agent replaying, RunResult paused) {
        Objects.requireNonNull(replaying, "replaying");
        Objects.requireNonNull(paused, "paused");
        if (underTest == null) {
            throw new IllegalStateException("resuming(...) is for the agent agent(...) set up: call agent(...) first");
        }
        int nth = resumes.merge(paused.steps(), 1, Integer::sum) - 1;
        return under(replaying, recording.resumed(paused.steps(), nth));
    }

    /**
     * The agent to give the replayed run the recorded run's reply {@code nth} with (0 for the first, {@code
     * replaying.startReply(runId, recorded().replies().get(nth))}): {@code replaying} with the model name and limits the
     * recorded turn ran under (its {@code turn_started} records the replying agent's, which may be other than the
     * starting agent's), so the replayed turn stops where it did; {@code replaying} itself when the trace records none
     * there (a trace written before turn_started recorded them).
     *
     * @param replaying the agent this session {@linkplain #agent(Agent) set up} (or one made from it with
     *                  {@link Agent#withListener}); the one returned shares its store and listeners
     * @param nth       which recorded reply, 0 for the first
     */
    public Agent replying(Agent replaying, int nth) {
        Objects.requireNonNull(replaying, "replaying");
        if (underTest == null) {
            throw new IllegalStateException("replying(...) is for the agent agent(...) set up: call agent(...) first");
        }
        return under(replaying, recording.replied(nth));
    }

    /** {@code replaying} under the model name and limits {@code event} (a run_resumed or turn_started) records, or as it is. */
    private Agent under(Agent replaying, JsonNode event) {
        if (event == null) {
            return replaying;
        }
        String modelName = event.path("model").isTextual() ? event.get("model").asText() : recording.model();
        // from the agent under test's own settings again, as at the start: a limit the recorded agent did not have is not kept
        Agent.Builder variant = replaying.config().toBuilder().conversationBudget(underTest.config().conversationBudget());
        return limited(variant, modelName, event.path("limits")).build();
    }

    /**
     * {@code builder} with the recorded model name and what {@code limits} (run_started's or a run_resumed's) say the
     * run was limited by: its budget (over the agent under test's), the conversation's when recorded, the model priced
     * as the money limit counted it when recorded (else as the agent prices it), a critic's own model at its recorded
     * price, and max_tokens lowered for money only where the run lowered it.
     */
    private Agent.Builder limited(Agent.Builder builder, String modelName, JsonNode limits) {
        builder.modelName(modelName).prices(underTest.config().prices());
        dev.rein.budget.ModelPrice price = Recording.modelPrice(limits);
        if (price != null) {
            builder.price(modelName, price);
        }
        // a critic's own model at the price its calls were charged (and its reviews' max_tokens lowered) at
        Recording.modelPrices(limits).forEach(builder::price);
        // the conversation's limits as recorded (a trace written before Rein recorded them: the agent's own, as before)
        JsonNode conversation = limits.get("conversation_limits");
        if (conversation != null && conversation.isObject()) {
            builder.conversationBudget(budget(Budget.builder().build(), conversation, underTest));
        }
        // as the run did: a trace from before the cap (or of an agent that turned it off) had no call lowered for money
        return builder.capOutputToMoneyLeft(Recording.moneyCappedOutput(limits))
                .budget(budget(underTest.config().budget(), limits, underTest));
    }

    /**
     * Sends every model call of the run to the recording, also those made to another model than the
     * agent's (a critic with a model of its own, an application stage's fallback model): they are in
     * the recording too, and a replay calls no provider.
     */
    private ModelInterceptor toRecording() {
        return new ModelInterceptor() {
            @Override
            public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                return chain.proceed(call.model() == model ? call : call.withModel(model));
            }

            @Override
            public long interceptCount(ModelCall call, Chain chain) throws ModelException, InterruptedException {
                return chain.proceedCount(call.model() == model ? call : call.withModel(model));
            }

            @Override
            public String toString() {
                return "replay";
            }
        };
    }

    /**
     * Gives a replayed run that paused for approval the decisions a person made on its pending calls,
     * as recorded (approved, rejected, or edited: a call a person edited pauses the replay where the
     * recording paused), so that the harness resumes it ({@code replaying.startResume(runId)}), as a
     * run recorded with its resumption did. Returns false, deciding nothing, when {@code result} did
     * not pause, or paused where the recording has no decision on every pending call (the recorded
     * run ended there, or the replay diverged), or the recorded run's resume from it was refused (a durable engine's
     * worker with another output schema: it ended there, FAILED configuration_error; or a resume that failed otherwise,
     * FAILED internal_error; the report says which), or a
     * recorded edit no longer fits today's tool: the replay ends at that pause.
     *
     * @param replaying the agent this session {@linkplain #agent(Agent) set up} (or one made from it
     *                  with {@link Agent#withListener}: it shares the replay's store)
     * @param result    how the replayed run, or its last resumption, ended
     */
    public boolean decidePaused(Agent replaying, RunResult result) {
        Objects.requireNonNull(replaying, "replaying");
        Objects.requireNonNull(result, "result");
        if (result.status() != dev.rein.run.RunStatus.WAITING_APPROVAL) {
            return false;
        }
        java.util.List<dev.rein.approval.ApprovalRequest> pending = replaying.runs().pending(result.runId());
        if (pending.isEmpty() || pending.stream().anyMatch(p -> recording.decision(p.step(), p.callId()) == null)) {
            return false;
        }
        if (recording.refusedAtResume() != null && model.used() >= recording.calls().size()) {
            // the recorded run ended from this pause (its last), its resume refused: it went no further, and neither does
            // the replay (resumed, it would make model calls the recording does not have), which report() says
            stoppedAtRefusal = pending.get(0).step();
            return false;
        }
        for (dev.rein.approval.ApprovalRequest p : pending) {
            JsonNode d = recording.decision(p.step(), p.callId());
            String by = d.hasNonNull("decided_by") ? d.get("decided_by").asText() : "replay";
            try {
                switch (d.path("decision").asText()) {
                    case "edit" -> replaying.runs().edit(result.runId(), p.actionHash(), d.path("arguments"), by);
                    case "reject" -> replaying.runs().reject(result.runId(), p.actionHash(),
                            d.hasNonNull("reason") ? d.get("reason").asText() : null, by);
                    default -> replaying.runs().approve(result.runId(), p.actionHash(), by);
                }
            } catch (dev.rein.ReinException e) {
                // edited arguments today's tool no longer takes: its changed schema is in every request, so the
                // replay diverged at its first call already; it stays paused here
                return false;
            }
        }
        return true;
    }

    /** The first divergence so far. */
    public Optional<Divergence> divergence() {
        return Optional.ofNullable(comparison.divergence());
    }

    /**
     * What the replay found, once the replayed run has ended with {@code result}. A run that ended
     * before using every recorded model call diverged there too.
     */
    public ReplayReport report(RunResult result) {
        Objects.requireNonNull(result, "result");
        model.callEnded();
        if (model.used() < recording.calls().size()) {
            comparison.endedEarly(model.used(), result);
        }
        JsonNode finished = recording.finished();
        Divergence divergence = comparison.divergence();
        if (divergence == null && stoppedAtRefusal >= 0 && result.status() == dev.rein.run.RunStatus.WAITING_APPROVAL) {
            divergence = refusedAtResume(stoppedAtRefusal, recording.refusedAtResume());
        } else if (divergence == null && result.status() == dev.rein.run.RunStatus.WAITING_APPROVAL) {
            divergence = pausedOnOtherCalls(result);
        }
        if (divergence != null && !recording.unappliedLimits(divergence.step()).isEmpty()) {
            // limits the replay could not take up may explain it: said, rather than left for the reader to find
            divergence = new Divergence(divergence.step(), divergence.purpose(),
                    divergence.description() + recording.unappliedLimits(divergence.step()), divergence.requestDiff());
        }
        return new ReplayReport(recording.runId(), divergence, result,
                finished == null ? null : finished.path("status").asText(),
                finished == null ? null : finished.path("reason").asText(),
                finished == null ? null : finished.path("answer").asText(null), model.used());
    }

    /**
     * Null when the replay waits on the calls the recording ended waiting on (by step and Rein call id); else the
     * divergence: a replay that pauses at the same step on other calls (today's policy holds more, or fewer) is not
     * the recorded run.
     */
    private Divergence pausedOnOtherCalls(RunResult result) {
        java.util.List<String> now = result.pendingApprovals().stream().map(p -> p.step() + "|" + p.callId()).sorted().toList();
        java.util.List<String> then = recording.heldCalls().stream().filter(k -> !recording.decisions().containsKey(k)).sorted().toList();
        if (now.equals(then)) {
            return null;
        }
        int step = result.pendingApprovals().isEmpty() ? 0 : result.pendingApprovals().get(0).step();
        return new Divergence(step, "approval", "step " + step + ": the run now waits for a person on " + ids(now)
                + " where the recording waited on " + ids(then), "");
    }

    /**
     * The replay stopped at the pause the recorded run ended from, its resume refused: not the replayed agent's doing (it
     * resumes its own runs), but the recorded ending, which the replay does not reach, said with the refusal's words. A
     * configuration_error is a refusal; an internal_error may be one or a failure (a listener factory that threw), which
     * the trace does not tell apart.
     */
    private static Divergence refusedAtResume(int step, JsonNode finished) {
        String what = Reasons.INTERNAL_ERROR.equals(finished.path("reason").asText()) ? "refused or failed" : "refused";
        return new Divergence(step, "resume", "step " + step + ": the recorded run was " + what + " at its resume from this pause"
                + " and ended " + finished.path("status").asText() + "/" + finished.path("reason").asText() + " (\""
                + finished.path("message").asText() + "\"), the decisions taken on the pause not applied; the replay stops"
                + " at the pause too", "");
    }

    private static String ids(java.util.List<String> keys) {
        return keys.isEmpty() ? "no call" : String.join(", ", keys.stream().map(k -> k.substring(k.indexOf('|') + 1)).toList());
    }

    /** Run when the first divergence is found and the replay should stop there. */
    void onDivergence(Runnable cancel) {
        model.onDivergence(cancel);
    }

    /** The recorded limits over the agent's budget, so the replay stops (and refuses a tool's calls) where the recording could. */
    private static Budget budget(Budget base, JsonNode limits, Agent agent) {
        // The per-tool caps as recorded, in place of the agent's (a trace from before Rein recorded them: the agent's
        // own). A cap on a tool the agent no longer has is left out: none of its calls can reach the cap, and the
        // agent would refuse it as misspelled; the tools offered differ, which the replay reports.
        Map<String, Integer> caps = Recording.toolCallLimits(limits, null, "");
        if (caps != null) {
            List<String> tools = agent.config().tools().names();
            Map<String, Integer> kept = new LinkedHashMap<>();
            caps.forEach((tool, cap) -> {
                if (!agent.config().toolSources().isEmpty() || tools.contains(tool)) {
                    kept.put(tool, cap);
                }
            });
            base = new Budget(base.maxSteps(), base.maxCostUsd(), base.maxDuration(), base.maxInputTokens(),
                    base.maxOutputTokens(), kept);
        }
        Budget.Builder b = base.toBuilder();
        if (limits.has("max_steps")) {
            b.maxSteps(limits.get("max_steps").asInt());
        }
        // A limit recorded as null was none: the replay has none either (a NumberFormatException before)
        if (limits.has("max_cost_usd")) {
            JsonNode cost = limits.get("max_cost_usd");
            b.maxCostUsd(cost.isNull() ? null : new BigDecimal(cost.asText()));
        }
        if (limits.has("max_seconds")) {
            JsonNode seconds = limits.get("max_seconds");
            b.maxDuration(seconds.isNull() ? null : Recording.timeLimit(seconds)); // exact: 1.0005 s is not 1.001 s
        }
        // Token limits are recorded only when set; a run they stopped stops where it did
        if (limits.hasNonNull("max_input_tokens")) {
            b.maxInputTokens(limits.get("max_input_tokens").asLong());
        }
        if (limits.hasNonNull("max_output_tokens")) {
            b.maxOutputTokens(limits.get("max_output_tokens").asLong());
        }
        return b.build();
    }
}
