package dev.rein.replay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.internal.model.RetryStage;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.TextBlock;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/** Answers each model call with the next recorded response, comparing the request with the recorded one first. */
final class ReplayModel implements Model {
    private final Recording recording;
    private final Comparison comparison;
    private final boolean stopAtDivergence;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger nextCount = new AtomicInteger();
    private volatile Runnable stop = () -> { };
    /**
     * Whether the replaying agent has model-call stages of its own, one of which may move a call on from a failed
     * attempt (a fallback), or answer it itself: only then is a recorded call's first attempt answered with the failure
     * the recorded stage moved on from. Without any, nothing would move on, and the call is answered with its outcome,
     * as before.
     */
    private volatile boolean stagesMayMoveOn;
    /**
     * Whether one of those stages says it {@linkplain dev.rein.model.ModelInterceptor#retries() makes other attempts}:
     * only such a stage can move on to the model a recorded fallback's {@code to_model} names; a pass-through stage
     * (telemetry, logging) cannot, and would end the call with the failure.
     */
    private volatile boolean stagesRetry;
    /** The recorded call whose attempts are being answered, -1 before the first; guarded by this. */
    private int attemptsOf = -1;
    /** How many attempts of it were answered; guarded by this. */
    private int attemptsMade;
    /** The model_request the replayed run traced for it: another one begins the next logical call; guarded by this. */
    private Object attemptsRequest;

    ReplayModel(Recording recording, Comparison comparison, boolean stopAtDivergence) {
        this.recording = recording;
        this.comparison = comparison;
        this.stopAtDivergence = stopAtDivergence;
    }

    void onDivergence(Runnable cancel) {
        this.stop = cancel;
    }

    /**
     * @param any   whether the replaying agent has model-call stages of its own
     * @param retry whether one of them {@linkplain dev.rein.model.ModelInterceptor#retries() makes other attempts}
     */
    void stages(boolean any, boolean retry) {
        this.stagesMayMoveOn = any;
        this.stagesRetry = retry;
    }

    /**
     * Whether recorded call {@code call} is answered attempt by attempt: when its stage moved on to another attempt
     * ({@code to_model}), only if a replaying stage can make one; when it answered or ended the call itself
     * ({@code to_model: null}), if there is any replaying stage.
     */
    private boolean byAttempt(Recording.Call call) {
        if (call.fallbacks().isEmpty()) {
            return false;
        }
        return call.fallbacks().getFirst().hasNonNull("to_model") ? stagesRetry : stagesMayMoveOn;
    }

    int used() {
        return Math.min(next.get(), recording.calls().size());
    }

    /**
     * The replayed run ended, or began another logical call: a recorded call whose stage moved on from a failed attempt
     * that the replay's stages ended with fewer attempts is a divergence (the run then usually ends otherwise too).
     *
     * @return whether that divergence was found now
     */
    synchronized boolean callEnded() {
        if (attemptsOf >= 0 && byAttempt(recording.calls().get(attemptsOf))) {
            int recorded = recording.calls().get(attemptsOf).attempts();
            if (attemptsMade < recorded && comparison.divergence() == null) {
                comparison.attemptsDiffer(attemptsOf, attemptsMade, recorded);
                attemptsOf = -1;
                return true;
            }
        }
        attemptsOf = -1;
        return false;
    }

