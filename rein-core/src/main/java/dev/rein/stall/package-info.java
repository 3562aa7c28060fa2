/**
 * Stall detection: {@link dev.rein.stall.StallPolicy} (which detectors, how many warnings before
 * the run stops, the texts) and the detectors themselves. The loop applies a
 * policy to one run with an internal monitor, whose state can be rebuilt from a stored history.
 */
package dev.rein.stall;
