package dev.rein.replay;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.ReinException;
import dev.rein.budget.ModelPrice;
import dev.rein.internal.model.TracingStage;
import dev.rein.json.Json;
import dev.rein.model.ModelResponse;
import dev.rein.model.Usage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One run as a JSONL trace recorded it: its goal and limits, every model call (the request as
 * JSON and the response), every tool result by call id (in trace order), its guard events by step, its ending,
 * and the replies that opened its later turns ({@code turn_started}, a conversation continued with reply).
 * {@code refusedAtResume} is the {@code run_finished} of a run that ended {@code configuration_error} or
 * {@code internal_error} from its pause (a durable engine's resume refused, the worker's agent having another output
 * schema, or failed, say its listener factory threw), else null.
 */
record Recording(String runId, String goal, String model, List<String> tools, JsonNode limits, List<Call> calls,
                 List<Long> tokenCounts, Map<String, List<JsonNode>> toolResults, Set<String> approvalRequested,
                 List<Guard> guardEvents, JsonNode finished, List<String> replies, Map<String, JsonNode> decisions,
                 Map<String, List<java.time.Instant>> callTimes, List<JsonNode> resumes, List<Interruption> interruptions,
                 Set<String> heldCalls, JsonNode refusedAtResume) {
    private static final String RUN_RESUMED = "run_resumed";

    /**
     * Why a divergence at {@code step} or later may come from limits the replay could not take up: the recorded run was
     * resumed after its process stopped while RUNNING ({@code run_resumed} from RUNNING) by an agent with other limits
     * or model name. Nothing pauses a replay at such a point (it pauses only where the recording paused for approval),
     * so it runs on under the limits it had; the notes of every such resumption at or before {@code step}, in order (each
     * names the limits it changed), or an empty string when none came.
     */
    String unappliedLimits(int step) {
        return interruptions.stream().filter(i -> i.step() <= step).map(Interruption::note)
                .collect(java.util.stream.Collectors.joining()); // each note begins "; "
    }

    /**
     * The {@code run_resumed} of the recorded run's {@code nth} resumption (0 for the first) from a pause for approval at
     * {@code step}, when it records the resuming agent's limits; null otherwise (no such resumption, or a trace written
     * before run_resumed recorded them).
     */
    JsonNode resumed(int step, int nth) {
        List<JsonNode> atStep = resumes.stream()
                .filter(r -> RUN_RESUMED.equals(r.path("type").asText()) && r.path("step").asInt() == step).toList();
        return nth < atStep.size() ? atStep.get(nth) : null;
    }

    /**
     * The {@code turn_started} of the recorded run's {@code nth} reply (0 for the first), when it records the replying
     * agent's limits; null otherwise (a trace written before turn_started recorded them).
     */
    JsonNode replied(int nth) {
        List<JsonNode> turns = resumes.stream().filter(r -> !RUN_RESUMED.equals(r.path("type").asText())).toList();
        return turns.stream().filter(t -> t.path("turn").asInt() == nth + 2).findFirst().orElse(null);
    }

    /**
     * When the recorded run began the call {@code callId} of {@code step} ({@code tool_call}), the
     * {@code turn}-th of that step and id (calls that share an id), or of that id at any step when the
     * replay made it at another; null when the recording has no such call or no readable time.
     */
    java.time.Instant callTime(int step, String callId, int turn) {
        List<java.time.Instant> atStep = callTimes.get(step + "|" + callId);
        if (atStep == null) {
            atStep = callTimes.entrySet().stream().filter(e -> e.getKey().endsWith("|" + callId)).findFirst()
                    .map(Map.Entry::getValue).orElse(List.of());
        }
        return atStep.isEmpty() ? null : atStep.get(Math.min(turn, atStep.size() - 1));
    }

    /**
     * Whether the recorded run, resumed from its pause at {@code step}, ran on from there under other limits or another
     * model name than before (the agent that resumed it had another budget; before: at the start, or the last resumption
     * or reply): a replay must pause there too, to resume under them.
     */
    boolean limitsChangeAt(int step) {
        JsonNode limits = limits();
        String model = model();
        for (JsonNode r : resumes) {
            String resumedModel = r.path("model").isTextual() ? r.get("model").asText() : model;
            boolean changed = !r.path("limits").equals(limits) || !resumedModel.equals(model);
            if (RUN_RESUMED.equals(r.path("type").asText()) && r.path("step").asInt() == step && changed) {
                return true;
            }
            limits = r.path("limits");
            model = resumedModel;
        }
        return false;
    }

    /** The recorded decision ({@code approval_decided}) on the call {@code callId} of {@code step}, or null. */
    JsonNode decision(int step, String callId) {
        return decisions.get(step + "|" + callId);
    }

    /**
     * Whether the run asked a person about the call {@code callId} (Rein's id: the model's, or {@code ID#INDEX} for a
     * later call of one response sharing it) of {@code step}: it has an approval_requested event there. By step and id
     * exactly, as a server may name every call alike (call_0) and a run may make the same call twice, holding one.
     */
    boolean heldAt(int step, String callId) {
        return heldCalls.contains(step + "|" + callId);
    }

    /** Whether a person edited the arguments of that call before it ran. */
    boolean edited(int step, String callId) {
        JsonNode decision = decision(step, callId);
        return decision != null && "edit".equals(decision.path("decision").asText());
    }

    /**
     * One model call: the step, the purpose, the request as recorded and the response, or (response
     * null) the {@code model_failed} event of a call that failed for good. {@code fallbacks}: the
     * {@code model_fallback} events of the attempts an application's stage moved on from, in order (empty for a
     * call of one attempt), each the outcome of one attempt before the call's own.
     */
    record Call(int step, String purpose, JsonNode request, ModelResponse response, JsonNode failure,
                List<JsonNode> fallbacks) {
        /**
         * How many attempts the recorded call made through the stage: one per fallback, and the call's own outcome as
         * one more unless the last fallback moved on to no model (the stage then ended the call without another attempt).
         */
        int attempts() {
            boolean ownOutcome = fallbacks.isEmpty() || fallbacks.get(fallbacks.size() - 1).hasNonNull("to_model");
            return fallbacks.size() + (ownOutcome ? 1 : 0);
        }
    }

    /**
     * The part of the trace one process wrote since the run (or its last resumption or turn) began there: where its
     * calls, counts and guards begin, its tool results, and where each of its events came in the trace.
     */
    private record Segment(int calls, int counts, int guards, List<Mark> marks, List<JsonNode> results) {
        static Segment from(List<Call> calls, List<Long> counts, List<Guard> guards) {
            return new Segment(calls.size(), counts.size(), guards.size(), new ArrayList<>(), new ArrayList<>());
        }

        /**
         * Where an event of this segment came: its step, whether it is work done for the step after it (see
         * {@link #forTheNextStep}), and how many calls, counts, guards and tool results had been read before it.
         */
        private record Mark(int step, boolean forTheNextStep, int calls, int counts, int guards, int results) {}

        /** Notes where {@code e} comes, before it is read into the lists (of the sizes given). */
        void mark(JsonNode e, int callsBefore, int countsBefore, int guardsBefore) {
            marks.add(new Mark(e.path("step").asInt(), forTheNextStep(e), callsBefore, countsBefore, guardsBefore,
                    results.size()));
        }

        /**
         * Whether {@code e} is work the run did after the checkpoint of its step, for the step after it: the context
         * work before a step's call (its token counts, a compaction call, context_edited) and the final summary are
         * numbered with the steps made so far, as the step is counted only when its call is made.
         */
        private static boolean forTheNextStep(JsonNode e) {
            return switch (e.path("type").asText()) {
                case "tokens_counted", "context_edited" -> true;
                case "model_request" -> switch (e.path("purpose").asText()) {
                    case "compaction", "final_summary" -> true;
                    default -> false;
                };
                default -> false;
            };
        }

        /**
         * Drops what this segment recorded after the checkpoint of the step {@code resumedAt} its run was resumed from:
         * a process that stopped after a model call or token count was traced but before the next checkpoint left it in
         * the trace, and the resumed run made it again. A replay answers calls and counts in order, so it took the lost
         * one for the one the run acted on. The cut is by position: the first event of a later step, or of the work for
         * the next step that carries {@code resumedAt} (a count, a compaction call, a context edit before the next call),
         * and everything the segment recorded after it, is lost.
         */
        void dropLost(int resumedAt, List<Call> allCalls, List<Long> allCounts, List<Guard> allGuards,
                      Map<String, List<JsonNode>> allResults, List<JsonNode> maybeRedone) {
            Mark cut = marks.stream().filter(m -> m.step() > resumedAt || m.step() == resumedAt && m.forTheNextStep())
                    .findFirst().orElse(null);
            int keptResults = cut == null ? results.size() : cut.results();
            if (cut != null) {
                allCalls.subList(Math.max(calls, cut.calls()), allCalls.size()).clear();
                allCounts.subList(Math.max(counts, cut.counts()), allCounts.size()).clear();
                allGuards.subList(Math.max(guards, cut.guards()), allGuards.size()).clear();
                for (JsonNode lost : results.subList(keptResults, results.size())) {
                    removeSame(allResults, lost);
                }
            }
            for (JsonNode kept : results.subList(0, keptResults)) {
                if (kept.path("step").asInt() == resumedAt) {
                    // the snapshot of that step may be from before its tools ran (then they ran again) or after
                    maybeRedone.add(kept);
                }
            }
            allResults.values().removeIf(List::isEmpty);
        }

        /**
         * Drops each result of a stopped process, at the step its run resumed from, that the resumed run recorded again
         * (the same call at the same step, later in the trace): the step's checkpoint was from before its tools ran, so
         * they ran again, and a tool that reads live data may have answered otherwise.
         */
        static void dropRedone(List<JsonNode> maybeRedone, Map<String, List<JsonNode>> allResults) {
            for (JsonNode first : maybeRedone) {
                List<JsonNode> same = allResults.getOrDefault(first.path("call_id").asText(), List.of());
                int at = indexOfSame(same, first);
                boolean redone = at >= 0 && same.subList(at + 1, same.size()).stream()
                        .anyMatch(later -> later.path("step").asInt() == first.path("step").asInt());
                if (redone) {
                    same.remove(at);
                }
            }
        }

        private static void removeSame(Map<String, List<JsonNode>> allResults, JsonNode node) {
            List<JsonNode> same = allResults.get(node.path("call_id").asText());
            int at = indexOfSame(same, node);
            if (at >= 0) {
                same.remove(at);
            }
        }

        // by identity: two results can be equal JSON, and only this one is to go
        private static int indexOfSame(List<JsonNode> nodes, JsonNode node) {
            for (int i = 0; i < nodes.size(); i++) {
                if (nodes.get(i) == node) {
                    return i;
                }
            }
            return -1;
        }
    }

    /**
     * A guard event (an intervention or a stall finding) and how many model calls the run had
     * completed before it, so a replay compares only the events that came before the call it is at.
     */
    record Guard(int callsBefore, JsonNode event) {
        int step() {
            return event.path("step").asInt();
        }
    }

    /** The ids of the runs {@code trace} holds, in the order they first appear. */
    static List<String> runIds(Path trace) {
        return List.copyOf(runs(lines(trace), trace));
    }

    /** The run ids of {@code events}; every event of a Rein trace names its run. */
    private static Set<String> runs(List<JsonNode> events, Path trace) {
        Set<String> runs = new LinkedHashSet<>();
        for (JsonNode e : events) { // each has a type and a run_id: lines() refused any that has not, and a file of none
            runs.add(e.path("run_id").asText());
        }
        return runs;
    }

    static Recording read(Path trace, String runId) {
        List<JsonNode> events = lines(trace);
        Set<String> runs = runs(events, trace);
        if (runId == null && runs.size() > 1) {
            throw new ReinException("the trace " + trace + " holds " + runs.size() + " runs (" + String.join(", ", runs)
                    + "); say which to replay (--run ID)");
        }
        if (runId != null && runId.isBlank()) {
            // else "has no run ; it holds ...", as if some run had an empty id
            throw new ReinException("--run is empty: give the id of a run of the trace " + trace + " (it holds "
                    + String.join(", ", runs) + ")" + (runs.size() > 1 ? "" : ", or leave --run out"));
        }
        String id = runId == null ? runs.iterator().next() : runId;
        if (!runs.contains(id)) {
            throw new ReinException("the trace " + trace + " has no run " + id + "; it holds " + String.join(", ", runs));
        }
        return of(id, events.stream().filter(e -> e.path("run_id").asText().equals(id)).toList(), trace);
    }

    private static Recording of(String id, List<JsonNode> events, Path trace) {
        JsonNode started = null;
        JsonNode finished = null;
        JsonNode pendingRequest = null;
        List<JsonNode> fallbacks = new ArrayList<>(); // the model_fallback events of the pending request's call
        List<Call> calls = new ArrayList<>();
        List<Long> counts = new ArrayList<>();
        Map<String, List<JsonNode>> results = new LinkedHashMap<>();
        Set<String> approvalRequested = new LinkedHashSet<>();
        Set<String> heldCalls = new LinkedHashSet<>();
        List<Guard> guards = new ArrayList<>();
        List<String> replies = new ArrayList<>();
        boolean resumed = false; // a run_resumed: the trace of a resumption
        Map<String, JsonNode> decisions = new LinkedHashMap<>();
        Map<String, List<java.time.Instant>> callTimes = new LinkedHashMap<>();
        List<JsonNode> resumes = new ArrayList<>();
        List<Interruption> interruptions = new ArrayList<>();
        JsonNode inForce = null; // the limits the replay runs under at this point of the trace (it takes up those of pauses and turns)
        String modelInForce = null;
        Segment segment = Segment.from(calls, counts, guards);
        String lastFrom = null; // the status the run's last state change left
        JsonNode refusedAtResume = null;
        List<JsonNode> maybeRedone = new ArrayList<>(); // tool results of a stopped process at the step its run resumed from
        for (JsonNode e : events) {
            if (!"run_resumed".equals(e.path("type").asText()) && !"turn_started".equals(e.path("type").asText())) {
                segment.mark(e, calls.size(), counts.size(), guards.size());
            }
            switch (e.path("type").asText()) {
                case "run_started" -> {
                    if (started == null) {
                        started = e;
                        inForce = e.path("limits");
                        modelInForce = e.path("model").asText();
                    }
                }
                case "model_request" -> {
                    pendingRequest = required(e, "request", trace);
                    fallbacks.clear();
                }
                // an attempt an application's stage moved on from: the replay answers the stage's attempts in turn
                case "model_fallback" -> {
                    if (pendingRequest != null) {
                        reportedUsage(e, trace); // read now: a replay fails the attempt with it
                        fallbacks.add(e);
                    }
                }
                case "model_response" -> {
                    if (pendingRequest == null) {
                        throw new ReinException("the trace " + trace + " has a model_response without its model_request (step "
                                + e.path("step").asInt() + ")");
                    }
                    calls.add(new Call(pendingRequest.path("step").asInt(), pendingRequest.path("purpose").asText(),
                            pendingRequest.get("request"), response(e, trace), null, List.copyOf(fallbacks)));
                    pendingRequest = null;
                    fallbacks.clear();
                }
                // A call that failed for good (after its retries) is a call too: a compaction or summary
                // call the run went on without, or the one that ended the run with provider_error.
                // A call a stage failed (STAGE_FAILED: it threw, or a model had no price) reached no model: the
                // replayed run's stages fail it again before a model is asked, so it is no recorded model call.
                case "model_failed" -> {
                    if (TracingStage.STAGE_FAILED.equals(e.path("error_kind").asText())) {
                        pendingRequest = null;
                    } else if (pendingRequest != null) {
                        reportedUsage(e, trace); // read now: a replay fails the call with it
                        calls.add(new Call(pendingRequest.path("step").asInt(), pendingRequest.path("purpose").asText(),
                                pendingRequest.get("request"), null, e, List.copyOf(fallbacks)));
                        pendingRequest = null;
                        fallbacks.clear();
                    }
                }
                case "tokens_counted" -> counts.add(e.path("input_tokens").asLong(-1));
                // Every result of an id, in trace order: some servers give the calls of each response the
                // same ids (call_0, ...), and a model may give two calls of one response the same id.
                case "tool_result" -> {
                    results.computeIfAbsent(e.path("call_id").asText(), k -> new ArrayList<>()).add(e);
                    segment.results().add(e);
                }
                case "tool_call" -> {
                    java.time.Instant at = instant(e.path("time"));
                    if (at != null) {
                        callTimes.computeIfAbsent(e.path("step").asInt() + "|" + e.path("call_id").asText(), k -> new ArrayList<>()).add(at);
                    }
                }
                case "approval_requested" -> {
                    approvalRequested.add(e.path("call_id").asText());
                    heldCalls.add(e.path("step").asInt() + "|" + e.path("call_id").asText());
                }
                case "approval_decided" -> decisions.put(e.path("step").asInt() + "|" + e.path("call_id").asText(), e);
                case "intervention", "stall_detected" -> guards.add(new Guard(calls.size(), e));
                case "run_finished" -> {
                    finished = e;
                    // a driven run's resume refused ends it from its pause: configuration_error (the worker's agent had another
                    // output schema), or internal_error (anything else it threw, say the application's listener factory);
                    // either way the decisions were not applied. Nothing else ends a run from its pause with those reasons
                    // (a cancel ends it cancelled; locally a refused resume leaves the run paused, untraced).
                    String reason = e.path("reason").asText();
                    refusedAtResume = "WAITING_APPROVAL".equals(lastFrom) && !"WAITING_APPROVAL".equals(e.path("status").asText())
                            && (dev.rein.run.Reasons.CONFIGURATION_ERROR.equals(reason) || dev.rein.run.Reasons.INTERNAL_ERROR.equals(reason))
                            ? e : null;
                }
                case "state_change" -> lastFrom = e.path("from").asText();
                case "turn_started" -> {
                    replies.add(e.path("text").asText());
                    segment = Segment.from(calls, counts, guards);
                    // a reply's turn runs on the replying agent's limits: the replay's does too
                    if (e.path("limits").isObject()) {
                        resumes.add(e);
                        inForce = e.path("limits");
                        modelInForce = e.path("model").isTextual() ? e.get("model").asText() : modelInForce;
                    }
                }
                case "run_resumed" -> {
                    resumed = true;
                    if ("RUNNING".equals(e.path("from").asText())) {
                        // the process stopped after its last checkpoint: what it did after it is done again, and traced again
                        segment.dropLost(e.path("step").asInt(), calls, counts, guards, results, maybeRedone);
                        pendingRequest = null;
                    }
                    segment = Segment.from(calls, counts, guards);
                    // a resumption after a pause for approval runs on the resuming agent's limits: the replay's does too
                    if ("WAITING_APPROVAL".equals(e.path("from").asText()) && e.path("limits").isObject()) {
                        resumes.add(e);
                        inForce = e.path("limits");
                        modelInForce = e.path("model").isTextual() ? e.get("model").asText() : modelInForce;
                    } else if ("RUNNING".equals(e.path("from").asText()) && e.path("limits").isObject() && inForce != null) {
                        // an interrupted run resumed: the replay cannot take these limits up (nothing pauses it there)
                        String changes = Interruption.changes(inForce, modelInForce, e);
                        if (!changes.isEmpty()) {
                            interruptions.add(new Interruption(e.path("step").asInt(), changes));
                        }
                    }
                }
                default -> { }
            }
        }
        Segment.dropRedone(maybeRedone, results);
        if (started == null) {
            String turns = !replies.isEmpty() ? ": it holds only later turns of the run (turn_started), so the turns"
                    + " before them are missing; record the whole conversation into one trace ('rein reply RUN TEXT --trace"
                    + " FILE' appends to the trace of 'rein run --trace FILE')"
                    // 'rein resume RUN --trace FILE' given a file of its own: the start is in the first run's trace
                    : resumed ? ": it holds only the run's continuation (run_resumed), so its start is missing; record the"
                    + " whole run into one trace ('rein resume RUN --trace FILE' appends to the trace of 'rein run --trace"
                    + " FILE')" : "";
            throw new ReinException("the trace " + trace + " has no run_started event for run " + id + "; it cannot be replayed"
                    + turns);
        }
        if (started.path("goal").asText().isBlank()) {
            // the run would be refused for an empty goal, which reads as if the user had given one
            throw new ReinException("the trace " + trace + " records no goal in the run_started of run " + id
                    + " (\"goal\" is missing or empty); it cannot be replayed");
        }
        checkLimits(started.path("limits"), trace, RUN_STARTED);
        for (JsonNode r : resumes) {
            checkLimits(r.path("limits"), trace, r.path("type").asText() + " (step " + r.path("step").asInt() + ")");
        }
        List<String> tools = new ArrayList<>();
        started.path("tools").forEach(t -> tools.add(t.asText()));
        return new Recording(id, started.path("goal").asText(), started.path("model").asText(), tools, started.path("limits"),
                calls, counts, results, Set.copyOf(approvalRequested), guards, finished, List.copyOf(replies), Map.copyOf(decisions),
                callTimes, List.copyOf(resumes), List.copyOf(interruptions), Set.copyOf(heldCalls),
                refusedAtResume);
    }

    private static final String RUN_STARTED = "run_started";
    private static final java.math.BigDecimal MILLISECOND = new java.math.BigDecimal("0.001");
    private static final java.math.BigDecimal LONGEST_SECONDS = java.math.BigDecimal.valueOf(Long.MAX_VALUE, 3);

    /**
     * The time limit a trace records as {@code seconds} (max_seconds, checked when the trace was read), exactly; null when
     * it is none a budget can have (finer than a nanosecond, or past {@link dev.rein.budget.Budget#LONGEST_DURATION}).
     */
    static java.time.Duration timeLimit(JsonNode seconds) {
        java.time.Duration limit = dev.rein.internal.text.Durations.ofSeconds(seconds.decimalValue());
        return limit == null || limit.compareTo(dev.rein.budget.Budget.LONGEST_DURATION) > 0 ? null : limit;
    }

    /** The instant a trace event's {@code time} holds, or null when it holds none (an edited trace). */
    private static java.time.Instant instant(JsonNode time) {
        try {
            return time.isTextual() ? java.time.Instant.parse(time.asText()) : null;
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    /**
     * The recorded limits apply to the replay, so each must be one a run can have: a positive number
     * (a whole one for steps and tokens), or null for none where a run may have none. An edited
     * trace is told so here rather than by a NumberFormatException or the budget's own check.
     */
    private static void checkLimits(JsonNode limits, Path trace, String event) {
        checkLimits(limits, trace, "", event);
        JsonNode conversation = limits.get("conversation_limits");
        if (conversation != null && !conversation.isNull()) {
            if (!conversation.isObject()) {
                throw new ReinException("the trace " + trace + " records conversation_limits as " + conversation + " in " + event + ","
                        + " which is not an object of limits (max_steps, max_cost_usd, ...); correct it in the trace to replay the run");
            }
            checkLimits(conversation, trace, "conversation_limits.", event);
        }
        modelPrice(limits, trace, event);
        modelPrices(limits, trace, event);
    }

    /** {@code prefix}: where in run_started's limits they are, as the message names the limit. */
    private static void checkLimits(JsonNode limits, Path trace, String prefix, String event) {
        toolCallLimits(limits, trace, prefix, event);
        for (String name : List.of("max_steps", "max_cost_usd", "max_seconds", "max_input_tokens", "max_output_tokens")) {
            JsonNode value = limits.get(name);
            boolean whole = !name.equals("max_cost_usd") && !name.equals("max_seconds");
            boolean nullable = !name.equals("max_steps");
            if (value == null || value.isNull() && nullable) {
                continue;
            }
            // max_steps is an int: a larger number read as one would wrap round (2^32 + 1 as 1 step), so it is refused
            boolean steps = name.equals("max_steps");
            // a run's time limit is at least 1 ms (Budget refuses less): a smaller one would be replayed as none at all
            boolean seconds = name.equals("max_seconds");
            // and one a Duration holds exactly up to the longest a budget takes: a replay runs on the limit as written
            boolean fits = value.isNumber() && value.decimalValue().signum() > 0
                    && (!seconds || value.decimalValue().compareTo(MILLISECOND) >= 0 && timeLimit(value) != null)
                    && (!whole || (steps ? value.canConvertToInt() : value.canConvertToLong())
                    && value.decimalValue().stripTrailingZeros().scale() <= 0);
            if (!fits) {
                throw new ReinException("the trace " + trace + " records the limit " + prefix + name + " as " + value + " in " + event + ","
                        + " which no run can have (" + (steps ? "a whole number from 1 to " + Integer.MAX_VALUE
                        : whole ? "a whole number of at least 1" : seconds ? "a number of seconds from 0.001 to "
                        + LONGEST_SECONDS.toPlainString() + ", to the nanosecond at most" : "a positive number")
                        + (nullable ? ", or null for none" : "") + "); correct it in the trace to replay the run");
            }
        }
    }

    /**
     * The budget's per-tool caps a trace records ({@code tool_call_limits}: tool name to its cap), or null when it
     * records none (no caps, or a trace written before Rein recorded them).
     *
     * @throws ReinException when they are not an object of whole numbers of at least 1 (an edited trace)
     */
    static Map<String, Integer> toolCallLimits(JsonNode limits, Path trace, String prefix) {
        return toolCallLimits(limits, trace, prefix, RUN_STARTED);
    }

    private static Map<String, Integer> toolCallLimits(JsonNode limits, Path trace, String prefix, String event) {
        JsonNode caps = limits.get("tool_call_limits");
        if (caps == null || caps.isNull()) {
            return null;
        }
        String refusal = "the trace " + (trace == null ? "" : trace + " ") + "records " + prefix + "tool_call_limits as " + caps
                + " in " + event + ", which are not per-tool caps (an object of tool names to whole numbers of at least 1);"
                + " correct it in the trace to replay the run";
        if (!caps.isObject()) {
            throw new ReinException(refusal);
        }
        Map<String, Integer> result = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> cap : caps.properties()) {
            JsonNode value = cap.getValue();
            if (!value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() < 1) {
                throw new ReinException(refusal);
            }
            result.put(cap.getKey(), value.intValue());
        }
        return result;
    }

    /**
     * The price the recorded run's money limit counted the model's calls with ({@code model_price} in {@code limits},
     * run_started's or a run_resumed's), or null when the trace records none there (no money limit, or a trace written
     * before Rein recorded it). The limits were checked when the trace was read.
     */
    static ModelPrice modelPrice(JsonNode limits) {
        return modelPrice(limits, null, RUN_STARTED);
    }

    /**
     * Whether the recorded run lowered its calls' max_tokens to what its money left bought under {@code limits}: not
     * when they say {@code money_caps_output: false} (an agent with {@code capOutputToMoneyLeft(false)}) or record no
     * {@link #modelPrice model_price} (a trace from before the cap, or an unpriced model: no call was lowered for money).
     */
    static boolean moneyCappedOutput(JsonNode limits) {
        return modelPrice(limits) != null && limits.path("money_caps_output").asBoolean(true);
    }

    /**
     * The prices of the other models the recorded run's money limit counted ({@code model_prices} in {@code limits}: a
     * critic's own model), by name; empty when the trace records none there.
     */
    static Map<String, ModelPrice> modelPrices(JsonNode limits) {
        return modelPrices(limits, null, RUN_STARTED);
    }

    private static Map<String, ModelPrice> modelPrices(JsonNode limits, Path trace, String event) {
        JsonNode prices = limits.get("model_prices");
        if (prices == null || prices.isNull()) {
            return Map.of();
        }
        if (!prices.isObject()) {
            throw new ReinException("the trace " + (trace == null ? "" : trace + " ") + "records model_prices as " + prices
                    + " in " + event + "'s limits, which is not an object of model names to prices; correct it in the trace, or"
                    + " remove it to replay with the agent's own prices");
        }
        Map<String, ModelPrice> result = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> price : prices.properties()) {
            result.put(price.getKey(), price(price.getValue(), "model_prices." + price.getKey(), trace, event));
        }
        return result;
    }

    private static ModelPrice modelPrice(JsonNode limits, Path trace, String event) {
        JsonNode price = limits.get("model_price");
        if (price == null || price.isNull()) {
            return null;
        }
        return price(price, "model_price", trace, event);
    }

    /** {@code price}, recorded at {@code where} in {@code event}'s limits, as a model's price. */
    private static ModelPrice price(JsonNode price, String where, Path trace, String event) {
        try {
            return Json.storedMapper().treeToValue(price, ModelPrice.class);
        } catch (IOException | RuntimeException e) {
            // the price's own refusal (a negative rate) says best what is wrong; Jackson's message is several lines
            Throwable cause = e.getCause() instanceof ReinException refused ? refused : e;
            String what = String.valueOf(cause.getMessage()).lines().findFirst().orElse("");
            throw new ReinException("the trace " + (trace == null ? "" : trace + " ") + "records the " + where + " " + price
                    + " in " + event + "'s limits, which is not a model's price (" + what + "); correct it in the trace, or remove it to replay with the agent's own price of the model");
        }
    }

    /**
     * {@code event}, which must hold the object {@code field} a replay reads (an edited trace may not):
     * without it the replay would fail inside the run, far from the cause.
     */
    private static JsonNode required(JsonNode event, String field, Path trace) {
        if (!event.path(field).isObject()) {
            throw new ReinException("the trace " + trace + " has a " + event.path("type").asText() + " at step "
                    + event.path("step").asText() + " without its \"" + field + "\"; it cannot be replayed");
        }
        return event;
    }

    private static ModelResponse response(JsonNode event, Path trace) {
        required(event, "response", trace);
        try {
            return Json.storedMapper().treeToValue(event.get("response"), ModelResponse.class);
        } catch (IOException | IllegalArgumentException e) {
            String reason = e instanceof JsonProcessingException p ? p.getOriginalMessage() : e.getMessage();
            throw new ReinException("the trace " + trace + " has a model_response at step " + event.path("step").asInt()
                    + " that cannot be read back: " + reason + ". A trace written by another Rein version can hold a field,"
                    + " block or stop reason this version does not know: replay it with the version that wrote it, or"
                    + " record the run again");
        }
    }

    /**
     * The usage the server reported for a failed call ({@code reported_usage} of its {@code model_failed}), null when
     * none was recorded (a trace written before it was, or a server that reported none).
     *
     * @param trace the trace's path, for the message when the usage cannot be read; null once it was read at load
     */
    static Usage reportedUsage(JsonNode failed, Path trace) {
        JsonNode usage = failed.get("reported_usage");
        if (usage == null || usage.isNull()) {
            return null;
        }
        try {
            return Json.storedMapper().treeToValue(usage, Usage.class);
        } catch (IOException | IllegalArgumentException e) {
            String reason = e instanceof JsonProcessingException p ? p.getOriginalMessage() : e.getMessage();
            throw new ReinException("the trace " + trace + " has a " + failed.path("type").asText("model_failed") + " at step "
                    + failed.path("step").asInt()
                    + " whose reported_usage cannot be read back: " + reason + ". A trace written by another Rein version can"
                    + " hold a field this version does not know: replay it with the version that wrote it, or record the run again");
        }
    }

    private static List<JsonNode> lines(Path trace) {
        if (Files.isDirectory(trace)) {
            throw new ReinException(trace + " is a folder, not a trace file: give one .jsonl trace (rein eval " + trace
                    + " replays every trace of a folder)");
        }
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(trace);
        } catch (NoSuchFileException e) {
            // a dangling link, or a folder on the way that is one, is a name ls shows: said as such
            String dangling = dev.rein.internal.text.FileProblems.danglingLink(e.getFile());
            throw new ReinException(dangling == null ? "no such trace file: " + trace : "cannot read the trace " + trace + ": " + dangling);
        } catch (IOException e) {
            throw new ReinException("cannot read the trace " + trace + ": " + dev.rein.internal.text.FileProblems.why(e));
        }
        String text = utf8(bytes, trace);
        // A byte order mark, which some Windows editors put at the start of a file they save, is no event.
        List<String> lines = (text.startsWith("\uFEFF") ? text.substring(1) : text).lines().toList();
        boolean endsWithNewline = bytes.length > 0 && (bytes[bytes.length - 1] == '\n' || bytes[bytes.length - 1] == '\r');
        List<JsonNode> events = new ArrayList<>();
        int streamLines = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            try {
                JsonNode event = Json.storedMapper().readTree(lines.get(i));
                String streamed = event.path("type").isTextual() ? event.path("type").asText() : "";
                if (event.isObject() && STREAM_ONLY.contains(streamed)) {
                    if (streamed.equals("events_dropped")) { // the stream's buffer left trace events out: the run is not whole
                        throw new NotATraceException("the trace " + trace + " is not a Rein trace: line " + (i + 1) + " is a"
                                + " --json-stream events_dropped line: events were left out here: replay the --trace file",
                                NotATraceException.Problem.EVENTS_DROPPED, i + 1);
                    }
                    // what --json-stream printed saved to a file: its own lines (a text delta, the result) sit between
                    // the trace events, which are all there, so the run replays from them
                    streamLines++;
                    continue;
                }
                String notAnEvent = notAnEvent(event, i + 1);
                if (notAnEvent != null) {
                    throw new NotATraceException("the trace " + trace + " is not a Rein trace: " + notAnEvent,
                            NotATraceException.Problem.NOT_AN_EVENT, i + 1);
                }
                events.add(event.path("limits").isObject() ? withExactLimits(event, lines.get(i)) : event);
            } catch (ReinException e) {
                throw e;
            } catch (IOException | RuntimeException e) {
                boolean last = i == lines.size() - 1;
                // The writer ends every event with a newline: a last line without one, or a line that ends
                // inside its JSON (a later run appended after it), was cut off mid-write.
                if (last && !endsWithNewline || e instanceof JsonEOFException) {
                    throw new ReinException("the trace " + trace + " is not JSONL: line " + (i + 1) + (last ? ", the last," : "")
                            + " is cut off (the recording stopped while writing it); remove that line to replay "
                            + (last ? "the run up to there" : "the rest"));
                }
                throw new NotATraceException("the trace " + trace + " is not JSONL: line " + (i + 1) + " is not JSON",
                        NotATraceException.Problem.NOT_JSON, i + 1);
            }
        }
        if (events.isEmpty()) {
            // skipped lines would otherwise leave a file of them looking empty
            throw new NotATraceException("the trace " + trace + " holds no events" + (streamLines == 0 ? "" : ": its "
                    + (streamLines == 1 ? "one line is" : streamLines + " lines are") + " --json-stream's own (text_delta,"
                    + " result), not trace events"), NotATraceException.Problem.NO_EVENTS, 0);
        }
        return events;
    }

    /** The types of --json-stream's own lines (RunEvent's types that are no trace event, and the CLI's last line). */
    private static final Set<String> STREAM_ONLY = Set.of("text_delta", "events_dropped", "result");

    /**
     * Why line {@code line} is no trace event, saying what it holds instead, or null when it is one (an object with a
     * textual type and a run_id that is non-empty text).
     */
    private static String notAnEvent(JsonNode event, int line) {
        if (!event.isObject()) {
            return "line " + line + " is a JSON " + event.getNodeType().name().toLowerCase(java.util.Locale.ROOT)
                    + ", not a trace event (one JSON object per line)";
        }
        for (String field : List.of("type", "run_id")) {
            JsonNode value = event.get(field);
            if (value != null && !value.isTextual()) { // there, but no text: say what it is rather than that it is missing
                String kind = value.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
                String shown = Json.write(value);
                return "line " + line + "'s " + field + " is " + (value.isNull() ? "null" : ("aeiou".indexOf(kind.charAt(0)) >= 0
                        ? "an " : "a ") + kind + " (" + (shown.length() > 40 ? shown.substring(0, 40) + "…" : shown) + ")")
                        + ", not the text every trace event has";
            }
        }
        if (event.path("run_id").isTextual() && event.path("run_id").asText().isEmpty()) {
            return "line " + line + "'s run_id is empty, where every trace event names its run";
        }
        boolean typed = event.path("type").isTextual();
        boolean ofARun = event.path("run_id").isTextual();
        if (typed && ofARun) {
            return null;
        }
        List<String> keys = new ArrayList<>();
        event.fieldNames().forEachRemaining(keys::add);
        String found = keys.isEmpty() ? "it is {}" : "its keys: " + String.join(", ", keys.size() > 8 ? keys.subList(0, 8) : keys)
                + (keys.size() > 8 ? ", …" : "");
        return "line " + line + " has no " + (typed ? "run_id" : ofARun ? "type" : "type or run_id") + " (" + found
                + "), as every trace event has";
    }

    /** Reads the numbers of a trace's limits as written: so a replay starts with "max_cost_usd":1.00, not 1.0. */
    private static final com.fasterxml.jackson.databind.ObjectReader EXACT = Json.storedMapper().reader()
            .with(com.fasterxml.jackson.databind.DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .without(com.fasterxml.jackson.databind.cfg.JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES);

    /**
     * {@code event} with its {@code limits} read with their numbers exact (a money limit keeps its
     * scale), so the replay's run_started shows them as the recording did. Only the limits: a request
     * read so would compare unequal to the one the replay builds (a decimal node is not a double node).
     */
    private static JsonNode withExactLimits(JsonNode event, String line) throws IOException {
        JsonNode limits = EXACT.readTree(line).path("limits");
        com.fasterxml.jackson.databind.node.ObjectNode copy = ((com.fasterxml.jackson.databind.node.ObjectNode) event);
        copy.set("limits", limits);
        return copy;
    }

    /** The text of {@code bytes}, which must be UTF-8: a byte that is not is named by its line. */
    private static String utf8(byte[] bytes, Path trace) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            int line = 1;
            for (int i = 0; i < in.position(); i++) {
                line += bytes[i] == '\n' ? 1 : 0;
            }
            throw new ReinException("the trace " + trace + " is not UTF-8 text: line " + line + " holds a byte that is not UTF-8;"
                    + " a Rein trace is UTF-8 JSONL");
        }
        return out.flip().toString();
    }
}
