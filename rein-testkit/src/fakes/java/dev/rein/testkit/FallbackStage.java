package dev.rein.testkit;

import dev.rein.model.Model;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelResponse;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * A model-call stage that moves a call on to a backup after a failed attempt, as an application's fallback does, for
 * tests of what a fallback looks like to the rest of a run: its {@code model_fallback} trace events, a live view's
 * {@code onRetry}, OpenTelemetry's fallback events, a replay. Script the failures with {@link ScriptedModel#fail}.
 *
 * <pre>{@code
 * Agent agent = Agent.builder()
 *         // not retryable: a retryable failure (OVERLOADED is, by default) is retried on the same model first,
 *         // and the script's next turn answers that retry, so no fallback would happen
 *         .model(ScriptedModel.of(ScriptedModel.fail(new ModelException(Kind.SERVER_ERROR, 500, "primary down", false,
 *                         null, null, null, null)),
 *                 ScriptedModel.text("Hi.")))
 *         .price("backup", price)                       // a money limit needs the backup's price
 *         .modelInterceptor(FallbackStage.toModel("backup"))
 *         .build();
 * }</pre>
 *
 * <p>It tries the call as it came, then each move in turn after a failure; when every attempt failed it ends the call
 * with the last failure, or, {@link #endingWithFirstFailure()}, with the first, as a stage that reports the primary's
 * failure does (the later ones are in the trace's {@code model_fallback} events; the exceptions are thrown as they are,
 * not changed, since a script may fail several attempts, or runs, with the same instance). The run's deadline
 * ({@code ModelDeadlineException}) is moved on from like any failure: the next attempt fails at once the same way.
 */
public final class FallbackStage implements ModelInterceptor {
    private final List<UnaryOperator<ModelCall>> moves;
    private final boolean endWithFirst;

    private FallbackStage(List<UnaryOperator<ModelCall>> moves, boolean endWithFirst) {
        this.moves = moves;
        this.endWithFirst = endWithFirst;
    }

    /**
     * Tries the call, then after each failure the next of {@code moves} applied to the call as it came (e.g.
     * {@code call -> call.withModel(backup)} for another provider's model).
     */
    @SafeVarargs
    public static FallbackStage of(UnaryOperator<ModelCall>... moves) {
        List<UnaryOperator<ModelCall>> list = List.of(moves); // refuses a null move
        if (list.isEmpty()) {
            throw new IllegalArgumentException("a fallback stage needs at least one move to make after a failure");
        }
        return new FallbackStage(list, false);
    }

    /** Tries the call, then after a failure the same call with the request's model name {@code name} (same provider). */
    public static FallbackStage toModel(String name) {
        Objects.requireNonNull(name, "name");
        return of(call -> call.withRequest(call.request().withModel(name)));
    }

    /**
     * Tries the call, then after a failure the same call on {@code backup} (another provider's model, say). The request
     * keeps its model name, so the trace's {@code model_fallback} says the same model moved on from and to, and the
     * backup's answer is priced at that name's price; to trace and price the backup by its own name, use {@link #of}
     * with {@code call -> call.withModel(backup).withRequest(call.request().withModel("backup-model"))}.
     */
    public static FallbackStage to(Model backup) {
        Objects.requireNonNull(backup, "backup");
        return of(call -> call.withModel(backup));
    }

    /** This stage, ending a call every attempt of which failed with the first failure (as it was thrown, unchanged). */
    public FallbackStage endingWithFirstFailure() {
        return new FallbackStage(moves, true);
    }

    @Override
    public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
        ModelException first;
        try {
            return chain.proceed(call);
        } catch (ModelException e) {
            first = e;
        }
        ModelException last = first;
        for (UnaryOperator<ModelCall> move : moves) {
            try {
                return chain.proceed(move.apply(call));
            } catch (ModelException e) {
                // not first.addSuppressed(e): a script's shared instance would be changed for every later run, and
                // the same instance failing twice cannot suppress itself
                last = e;
            }
        }
        throw endWithFirst ? first : last;
    }

    /** It proceeds once per attempt, which the chain allows only a stage that retries. */
    @Override
    public boolean retries() {
        return true;
    }

    @Override
    public String toString() {
        return "fallback";
    }
}
