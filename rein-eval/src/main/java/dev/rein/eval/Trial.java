package dev.rein.eval;

import dev.rein.agent.RunResult;

/**
 * A finished trial as graders see it.
 *
 * @param taskId      the task's id
 * @param index       the trial's number within its task, from 0
 * @param environment the trial's own environment, in its final state
 * @param result      how the run ended
 * @param trajectory  what the run did, from its trace
 */
public record Trial<E extends Environment>(String taskId, int index, E environment, RunResult result,
                                           Trajectory trajectory) {}
