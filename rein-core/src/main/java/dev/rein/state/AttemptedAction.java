package dev.rein.state;

/**
 * One call the run made or tried: which step, which tool, the action's hash and how it ended
 * ({@code outcome} is the error class, {@code NONE} for success).
 */
public record AttemptedAction(int step, String callId, String tool, String actionHash, String outcome, boolean isError) {}
