package dev.rein.context;

import dev.rein.internal.text.Fence;
import dev.rein.tool.ToolOutcome;

import dev.rein.tool.ToolInterceptor;
import dev.rein.tool.ToolInvocation;
import dev.rein.tool.ToolResult;
import dev.rein.trace.TraceEvent;
import dev.rein.trace.Tracer;
import java.util.Locale;

/**
 * The executor stage right around the handler: an output longer than the limit reaches the model
 * as its first {@code limit} characters (Unicode code points) and a notice saying how much was
 * omitted and how to narrow the request. The full output goes to the {@link OutputStore}; the
 * trace records its hash. Errors are truncated the same way, and so is a result's part for the
 * person ({@link ToolResult#userContent()}), with an {@code output_truncated} event of its own
 * ({@code part} "user_content") and a note for the person in place of the model's.
 */
public final class OutputTruncation implements ToolInterceptor {
    private final int limit;
    private final OutputStore store;
    private final Tracer tracer;

    /**
     * @param limit the most characters shown; 0 turns truncation off
     * @throws dev.rein.ReinException when {@code limit} is negative, or the store or tracer is null
     */
    public OutputTruncation(int limit, OutputStore store, Tracer tracer) {
        // refused here: taken, a negative limit failed every longer output's call after its handler ran
        if (limit < 0) {
            throw new dev.rein.ReinException("OutputTruncation's limit cannot be negative, was " + limit + ": give the most"
                    + " characters of an output shown to the model (ContextPolicy's default is 4,000); 0 turns truncation off");
        }
        if (store == null) {
            throw new dev.rein.ReinException("OutputTruncation was given no store (null): pass where full outputs are kept,"
                    + " OutputStore.inMemory() or OutputStore.directory(path)");
        }
        if (tracer == null) {
            throw new dev.rein.ReinException("OutputTruncation was given no tracer (null): pass the run's tracer, which records"
                    + " each truncation (output_truncated)");
        }
        this.limit = limit;
        this.store = store;
        this.tracer = tracer;
    }

    @Override
    public ToolOutcome intercept(ToolInvocation invocation, Chain chain) throws InterruptedException {
        ToolOutcome outcome = chain.proceed(invocation);
        if (!(outcome instanceof ToolOutcome.Done done) || limit == 0) {
            return outcome;
        }
        ToolResult result = done.result();
        Cut content = cut(result.content());
        if (content != null) {
            emit(invocation, result, content, null);
        }
        // the part for the person is recorded, stored and shown too: cut to the same limit, its full text kept the same way
        Cut user = result.userContent() == null ? null : cut(result.userContent());
        if (user != null) {
            emit(invocation, result, user, USER_CONTENT);
        }
        if (content == null && user == null) {
            return outcome;
        }
        return ToolOutcome.of(withParts(result, content == null ? result.content()
                        : (result.reinMessage() ? closingOpenFence(content.shown(), result.content()) : content.shown())
                                + notice(limit, content.total(), content.hash(), content.stored()),
                user == null ? result.userContent() : user.shown() + userNotice(limit, user.total(), user.hash(), user.stored())));
    }

    /**
     * {@code result} with its parts cut, in one copy, keeping its {@code reinMessage}: a cut of Rein's own note followed by
     * Rein's notice is still Rein's words ({@link ToolResult#withContent} would mark it as the tool's, as it must for an
     * application's change; ToolResult's own {@code withOwnContent} is not visible from this package).
     */
    private static ToolResult withParts(ToolResult result, String content, String userContent) {
        return new ToolResult(result.callId(), result.toolName(), content, result.isError(), result.errorClass(), result.source(),
                result.observedAt(), result.duration(), result.retryAfter(), result.reinMessage(), userContent);
    }

    /**
     * {@code shown}, the start of Rein's own message {@code text}, with a fence it cuts into closed: Rein's message may quote
     * outside text fenced as data ({@code Fence.quoted}), and a cut inside the fence would leave Rein's notice after it
     * inside the open fence, read as data. A cut inside the fence's opening tag leaves the partial tag out. Inside a fence
     * no tag of its name can stand (its text is escaped), so the last opening before the cut is the one that matters.
     */
    static String closingOpenFence(String shown, String text) {
        String opening = "<" + Fence.TAG;
        String closing = "</" + Fence.TAG + ">";
        int open = text.lastIndexOf(opening, shown.length() - 1);
        if (open < 0) {
            return shown;
        }
        int closed = text.indexOf(closing, open);
        if (closed >= 0 && closed + closing.length() <= shown.length()) {
            return shown; // the last fence before the cut ends before it too
        }
        int tagEnd = text.indexOf('>', open);
        if (tagEnd < 0 || tagEnd >= shown.length()) {
            return shown.substring(0, open); // cut inside the opening tag: no fence was opened
        }
        return shown + "\n" + closing;
    }

    /** The {@code part} of an {@code output_truncated} event for the result's part for the person. */
    static final String USER_CONTENT = "user_content";

    /** Text cut to the limit: what is shown, how long it was, and where its full text is kept. */
    private record Cut(String shown, int total, String hash, boolean stored, String location) {}

    /** {@code text} cut to the limit with its full text stored, or null when it is within the limit. */
    private Cut cut(String text) {
        if (text.length() <= limit) {
            return null;
        }
        int total = text.codePointCount(0, text.length());
        if (total <= limit) {
            return null;
        }
        try {
            String hash = store.put(text);
            return new Cut(text.substring(0, text.offsetByCodePoints(0, limit)), total, hash, true, store.location(hash));
        } catch (RuntimeException e) {
            return new Cut(text.substring(0, text.offsetByCodePoints(0, limit)), total, dev.rein.json.Hashing.sha256(text), false,
                    "not stored: " + e.getMessage());
        }
    }

    private void emit(ToolInvocation invocation, ToolResult result, Cut cut, String part) {
        tracer.emit(new TraceEvent.OutputTruncated(invocation.context().runId(), invocation.context().step(), tracer.now(),
                result.callId(), result.toolName(), cut.total(), limit, cut.hash(), cut.stored(), cut.location(), part));
    }

    /** The note on a cut part for the person: worded for them (the model never sees it), without advice to the model. */
    static String userNotice(int shown, int total, String hash, boolean stored) {
        String kept = stored ? " The full text is kept as sha256:" + hash.substring(0, 16) + "." : "";
        return String.format(Locale.ROOT, "%n%n[rein] Cut: showing the first %,d of %,d characters.%s", shown, total, kept);
    }

    static String notice(int shown, int total, String hash, boolean stored) {
        String kept = stored ? " The full output is kept out of band as sha256:" + hash.substring(0, 16) + "." : "";
        return String.format(Locale.ROOT, "%n%n[rein] Output truncated: showing the first %,d of %,d characters;"
                + " %,d characters were omitted.%s To see the rest, narrow the request (a filter, a smaller range,"
                + " fewer fields) instead of repeating it.", shown, total, total - shown, kept);
    }
}
