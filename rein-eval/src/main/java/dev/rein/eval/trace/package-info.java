/**
 * Recorded runs as evaluation tasks: a folder of JSONL traces becomes a suite ({@link
 * dev.rein.eval.trace.TraceSuite}) whose trials replay each run with the agent under test, answered
 * from the recording, and are graded on reaching the expected ending without divergence.
 */
package dev.rein.eval.trace;
