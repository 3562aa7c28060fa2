/**
 * Stall detection: {@link dev.rein.stall.StallPolicy} (which detectors, how many warnings before
 * the run stops, the texts) and the detectors themselves. A {@link dev.rein.stall.StallMonitor}
 * applies a policy to one run; its state can be rebuilt from a stored history.
 */
package dev.rein.stall;
