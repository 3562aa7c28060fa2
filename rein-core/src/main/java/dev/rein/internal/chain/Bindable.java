package dev.rein.internal.chain;

/**
 * A stage of Rein's own that its chain binds once to the rest of it ({@code C}, the chain's type), so passing a call
 * on is one frame per stage (the bound form's {@code proceed}, which is the stage's work) instead of the stage's
 * {@code intercept} and the chain's {@code proceed}: a run waiting for its tool call parks with this stack, and at
 * thousands of runs in flight each frame of it is copied to the heap at each park (docs/performance-log.md, 2026-12-07,
 * perf6). The chain's contract checks police the application's stages; Rein's own keep the contract by construction.
 * Names no chain's types, so that the stages of any package can be bound without a package cycle.
 */
public interface Bindable<C> {

    /** This stage with {@code next} as the rest of the chain (null after the last stage, which answers). */
    C bind(C next);

    /**
     * Whether this stage names its own failures itself (the approval gate) or catches what it calls (the handler's
     * stage, the model's): then nothing it threw reaches its chain unnamed, and a failure the stack trace does not tell
     * of is not put down to it (see Suspects).
     */
    default boolean namesOwnFailures() {
        return false;
    }
}
