/**
 * The premature-finish guard: {@link dev.rein.guard.RequiredFact}s a final answer must establish,
 * checked by the {@link dev.rein.guard.RequiredFacts} verifier.
 */
package dev.rein.guard;
