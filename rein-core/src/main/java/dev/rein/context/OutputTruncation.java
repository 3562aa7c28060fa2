package dev.rein.context;

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
 * trace records its hash. Errors are truncated the same way.
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
        if (!(outcome instanceof ToolOutcome.Done done)) {
            return outcome;
        }
        ToolResult result = done.result();
        String content = result.content();
        if (limit == 0 || content.length() <= limit) {
            return outcome;
        }
        int total = content.codePointCount(0, content.length());
        if (total <= limit) {
            return outcome;
        }
        String hash;
        boolean stored;
        String location;
        try {
            hash = store.put(content);
            stored = true;
            location = store.location(hash);
        } catch (RuntimeException e) {
            hash = dev.rein.json.Hashing.sha256(content);
            stored = false;
            location = "not stored: " + e.getMessage();
        }
        String shown = content.substring(0, content.offsetByCodePoints(0, limit));
        tracer.emit(new TraceEvent.OutputTruncated(invocation.context().runId(), invocation.context().step(), tracer.now(),
                result.callId(), result.toolName(), total, limit, hash, stored, location));
        return ToolOutcome.of(result.withContent(shown + notice(limit, total, hash, stored)));
    }

    static String notice(int shown, int total, String hash, boolean stored) {
        String kept = stored ? " The full output is kept out of band as sha256:" + hash.substring(0, 16) + "." : "";
        return String.format(Locale.ROOT, "%n%n[rein] Output truncated: showing the first %,d of %,d characters;"
                + " %,d characters were omitted.%s To see the rest, narrow the request (a filter, a smaller range,"
                + " fewer fields) instead of repeating it.", shown, total, total - shown, kept);
    }
}
