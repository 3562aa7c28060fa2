package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import io.temporal.api.common.v1.WorkflowExecution;
import io.temporal.api.taskqueue.v1.TaskQueue;
import io.temporal.api.workflow.v1.WorkflowExecutionConfig;
import io.temporal.api.workflow.v1.WorkflowExecutionInfo;
import io.temporal.api.workflowservice.v1.DescribeWorkflowExecutionResponse;
import org.junit.jupiter.api.Test;

/** What result(timeout)'s TimeoutException says the run waits on, from Temporal's description of its newest execution. */
class TemporalRunWaitingOnTest {
    private static DescribeWorkflowExecutionResponse described(String firstRunId, String runId, long historyLength) {
        return DescribeWorkflowExecutionResponse.newBuilder()
                .setWorkflowExecutionInfo(WorkflowExecutionInfo.newBuilder().setFirstRunId(firstRunId)
                        .setExecution(WorkflowExecution.newBuilder().setWorkflowId("run-1").setRunId(runId))
                        .setHistoryLength(historyLength))
                .setExecutionConfig(WorkflowExecutionConfig.newBuilder().setTaskQueue(TaskQueue.newBuilder().setName("orders")))
                .build();
    }

    /** The new execution of a run that continued as new has, for a moment, the history of a run no worker took up. */
    @Test
    void anExecutionTheRunHasJustContinuedInIsNotSaidToBeARunNoWorkerTookUp() {
        String said = TemporalRun.waitingOn(described("first", "second", 2), "orders");

        assertThat(said).doesNotContain("no worker has taken up the run yet").contains("continued as new")
                .contains("task queue 'orders'");
    }

    /** Probe: a run's first execution with only its start in the history is one no worker took up. */
    @Test
    void aFirstExecutionWithOnlyItsStartIsARunNoWorkerTookUp() {
        assertThat(TemporalRun.waitingOn(described("first", "first", 2), "orders"))
                .contains("no worker has taken up the run yet").contains("'orders'");
        assertThat(TemporalRun.waitingOn(described("", "first", 2), "orders"))
                .contains("no worker has taken up the run yet");
    }
}
