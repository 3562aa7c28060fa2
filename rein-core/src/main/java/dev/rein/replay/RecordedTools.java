package dev.rein.replay;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.internal.replay.RecordedAnswers;
import dev.rein.internal.secret.Masking;
import dev.rein.internal.text.Excerpts;
import dev.rein.internal.text.Fence;
import dev.rein.tool.ErrorClass;
import dev.rein.tool.Risk;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolHandler;
import dev.rein.tool.ToolInvocation;
import dev.rein.tool.ToolOutcome;
import dev.rein.tool.ToolResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Answers each tool call with its recorded result (by call id), so no side effect runs again. It runs
 * after Rein's own checks of the call ({@link RecordedAnswers}): today's scope check, approval policy
 * and call caps refuse or pause a call before it is answered, as they would a live call, so the replay
 * pauses where the recording did (and where today's policy now holds a call) and diverges where a
 * check now refuses. A call that reaches it unpaused where the recording paused it and has no result
 * for it, or that a person edited in the recording, is refused: its handler never runs.
 */
final class RecordedTools implements RecordedAnswers {
    private final Recording recording;
    private final boolean liveReadTools;
    /** How many recorded results of each step and call id were given out: calls sharing an id take theirs in turn. */
    private final Map<String, AtomicInteger> taken = new ConcurrentHashMap<>();
    /** How many live READ calls of each step and call id were given their recorded start time. */
    private final Map<String, AtomicInteger> clockTurns = new ConcurrentHashMap<>();

    private static final String NOT_HELD = "[rein replay] the recording paused this call for approval, but this agent's"
            + " approval policy let it run; a replay never runs it";

    /** Told of each call a live READ tool answers for real, so a difference in its result names the tool. */
    private final Comparison comparison;

    RecordedTools(Recording recording, boolean liveReadTools, Comparison comparison) {
        this.recording = recording;
        this.liveReadTools = liveReadTools;
        this.comparison = comparison;
    }

    @Override
    public ToolOutcome intercept(ToolInvocation invocation, Chain chain) throws InterruptedException {
        ToolCall call = invocation.call();
        if (liveReadTools && invocation.tool().risk() == Risk.READ) {
            comparison.ranLive(call.id(), call.name(), invocation.context().step());
            return markedAsRecorded(chain.proceed(invocation), call.id(), invocation.context().step());
        }
        int step = invocation.context().step();
        JsonNode r = recorded(call.id(), step);
        if (r == null && recording.approvalRequested().contains(call.id()) || editNotApplied(step, call)) {
            // The approval stage above let through a call the recording paused for a person: this agent's policy no
            // longer holds it (a call that still pauses is paused there, decided as recorded and resumed before it
            // gets here, with a person's edit applied). Refused, so the replay diverges where the policy changed.
            return ToolOutcome.of(ToolResult.reinError(call, ErrorClass.EXECUTION_FAILED, NOT_HELD));
        }
        if (r == null) {
            return ToolOutcome.of(new ToolResult(call.id(), call.name(), "[rein replay] the recording has no result for this call; it was"
                    + " not run", true, ErrorClass.EXECUTION_FAILED, null, invocation.context().clock().instant(), Duration.ZERO,
                    null, true));
        }
        ErrorClass refusedAs = reinRefusal(r);
        if (refusedAs != null) {
            // Rein's own checks refused the call in the recording and let it through today (a looser policy, cap or
            // scopes): handing back the recorded refusal would report reproduced where a live run would run the call.
            return ToolOutcome.of(ToolResult.reinError(call, ErrorClass.EXECUTION_FAILED, "[rein replay] the recording refused this call ("
                    + refusedAs + "); today's settings let it through; a replay never runs it"));
        }
        return ToolOutcome.of(new ToolResult(call.id(), call.name(), r.path("content").asText(), r.path("is_error").asBoolean(),
                errorClass(r.path("error_class").asText()), r.hasNonNull("source") ? r.get("source").asText() : null,
                invocation.context().clock().instant(), Duration.ofMillis(r.path("duration_millis").asLong()), null,
                r.path("rein_message").asBoolean(false), r.hasNonNull("user_content") ? r.get("user_content").asText() : null));
    }

    /**
     * The recorded results of call {@code id} at {@code step}; all of the id's when it has one, or none at that step
     * (an older trace without steps).
     */
    private List<JsonNode> atStep(String id, int step) {
        List<JsonNode> all = recording.toolResults().getOrDefault(id, List.of());
        if (all.size() <= 1) {
            return all;
        }
        List<JsonNode> atStep = all.stream().filter(r -> r.path("step").asInt() == step).toList();
        return atStep.isEmpty() ? all : atStep;
    }

    /**
     * A live call's {@code outcome}, its result marked as the tool's when it is Rein's note (an empty result, one for the
     * person only) that the recording has for this call with the same words as the tool's: a trace written before Rein
     * marked those notes as its own (ab2451ea, ac56fe1c) sent them wrapped as the tool's data, and the same answer now is
     * no divergence. A replay of such a trace answered from the recording keeps its flag the same way.
     */
    private ToolOutcome markedAsRecorded(ToolOutcome outcome, String callId, int step) {
        if (!(outcome instanceof ToolOutcome.Done done) || !done.result().reinMessage()) {
            return outcome;
        }
        ToolResult r = done.result();
        // the recorded results of this call at this step only: a provider may give calls of other steps the same id
        boolean recordedAsTools = atStep(callId, step).stream()
                .anyMatch(e -> !e.path("rein_message").asBoolean(false) && e.path("content").asText().equals(r.content()));
        return !recordedAsTools ? outcome : ToolOutcome.of(new ToolResult(r.callId(), r.toolName(), r.content(), r.isError(),
                r.errorClass(), r.source(), r.observedAt(), r.duration(), r.retryAfter(), false, r.userContent()));
    }

    /**
     * A refusal Rein makes before a replay answers from the recording (arguments not JSON or not fitting the tool's
     * schema, a tool that is no tool's name, also a live READ tool's arguments its reader refused) is made anew, in
     * today's words; where the recording refused the same call at the same step for the same class of error, its
     * refusal is handed back in its own words (and marked Rein's or not as recorded): a trace written when Rein
     * worded it otherwise (before the model's text in it was fenced) is then no divergence. Only the words are taken,
     * and only of the same refusal ({@link #sameRefusal}): a call the recording ran, or refused for another reason
     * (today's argument size or depth limit, a changed schema: INVALID_ARGUMENTS too), keeps today's refusal, and the
     * replay diverges there.
     */
    @Override
    public ToolOutcome answered(int step, ToolOutcome outcome) {
        if (!(outcome instanceof ToolOutcome.Done done) || !done.result().reinMessage()
                || done.result().errorClass() != ErrorClass.INVALID_ARGUMENTS && done.result().errorClass() != ErrorClass.UNKNOWN_TOOL) {
            return outcome;
        }
        ToolResult r = done.result();
        return atStep(r.callId(), step).stream()
                .filter(e -> e.path("is_error").asBoolean() && errorClass(e.path("error_class").asText()) == r.errorClass()
                        && r.toolName().equals(e.path("tool").asText(r.toolName()))
                        && sameRefusal(r.content(), e.path("content").asText()))
                .findFirst()
                .<ToolOutcome>map(e -> ToolOutcome.of(new ToolResult(r.callId(), r.toolName(), e.path("content").asText(), true,
                        r.errorClass(), r.source(), r.observedAt(), r.duration(), r.retryAfter(),
                        e.path("rein_message").asBoolean(false), r.userContent())))
                .orElse(outcome);
    }

    /**
     * Fence's cut note at the end of a quote ({@code Fence.quoted}), which a Rein that did not cut never wrote; its count
     * is an int's (a look-alike with more digits, the model's own text, is no cut and not parsed).
     */
    private static final Pattern CUT_NOTE = Pattern.compile("\\.\\.\\. \\((\\d{1,10}) more characters cut\\)$");

    /** What a fence's escape ({@code &lt;}) stood for: any bracket that opened a protected tag, or an "&lt;" of the text's own. */
    private static final String ESCAPED = "(?:&lt;|[<\uFF1C\uFE64])";

    /**
     * Whether {@code recorded} is the refusal {@code today} is, in an older Rein's words: today's quotes outside text in
     * a fence (the only words that changed), and the recorded one starts with the same first words ("Invalid arguments
     * for tool", "Unknown tool"), holds the quoted text and ends with the same words after the fence (the schema to call
     * it with, the tools to choose from). The quoted text is held as fenced (today's words: the cut note too, so a quote
     * cut at 500 characters is not taken for another sharing only them), or as text the fence would quote so: each escape
     * undone to the bracket it stood for (also a full-width or small one) while an "&lt;" of the text's own stays, and,
     * for a quote the fence cut, its 500 characters (fewer where the cut came before a masking marker) followed, before the
     * closing words, by at least as many characters as the cut note counts (a fence's closing tag not counted; an older
     * wording's own words between, such as ". ", are):
     * fewer, the recording held another text. Only the count is checked: another text of that length or longer after
     * the same 500 characters is taken as the same, as nothing in the recording tells them apart. A refusal today quotes nothing in (the
     * argument size and depth limits, a plain unknown name) is worded as it always was: not handed back.
     */
    static boolean sameRefusal(String today, String recorded) {
        String closing = "\n</" + Fence.TAG + ">";
        int open = today.indexOf("<" + Fence.TAG + " ");
        int body = open < 0 ? -1 : today.indexOf(">\n", open);
        int close = body < 0 ? -1 : today.indexOf(closing, body);
        if (close < 0) {
            return false;
        }
        String head = today.substring(0, open);
        int words = 0;
        while (words < head.length() && (Character.isLetter(head.charAt(words)) || head.charAt(words) == ' ')) {
            words++;
        }
        String firstWords = head.substring(0, words).strip();
        String after = today.substring(close + closing.length()).strip();
        if (firstWords.isEmpty() || !recorded.startsWith(firstWords) || !recorded.endsWith(after)) {
            return false;
        }
        String fenced = today.substring(body + 2, close);
        Matcher note = CUT_NOTE.matcher(fenced);
        int closingWords = recorded.length() - after.length();
        // the whole fenced text (the model's own text may end like a cut note), else the part before a cut note
        return quotes(recorded, fenced, -1, closingWords)
                || note.find() && quotes(recorded, fenced.substring(0, note.start()), Long.parseLong(note.group(1)), closingWords);
    }

    /**
     * Whether {@code recorded} holds text that the fence quotes as {@code escaped}: as it is, or with the escapes undone;
     * for {@code cutCount} 0 or more, the first 500 characters (where the fence cuts: {@code Excerpts.end}) of a text with
     * that many more, not followed by a cut note of their own (a recording in today's words whose quote was cut otherwise,
     * and so was another text) and followed by at least that many characters before {@code closingWords}, where the
     * recorded refusal's words after the quote begin.
     */
    private static boolean quotes(String recorded, String escaped, long cutCount, int closingWords) {
        boolean cut = cutCount >= 0;
        StringBuilder regex = new StringBuilder();
        int from = 0;
        for (int at = escaped.indexOf("&lt;"); at >= 0; at = escaped.indexOf("&lt;", from)) {
            regex.append(Pattern.quote(escaped.substring(from, at))).append(ESCAPED);
            from = at + "&lt;".length();
        }
        regex.append(Pattern.quote(escaped.substring(from)));
        if (cut) {
            regex.append("(?!\\.\\.\\. \\(\\d+ more characters cut\\))");
        }
        Matcher m = Pattern.compile(regex.toString()).matcher(recorded);
        for (int start = 0; start <= recorded.length() && m.find(start); start = m.start() + 1) {
            String held = m.group();
            // the fence escapes a bracket only where it opens a protected tag: the text held must be escaped as today's
            if (Fence.escape(held).equals(escaped) && (!cut || Excerpts.end(recorded.substring(m.start()), Fence.MAX_QUOTED) == held.length()
                    && charactersAfter(recorded, m.end(), closingWords) >= cutCount || cutInsideAMarker(recorded, held, m.end(), cutCount))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Older fenced cut: whether {@code recorded} continues at {@code end} as the Rein before core54 cut a quote, at exactly
     * 500 characters inside a masking marker: {@code held}, then a piece of the marker ({@code [REDA}, up to a whole {@code [REDACTED:name}
     * but never its {@code ]}), then its cut note, whose count and the piece's characters add up to today's
     * {@code cutCount} (today's cut comes before the marker and counts it).
     */
    private static boolean cutInsideAMarker(String recorded, String held, int end, long cutCount) {
        Matcher piece = OLD_MARKER_CUT.matcher(recorded).region(end, recorded.length());
        if (cutCount < 0 || !piece.lookingAt()) {
            return false;
        }
        String part = piece.group(1);
        boolean markerStart = part.length() <= Masking.MARKER_START.length()
                ? Masking.MARKER_START.startsWith(part) : part.startsWith(Masking.MARKER_START);
        int partLength = part.codePointCount(0, part.length());
        // the older Rein cut there only: held text and piece are exactly a quote's 500 code points
        return markerStart && rawLength(held) + partLength == Fence.MAX_QUOTED
                && partLength + Long.parseLong(piece.group(2)) == cutCount;
    }

    /**
     * The code points of the text the fence quoted as {@code held}, which was cut before it was escaped: each
     * {@code &lt;} the fence wrote (one that escapes back to itself when it is a bracket again) counts one.
     */
    private static int rawLength(String held) {
        int length = held.codePointCount(0, held.length());
        for (int at = held.indexOf("&lt;"); at >= 0; at = held.indexOf("&lt;", at + 1)) {
            String bracket = held.substring(0, at) + "<" + held.substring(at + "&lt;".length());
            if (Fence.escape(bracket).equals(held)) {
                length -= "&lt;".length() - 1;
            }
        }
        return length;
    }

    /** A marker's piece (no {@code ]}, shorter than a quote) and the cut note right after it. */
    private static final Pattern OLD_MARKER_CUT = Pattern.compile("(\\[[^\\]]{0,499}?)\\.\\.\\. \\((\\d{1,10}) more characters cut\\)" + Pattern.quote("\n</" + Fence.TAG + ">"));

    /**
     * The characters (code points) between the end of a quote held in {@code recorded} and its closing words: the rest
     * of the quoted text and the wording's own words between (". " where an older Rein wrote it unfenced), a fence's
     * closing tag not counted (a fenced wording quoted nothing past it); -1 where the closing words begin sooner.
     */
    private static int charactersAfter(String recorded, int end, int closingWords) {
        if (end > closingWords) {
            return -1;
        }
        String between = recorded.substring(end, closingWords).stripTrailing();
        String fenceClosing = "\n</" + Fence.TAG + ">";
        if (between.endsWith(fenceClosing)) {
            between = between.substring(0, between.length() - fenceClosing.length());
        }
        return between.codePointCount(0, between.length());
    }

    /**
     * A stand-in tool's call ({@link RecordedRun#standInTools()}) waits for a person exactly where the recording's call
     * of that step and id did, whatever the agent's policy: the trace records neither the real tool's risk nor the run's
     * policy. The agent's own tools follow its policy.
     */
    @Override
    public java.util.Optional<Boolean> holds(ToolInvocation invocation) {
        return RecordedRun.isStandIn(invocation.tool())
                ? java.util.Optional.of(recording.heldAt(invocation.context().step(), invocation.call().id()))
                : java.util.Optional.empty();
    }

    /**
     * The class of a recorded refusal Rein's checks wrote before the call could run (a person's rejection, a call cap,
     * missing scopes, the run's deadline before the call or its approval), or null for any other result. A call that
     * reaches this stage passed today's checks, so such a refusal is one they no longer make.
     */
    private static ErrorClass reinRefusal(JsonNode r) {
        if (!r.path("rein_message").asBoolean(false)) {
            return null;
        }
        ErrorClass c = errorClass(r.path("error_class").asText());
        return switch (c) {
            case REJECTED, LIMIT_REACHED, PERMISSION_DENIED -> c;
            case TIMEOUT -> dev.rein.internal.text.DeadlineRefusal.isNotCalled(r.path("content").asText()) ? c : null;
            default -> null;
        };
    }

    /** Whether the recording has a person's edit of this call that its arguments do not carry: the replay did not pause it. */
    private boolean editNotApplied(int step, ToolCall call) {
        return recording.edited(step, call.id()) && !recording.decision(step, call.id()).path("arguments").equals(call.arguments());
    }

    /**
     * Only a live READ tool's handler may run in a replay. A call passed on to the approval stage
     * that the agent's policy does not hold for a person would reach its handler: it is refused
     * instead, and the replay diverges there.
     */
    @Override
    public ToolHandler aroundHandler(ToolInvocation invocation, ToolHandler handler) {
        if (liveReadTools && invocation.tool().risk() == Risk.READ) {
            int step = invocation.context().step();
            int turn = clockTurns.computeIfAbsent(step + "|" + invocation.call().id(), k -> new AtomicInteger()).getAndIncrement();
            java.time.Instant recordedStart = recording.callTime(step, invocation.call().id(), turn);
            return recordedStart == null ? handler : (arguments, context) -> handler.handle(arguments, atRecordedTime(context, recordedStart));
        }
        return (arguments, context) -> {
            throw new IllegalStateException(NOT_HELD);
        };
    }

    /**
     * The recorded result for a call of {@code id} at {@code step}: an id used once is matched by id
     * alone (a replay that moved the call to another step still gets it); calls sharing an id take the
     * results of their step in trace order, which is call order for calls run one at a time. Null when
     * the recording has none.
     */
    private JsonNode recorded(String id, int step) {
        List<JsonNode> candidates = atStep(id, step);
        if (candidates.size() <= 1) {
            return candidates.isEmpty() ? null : candidates.get(0);
        }
        int turn = taken.computeIfAbsent(step + "|" + id, k -> new AtomicInteger()).getAndIncrement();
        return candidates.get(Math.min(turn, candidates.size() - 1));
    }

    /**
     * The handler's context on a clock that starts at the recorded start of the call and runs on, its
     * deadline moved with it: a live tool that stamps its result with the time (search_documents'
     * "searched at", get_current_time) answers as it did when its data has not changed, rather than
     * diverging on the hour of the replay. Only the handler sees it; the executor's stages keep the run's time.
     */
    private static dev.rein.tool.ToolContext atRecordedTime(dev.rein.tool.ToolContext context, java.time.Instant recordedStart) {
        Duration shift = Duration.between(context.clock().instant(), recordedStart);
        return new dev.rein.tool.ToolContext(context.runId(), context.step(), context.callId(), context.idempotencyKey(),
                context.deadline().plus(shift), context.principal(), context.secrets(),
                java.time.Clock.offset(context.clock(), shift), context.traceContext(), context.risk());
    }

    private static ErrorClass errorClass(String name) {
        try {
            return name.isEmpty() ? ErrorClass.NONE : ErrorClass.valueOf(name);
        } catch (IllegalArgumentException e) {
            return ErrorClass.EXECUTION_FAILED;
        }
    }
}
