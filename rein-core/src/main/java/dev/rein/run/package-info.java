/**
 * The shared vocabulary of a run's outcome, used by the loop, the store, the trace and the guards:
 * {@link dev.rein.run.RunStatus}, {@link dev.rein.run.Reasons}, the proposed
 * {@link dev.rein.run.FinalAnswer} and its {@link dev.rein.run.Verifier}s, and the
 * {@link dev.rein.run.FinishReport}. A leaf package: it depends on the model types only.
 */
package dev.rein.run;