    @Override
    public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
        int index;
        int attempt;
        boolean fewerAttempts = false;
        synchronized (this) {
            Object mark = comparison.lastRequestMark();
            if (stagesMayMoveOn && attemptsOf >= 0 && mark == attemptsRequest) {
                // no model_request since: a stage above moved the call on from the attempt answered last
                index = attemptsOf;
                attempt = ++attemptsMade;
            } else {
                fewerAttempts = callEnded();
                index = next.getAndIncrement();
                attempt = 1;
                if (index < recording.calls().size()) {
                    attemptsOf = index;
                    attemptsMade = 1;
                    attemptsRequest = mark;
                }
            }
        }
        if (fewerAttempts) {
            stopIfAsked(); // the call before this one ended with fewer attempts than recorded
        }
        if (attempt > 1) {
            return nextAttempt(index, attempt, request, context);
        }
        if (index >= recording.calls().size()) {
            if (recordingCancelled()) {
                // The recorded run was cancelled while it waited for this call: the recording ends
                // here, so the replay is cancelled here too, which is no divergence.
                stop.run();
                throw new InterruptedException("the recorded run was cancelled during this model call");
            }
            comparison.beyondRecording();
            stopIfAsked();
            throw new ModelException(ModelException.Kind.OTHER, 0, "the recording has no model response left for call "
                    + (index + 1) + " (it recorded " + recording.calls().size() + ")", false, null, null, null);
        }
        Recording.Call recorded = recording.calls().get(index);
        if (comparison.divergence() == null && comparison.otherPurpose(index)) {
            stopIfAsked();
        }
        compare(index, recorded.request(), Json.mapper().valueToTree(request));
        return outcome(index, attempt, context);
    }

    /**
     * Compares what the replay sends now with what the recording expects of call {@code index} (after masking the
     * agent's secrets, as the trace masked them): a difference is a divergence.
     */
    private void compare(int index, JsonNode expected, JsonNode sent) throws InterruptedException {
        if (comparison.divergence() == null) {
            JsonNode now = comparison.masked(sent, expected);
            Optional<String> diff = JsonDiff.first(expected, now);
            if (diff.isPresent()) {
                comparison.requestDiffers(index, diff.get(), now);
                stopIfAsked();
            }
        }
    }

    /**
     * Attempt {@code attempt} (from 2) of recorded call {@code index}: its model compared with the one the recorded
     * stage moved it on to (its {@code model_fallback}'s {@code to_model}), then answered with that attempt's recorded
     * outcome. Only the model: the trace records no other part of the attempt's request, which a stage may change too
     * (a backup's lower max_tokens), so comparing the rest with the call's first request would report a divergence the
     * run did not have.
     */
    private ModelResponse nextAttempt(int index, int attempt, ModelRequest request, ModelCallContext context)
            throws ModelException, InterruptedException {
        Recording.Call recorded = recording.calls().get(index);
        if (attempt > recorded.attempts()) {
            comparison.attemptsDiffer(index, attempt, recorded.attempts());
            stopIfAsked();
            throw new ModelException(ModelException.Kind.OTHER, 0, "the recording has no outcome for attempt " + attempt
                    + " of model call " + (index + 1) + " (it recorded " + recorded.attempts() + ")", false, null, null, null);
        }
        JsonNode movedTo = recorded.fallbacks().get(attempt - 2).get("to_model");
        if (movedTo != null) {
            // Both sides are the recorded request with only the model set, so only the model can differ: a bare
            // {"model": ...} would make the divergence's reason blame the rest (a typed answer's output schema).
            compare(index, withModel(recorded.request(), movedTo.asText()), withModel(recorded.request(), request.model()));
        }
        return outcome(index, attempt, context);
    }

    /** A copy of {@code request} (a recorded request; none: an empty one) with its {@code model} set to {@code model}. */
    private static JsonNode withModel(JsonNode request, String model) {
        ObjectNode copy = request instanceof ObjectNode o ? o.deepCopy() : Json.mapper().createObjectNode();
        return copy.put("model", model);
    }

    /**
     * The recorded outcome of attempt {@code attempt} (from 1) of call {@code index}: the failure a recorded stage moved
     * on from (its {@code model_fallback}), or the call's own response or failure. Without stages of the replaying
     * agent's own, the first attempt gets the call's own outcome, as no stage would move on.
     */
    private ModelResponse outcome(int index, int attempt, ModelCallContext context) throws ModelException {
        Recording.Call recorded = recording.calls().get(index);
        if (byAttempt(recorded) && attempt <= recorded.fallbacks().size()) {
            throw fallenBack(recorded.fallbacks().get(attempt - 1));
        }
        if (recorded.failure() != null) {
            throw failure(recorded.failure(), index == recording.calls().size() - 1);
        }
        for (ContentBlock block : recorded.response().content()) {
            if (block instanceof TextBlock text) {
                context.stream().onTextDelta(text.text());
            }
        }
        return recorded.response();
    }

    /**
     * The provider's token counts as recorded, in order: a context policy that counts with the
     * provider then edits the history where the recorded run did (an estimate could fall below its
     * trigger). -1 (unknown: the loop estimates) once the recording has none left.
     */
    @Override
    public long countTokens(ModelRequest request) {
        int index = nextCount.getAndIncrement();
        return index < recording.tokenCounts().size() ? recording.tokenCounts().get(index) : -1;
    }

    /**
     * The recorded failure of a call, with the usage its server reported when it did, not retryable: its retries are
     * in the recording already. The
     * run's own message adds why it was not retried ("; gave up after 3 attempts"), so for the call
     * that ended the run the message is taken from there, and the replay ends with the same answer.
     */
    private ModelException failure(JsonNode failed, boolean last) {
        ModelException.Kind kind;
        try {
            kind = ModelException.Kind.valueOf(failed.path("error_kind").asText());
        } catch (IllegalArgumentException e) { // a kind this version does not know
            kind = ModelException.Kind.OTHER;
        }
        String message = failed.path("message").asText();
        JsonNode finished = recording.finished();
        if (last && finished != null && "provider_error".equals(finished.path("reason").asText())) {
            String ended = finished.path("message").asText();
            int at = ended.indexOf(": " + message);
            message = at < 0 ? message : ended.substring(at + 2);
        }
        return new ModelException(kind, failed.path("http_status").asInt(), message, false, null,
                failed.hasNonNull("request_id") ? failed.get("request_id").asText() : null, Recording.reportedUsage(failed, null), null);
    }

    /**
     * The failure a recorded stage moved on from, as the stage saw it: retryable as the trace records (a trace written
     * before model_fallback recorded it: as the kind usually is). A retryable one is handed back as given up, as the
     * run's retry stage handed it up, so the replay's retry stage below does not retry it again: its retries are
     * model_retry events of the recording.
     */
    private ModelException fallenBack(JsonNode fallback) {
        ModelException failure = failure(fallback, false);
        boolean retryable = fallback.has("retryable") ? fallback.get("retryable").asBoolean()
                : failure.kind().retryableByDefault();
        if (!retryable) {
            return failure;
        }
        return new RetryStage.GaveUp(new ModelException(failure.kind(), failure.httpStatus(), failure.getMessage(), true, null,
                failure.requestId(), failure.reportedUsage().orElse(null), null), "");
    }

    private boolean recordingCancelled() {
        return recording.finished() != null && "CANCELLED".equals(recording.finished().path("status").asText());
    }

    private void stopIfAsked() throws InterruptedException {
        if (stopAtDivergence) {
            stop.run();
            throw new InterruptedException("replay stopped at the first divergence");
        }
    }
}
