package dev.rein.temporal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.temporal.internal.AgentWorkflow;
import dev.rein.temporal.internal.ApprovalSignal;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolInterceptor;
import io.temporal.api.history.v1.HistoryEvent;
import io.temporal.common.WorkflowExecutionHistory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/**
 * Histories kept in the sources that go through the workflow's {@code Workflow.getVersion} branches, so that a change
 * to the workflow code that breaks the replay of such runs fails here:
 * <ul>
 *   <li>{@code reads-cancelled} (a step's reads where one fails for good and the others are cancelled);
 *   <li>{@code pause-continue-as-new} (a pause that continued as new, and the execution it continued in);
 *   <li>{@code continue-as-new} (a run that continued as new between steps, and the execution it continued in);
 *   <li>{@code deadline-in-call-intervention} (the deadline passed during a model call);
 *   <li>{@code end-not-cancelled} (a cancel arrived while the run's end was traced);
 *   <li>{@code resume-not-cancelled} (a cancel arrived while the resume, every pending action decided, was traced);
 *   <li>{@code finish-refusal-count} (a finish call its schema refused counted with a verifier's refusal: the run ends
 *       FAILED when they are used up);
 *   <li>{@code unserved-call-end-traced} (a model call no worker took up within its start timeout: a worker back in
 *       time traces the run's end; with {@code -end-untaken} none comes back, with {@code -cancelled} the run is
 *       cancelled while ReinEnd waits);
 *   <li>{@code unserved-after-deadline-stopped} (an activity no worker took up by the run's deadline and the grace:
 *       the run ends STOPPED_BUDGET deadline, untraced; the replay's result is checked too, as the branch adds no
 *       command for the replay to compare);
 *   <li>and, with no branch of its own, {@code decision-with-continued-start} (a decision delivered with the start of
 *       an execution a pause continued in, heard since 5f90245b: the workflow is made from the run's input).
 * </ul>
 * Those are recorded with the current code (each branch's version 1). The histories named {@code *-before-<commit>}
 * were recorded with the code of that commit's parent, before the change, and pin that runs recorded then still replay
 * through the branch's default version: {@code end-cancelled-before-f92dd9b3}, and for {@code reads-all-ended}
 * (whose version 1 only histories recorded before {@code reads-cancelled} reach, as a step of two reads now takes that
 * branch) {@code reads-not-awaited-before-36de1b45} (its default version) and {@code reads-all-ended-before-21539385}
 * (its version 1), and for {@code finish-refusal-count} {@code finish-refused-before-6cee147d} and
 * {@code finish-refused-mixed-before-6cee147d} (the activities of 6cee147d, which count the refusal, with the workflow
 * tasks of its parent, which did not take the count up: a run whose workers were replaced while it ran), and for
 * {@code unserved-call-end-traced} {@code unserved-call-never-taken-before-c5cd5c27}, and for
 * {@code unserved-after-deadline-stopped} {@code unserved-after-deadline-failed-before-6b45a1c8} (ended FAILED, its
 * result checked too). Each was recorded by the scenario
 * of the test its commit added, run in a checkout of the parent commit. So were those of four changes made without a version (see "Versioning" in
 * docs/temporal.md), which pin what replays and what does not: {@code approval-during-pause-before-c46ffe2b} (replays)
 * and {@code approval-during-pause-cancelled-before-c46ffe2b}, {@code edit-not-object-before-ad120176},
 * {@code verifier-failed-before-54cec27d} (do not), and {@code summary-retry-in-activity-before-4532c788} and
 * {@code critic-retry-in-activity-before-4532c788} (replay). The default version of {@code continue-as-new} is not pinned: a run recorded
 * before it reached the branch only past 10,000 events (the history limit came with it), megabytes of history. Nor is
 * that of {@code deadline-in-call-intervention}: before it, only Temporal's timeout of the model call reached the branch,
 * and such a history (the timed-out attempt with no started event, as the test server records it) has not replayed
 * since 678f17cd, which ends a run whose activity "was not started" without ReinEnd and has no version of its own.
 *
 * <p>To record the current-code ones a folder lacks (a file already there is kept; give a new name to a new version's):
 * {@code ./test -o -pl rein-temporal -Dtest=RecordedBranchHistoriesTest -Drein.recordHistories=src/test/resources/histories}.
 */
class RecordedBranchHistoriesTest {
    static final String READS_CANCELLED = "reads-cancelled-v2.json";
    static final String PAUSE_CONTINUED = "pause-continue-as-new-v2.json";
    static final String PAUSE_CONTINUED_NEXT = "pause-continue-as-new-v2-next.json";
    static final String CONTINUED = "continue-as-new-v2.json";
    static final String CONTINUED_NEXT = "continue-as-new-v2-next.json";
    static final String DEADLINE_IN_CALL = "deadline-in-call-intervention-v2.json";
    static final String END_NOT_CANCELLED = "end-not-cancelled-v2.json";
    static final String DECISION_WITH_START = "decision-with-continued-start-v2.json";
    static final String RESUME_NOT_CANCELLED = "resume-not-cancelled-v2.json";
    static final String FINISH_REFUSAL_COUNT = "finish-refusal-count-v2.json";
    static final String NO_DEADLINE_CALL = "no-deadline-call-unbounded-v2.json";
    static final String LONG_DEADLINE_CALL = "long-deadline-call-unbounded-v2.json";
    static final String UNSERVED_CALL_END = "unserved-call-end-traced-v2.json";
    static final String UNSERVED_CALL_END_UNTAKEN = "unserved-call-end-traced-v2-end-untaken.json";
    static final String UNSERVED_CALL_END_CANCELLED = "unserved-call-end-traced-v2-cancelled.json";
    static final String UNSERVED_AFTER_DEADLINE = "unserved-after-deadline-stopped-v2.json";
    static final String UNSERVED_AFTER_DEADLINE_BEFORE = "unserved-after-deadline-failed-before-6b45a1c8.json";

    @Test
    void aStepWhoseReadWasCancelledWhenAnotherFailedForGoodStillReplays() throws Exception {
        replays(READS_CANCELLED, history -> {
            goesThrough(history, "reads-cancelled");
            assertThat(history.getLastEvent().hasWorkflowExecutionCompletedEventAttributes()).isTrue();
        });
    }

    @Test
    void aPauseThatContinuedAsNewStillReplays() throws Exception {
        replays(PAUSE_CONTINUED, history -> {
            goesThrough(history, "pause-continue-as-new");
            assertThat(history.getLastEvent().hasWorkflowExecutionContinuedAsNewEventAttributes()).isTrue();
        });
    }

    @Test
    void theExecutionAPauseContinuedInStillReplays() throws Exception {
        replays(PAUSE_CONTINUED_NEXT, history -> {
            assertThat(history.getEvents().get(0).getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId())
                    .as("an execution continued from a pause").isNotEmpty();
            assertThat(history.getLastEvent().hasWorkflowExecutionCompletedEventAttributes()).isTrue();
        });
    }

    @Test
    void aRunThatContinuedAsNewBetweenStepsStillReplays() throws Exception {
        replays(CONTINUED, history -> {
            goesThrough(history, "continue-as-new");
            assertThat(history.getLastEvent().hasWorkflowExecutionContinuedAsNewEventAttributes()).isTrue();
        });
    }

    @Test
    void theExecutionARunContinuedInBetweenStepsStillReplays() throws Exception {
        replays(CONTINUED_NEXT, history -> {
            assertThat(history.getEvents().get(0).getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId())
                    .as("an execution continued between steps").isNotEmpty();
            assertThat(history.getLastEvent().hasWorkflowExecutionCompletedEventAttributes()).isTrue();
        });
    }

    @Test
    void aDeadlinePassedDuringAModelCallStillReplays() throws Exception {
        replays(DEADLINE_IN_CALL, history -> {
            goesThrough(history, "deadline-in-call-intervention");
            assertThat(scheduled(history, "ReinCallModel")).as("the deadline passed during the second model call")
                    .isEqualTo(2);
            assertThat(scheduled(history, "ReinIntervene")).isOne();
            assertThat(history.getLastEvent().hasWorkflowExecutionCompletedEventAttributes()).isTrue();
        });
    }

    @Test
    void aCancelWhileTheEndWasTracedStillReplays() throws Exception {
        replays(END_NOT_CANCELLED, history -> {
            goesThrough(history, "end-not-cancelled");
            assertThat(requestedCancels(history)).as("the cancel came while the end was traced").isOne();
            assertThat(scheduled(history, "ReinEnd")).as("the end traced once, not again as cancelled").isOne();
        });
    }

    @Test
    void aCancelWhileTheResumeWasTracedStillReplays() throws Exception {
        replays(RESUME_NOT_CANCELLED, history -> {
            goesThrough(history, "resume-not-cancelled");
            assertThat(requestedCancels(history)).as("the cancel came while the resume was traced").isOne();
            assertThat(scheduled(history, "ReinResumed")).isOne();
            assertThat(scheduled(history, "ReinEnd")).as("the end traced once, as cancelled").isOne();
            List<HistoryEvent> events = history.getEvents();
            int resumed = events.indexOf(events.stream().filter(HistoryEvent::hasActivityTaskScheduledEventAttributes)
                    .filter(e -> e.getActivityTaskScheduledEventAttributes().getActivityType().getName()
                            .equals("ReinResumed"))
                    .findFirst().orElseThrow());
            int cancelled = events.indexOf(events.stream()
                    .filter(HistoryEvent::hasWorkflowExecutionCancelRequestedEventAttributes).findFirst().orElseThrow());
            assertThat(cancelled).as("the cancel came after ReinResumed was scheduled").isGreaterThan(resumed);
            assertThat(history.getLastEvent().hasWorkflowExecutionCanceledEventAttributes()).isTrue();
        });
    }

    @Test
    void aCancelWhileTheEndWasTracedRecordedBeforeItWasLeftStillReplays() throws Exception {
        replays("end-cancelled-before-f92dd9b3.json", history -> {
            assertThat(versionMarkers(history)).as("recorded before the branch").doesNotContain("end-not-cancelled");
            assertThat(requestedCancels(history)).as("the cancel came while the end was traced").isOne();
            assertThat(scheduled(history, "ReinEnd")).as("the end cancelled and traced again as cancelled").isEqualTo(2);
        });
    }

    @Test
    void aReadFailedForGoodWhileAnotherRanRecordedBeforeTheReadsWereAwaitedStillReplays() throws Exception {
        replays("reads-not-awaited-before-36de1b45.json", history -> {
            assertThat(versionMarkers(history)).as("recorded before the branches")
                    .doesNotContain("reads-all-ended", "reads-cancelled");
            assertThat(scheduled(history, "ReinCallTool")).as("the step's two reads").isEqualTo(2);
        });
    }

    @Test
    void aReadFailedForGoodWhileAnotherRanRecordedWhenTheReadsWereAwaitedStillReplays() throws Exception {
        replays("reads-all-ended-before-21539385.json", history -> {
            assertThat(versionMarkers(history))
                    .as("the history goes through the reads-all-ended branch, not reads-cancelled")
                    .contains("reads-all-ended").doesNotContain("reads-cancelled");
            assertThat(scheduled(history, "ReinCallTool")).as("the step's two reads").isEqualTo(2);
        });
    }

    @Test
    void aDecisionDeliveredWithTheStartOfAContinuedPauseStillReplays() throws Exception {
        replays(DECISION_WITH_START, history -> {
            assertThat(history.getEvents().get(0).getWorkflowExecutionStartedEventAttributes().getInput().getPayloadsCount())
                    .isOne();
            List<HistoryEvent> events = history.getEvents();
            int signalled = events.indexOf(events.stream().filter(HistoryEvent::hasWorkflowExecutionSignaledEventAttributes)
                    .findFirst().orElseThrow());
            int firstTask = events.indexOf(events.stream().filter(HistoryEvent::hasWorkflowTaskStartedEventAttributes)
                    .findFirst().orElseThrow());
            assertThat(signalled).as("the decision came with the start, before the first workflow task")
                    .isLessThan(firstTask);
            assertThat(scheduled(history, "ReinResumed")).as("the decision heard: the pause ended").isOne();
            assertThat(history.getLastEvent().hasWorkflowExecutionCompletedEventAttributes()).isTrue();
        });
    }

    @Test
    void aFinishCallItsSchemaRefusedCountedWithAVerifiersRefusalStillReplays() throws Exception {
        replays(FINISH_REFUSAL_COUNT, history -> {
            goesThrough(history, "finish-refusal-count");
            assertThat(scheduled(history, "ReinVerify")).as("the verifier's refusal used the last attempt").isOne();
            assertThat(scheduled(history, "ReinCallModel")).as("the model not asked again").isEqualTo(2);
            assertThat(scheduled(history, "ReinEnd")).isOne();
            assertThat(history.getLastEvent().hasWorkflowExecutionCompletedEventAttributes()).isTrue();
        });
    }

    @Test
    void aModelCallWithoutScheduleToCloseInARunWithoutATimeLimitStillReplays() throws Exception {
        replays(NO_DEADLINE_CALL, history -> {
            goesThrough(history, "no-deadline-call-unbounded");
            assertThat(history.getEvents().stream().filter(HistoryEvent::hasActivityTaskScheduledEventAttributes)
                    .map(HistoryEvent::getActivityTaskScheduledEventAttributes)
                    .filter(a -> a.getActivityType().getName().equals("ReinCallModel")))
                    .as("the model call scheduled without a limit as a whole").singleElement()
                    .satisfies(a -> assertThat(a.hasScheduleToCloseTimeout()
                            && a.getScheduleToCloseTimeout().getSeconds() > 0
                            && a.getScheduleToCloseTimeout().getSeconds() < 400L * 24 * 3600).isFalse());
            assertThat(history.getLastEvent().hasWorkflowExecutionCompletedEventAttributes()).isTrue();
        });
    }

    /**
     * A run whose time limit is further off than 365 days: its model call has no schedule-to-close (the deadline is kept
     * within each attempt), and every model call has a schedule-to-start timeout (the client's, 365 days by default).
     * The histories recorded before (no-deadline-call-unbounded-v2.json among them) have neither marker and still replay.
     */
    @Test
    void aModelCallWithAStartTimeoutInARunWithALongTimeLimitStillReplays() throws Exception {
        replays(LONG_DEADLINE_CALL, history -> {
            assertThat(versionMarkers(history)).as("the history goes through both branches")
                    .contains("long-deadline-call-unbounded", "call-start-timeout");
            assertThat(history.getEvents().stream().filter(HistoryEvent::hasActivityTaskScheduledEventAttributes)
                    .map(HistoryEvent::getActivityTaskScheduledEventAttributes)
                    .filter(a -> a.getActivityType().getName().equals("ReinCallModel")))
                    .as("the model call scheduled without a limit as a whole, and a start timeout of 365 days")
                    .singleElement()
                    .satisfies(a -> {
                        assertThat(a.hasScheduleToCloseTimeout() && a.getScheduleToCloseTimeout().getSeconds() > 0
                                && a.getScheduleToCloseTimeout().getSeconds() < 400L * 24 * 3600).isFalse();
                        assertThat(a.getScheduleToStartTimeout().getSeconds()).isEqualTo(365L * 24 * 3600);
                    });
            assertThat(history.getLastEvent().hasWorkflowExecutionCompletedEventAttributes()).isTrue();
        });
    }

    /**
     * A model call no worker took up within its start timeout, and a worker back in time to take up ReinEnd: the run's
     * end is traced by it.
     */
    @Test
    void aModelCallNoWorkerTookUpWhoseEndAWorkerTracedStillReplays() throws Exception {
        replays(UNSERVED_CALL_END, history -> {
            goesThrough(history, "unserved-call-end-traced");
            assertThat(scheduled(history, "ReinCallModel")).isOne();
            assertThat(scheduled(history, "ReinEnd")).as("the end traced by a worker").isOne();
            assertThat(history.getLastEvent().hasWorkflowExecutionCompletedEventAttributes()).isTrue();
        });
    }

    /**
     * A model call no worker took up, and none back to take up ReinEnd within its start timeout: the workflow ends the
     * run with a result of its own, ReinEnd scheduled and timed out.
     */
    @Test
    void aModelCallNoWorkerTookUpWhoseEndNoWorkerTookUpStillReplays() throws Exception {
        replays(UNSERVED_CALL_END_UNTAKEN, history -> {
            goesThrough(history, "unserved-call-end-traced");
            assertThat(scheduled(history, "ReinEnd")).as("the end waited for a worker").isOne();
            assertThat(history.getEvents().stream().anyMatch(HistoryEvent::hasActivityTaskTimedOutEventAttributes)).isTrue();
            assertThat(history.getEvents().stream().anyMatch(HistoryEvent::hasActivityTaskCompletedEventAttributes))
                    .as("ReinBegin only").isTrue();
            assertThat(history.getLastEvent().hasWorkflowExecutionCompletedEventAttributes()).isTrue();
        });
    }

    /**
     * A model call no worker took up, and the run cancelled while ReinEnd waited for a worker: the wait is cancelled and
     * the workflow ends the run with a result of its own (the model call's failure), the execution cancelled.
     */
    @Test
    void aModelCallNoWorkerTookUpWhoseEndsWaitWasCancelledStillReplays() throws Exception {
        replays(UNSERVED_CALL_END_CANCELLED, history -> {
            goesThrough(history, "unserved-call-end-traced");
            assertThat(scheduled(history, "ReinEnd")).isOne();
            assertThat(history.getEvents().stream().anyMatch(HistoryEvent::hasWorkflowExecutionCancelRequestedEventAttributes))
                    .isTrue();
            // Temporal records the execution cancelled; the run's result (FAILED) is the workflow's, read by a query
            assertThat(history.getLastEvent().hasWorkflowExecutionCanceledEventAttributes()).isTrue();
        });
    }

    /**
     * An activity (ReinBegin) no worker took up by the run's deadline (2 s) and the grace (no worker of the queue has
     * the agent's activities; busy ones look the same to Temporal): since 6b45a1c8 the run ends STOPPED_BUDGET
     * deadline, the workflow's own result, untraced (ReinEnd not scheduled). The version marker alone does not make a
     * replay check the branch (the SDK compares commands, not the value the workflow returns), so the replay's result is
     * checked too: a change that schedules another activity on this path, or ends such a run otherwise, fails here.
     */
    @Test
    void anActivityNoWorkerTookUpByTheDeadlineEndedForTheBudgetStillReplays() throws Exception {
        WorkflowExecutionHistory history = recorded(UNSERVED_AFTER_DEADLINE);
        goesThrough(history, "unserved-after-deadline-stopped");
        assertThat(scheduled(history, "ReinBegin")).isOne();
        assertThat(history.getEvents().stream().filter(HistoryEvent::hasActivityTaskScheduledEventAttributes).count())
                .as("ReinBegin only: the end not traced").isOne();
        assertThat(history.getEvents().stream().anyMatch(HistoryEvent::hasActivityTaskTimedOutEventAttributes)).isTrue();
        assertThat(history.getLastEvent().hasWorkflowExecutionCompletedEventAttributes()).isTrue();

        RunResult replayed = replayedResult(history);

        assertThat(replayed.status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        assertThat(replayed.reason()).isEqualTo("deadline");
        assertThat(replayed.message()).contains("no worker took up ReinBegin").contains("or all were busy");
    }

    /**
     * The same run recorded before 6b45a1c8 (by anActivityNoWorkerTookUpByTheDeadlineEndedForTheBudgetStillReplays's
     * scenario in a checkout of its parent): no marker, it ended FAILED internal_error, and so it goes on replaying (the
     * branch's default version). Without the version the replay takes the new path with no command of its own, so only
     * the replay's result shows it: a query answered by a replay (status(), a cancelled run's result()) would say
     * STOPPED_BUDGET of a run that ended FAILED.
     */
    @Test
    void anActivityNoWorkerTookUpByTheDeadlineRecordedBeforeItEndedForTheBudgetStillReplays() throws Exception {
        WorkflowExecutionHistory history = recorded(UNSERVED_AFTER_DEADLINE_BEFORE);
        assertThat(versionMarkers(history)).as("recorded before the branch").doesNotContain("unserved-after-deadline-stopped");
        assertThat(scheduled(history, "ReinBegin")).isOne();
        assertThat(history.getEvents().stream().filter(HistoryEvent::hasActivityTaskScheduledEventAttributes).count())
                .as("ReinBegin only: the end not traced").isOne();
        assertThat(history.getLastEvent().hasWorkflowExecutionCompletedEventAttributes()).isTrue();

        RunResult replayed = replayedResult(history);

        assertThat(replayed.status()).isEqualTo(RunStatus.FAILED);
        assertThat(replayed.reason()).isEqualTo("internal_error");
        assertThat(replayed.message()).contains("ReinBegin").doesNotContain("or all were busy");
    }

    /**
     * The same run recorded before c5cd5c27, which traces such an end: the workflow ended it with a result of its own,
     * no ReinEnd scheduled, and so it goes on replaying (the branch's default version).
     */
    @Test
    void aModelCallNoWorkerTookUpRecordedBeforeItsEndWasTracedStillReplays() throws Exception {
        replays("unserved-call-never-taken-before-c5cd5c27.json", history -> {
            assertThat(versionMarkers(history)).as("recorded before the branch").doesNotContain("unserved-call-end-traced")
                    .contains("call-start-timeout");
            assertThat(scheduled(history, "ReinCallModel")).isOne();
            assertThat(scheduled(history, "ReinEnd")).as("the end not traced").isZero();
            assertThat(history.getLastEvent().hasWorkflowExecutionCompletedEventAttributes()).isTrue();
        });
    }

    /**
     * 6cee147d took up the count of refused answers an activity returns; a run recorded before it (a finish call its
     * schema refused, then an answer a verifier refused, and the model asked again) goes on as it did: its activities
     * returned no count, read as 0, and the workflow does not take it up without the branch's marker.
     */
    @Test
    void aFinishCallItsSchemaRefusedRecordedBeforeItsCountWasTakenUpStillReplays() throws Exception {
        replays("finish-refused-before-6cee147d.json", history -> {
            assertThat(versionMarkers(history)).as("recorded before the branch").doesNotContain("finish-refusal-count");
            assertThat(scheduled(history, "ReinVerify")).as("the run went on after the verifier's refusal").isEqualTo(2);
            assertThat(scheduled(history, "ReinCallModel")).as("the model asked again").isEqualTo(3);
        });
    }

    /**
     * As above, with the activities of 6cee147d (which return the refusal's count, 1) and the workflow tasks of its
     * parent (which left it), as when workers are replaced while a run goes on: it replays, going on as recorded.
     */
    @Test
    void aFinishCallItsSchemaRefusedCountedByANewActivityAndLeftByAnOldWorkflowStillReplays() throws Exception {
        replays("finish-refused-mixed-before-6cee147d.json", history -> {
            assertThat(versionMarkers(history)).as("recorded before the branch").doesNotContain("finish-refusal-count");
            assertThat(history.getEvents().stream().filter(HistoryEvent::hasActivityTaskCompletedEventAttributes)
                    .flatMap(e -> e.getActivityTaskCompletedEventAttributes().getResult().getPayloadsList().stream())
                    .map(p -> p.getData().toStringUtf8()))
                    .as("an activity returned the refusal's count").anyMatch(r -> r.contains("\"verification_failures\":1"));
            assertThat(scheduled(history, "ReinVerify")).as("the run went on after the verifier's refusal").isEqualTo(2);
            assertThat(scheduled(history, "ReinCallModel")).as("the model asked again").isEqualTo(3);
        });
    }

    /**
     * c46ffe2b, which has no version of its own, keeps a decision signalled while the activity that traces the pause ran,
     * where that activity's result had dropped it and the run waited for it again. A run recorded before it (the first
     * approval lost, the action approved again) still replays: the workflow now schedules ReinResumed in the workflow
     * task after ReinPaused, where the history records it after the second approval, and Temporal's Java SDK matches a
     * command with the next command event of the history, not with its workflow task (the second approval is then
     * refused as already decided, shown by refusedDecisions).
     */
    @Test
    void anApprovalDuringThePausesTraceRecordedBeforeItWasKeptStillReplays() throws Exception {
        replays("approval-during-pause-before-c46ffe2b.json", history -> {
            assertThat(history.getEvents().stream().filter(HistoryEvent::hasWorkflowExecutionSignaledEventAttributes)
                    .count())
                    .as("the approval sent while ReinPaused ran, lost, and sent again").isEqualTo(2);
            assertThat(scheduled(history, "ReinResumed")).isOne();
            assertThat(history.getLastEvent().hasWorkflowExecutionCompletedEventAttributes()).isTrue();
        });
    }

    /**
     * As above, the lost approval followed by a cancel instead of a second decision: it does not replay. The ReinResumed
     * the workflow now schedules after ReinPaused is never recorded; the cancel drops it unsent, but it took the next
     * activity id, so the ReinEnd of the cancel has another id than the one recorded.
     */
    @Test
    void anApprovalDuringThePausesTraceThenACancelRecordedBeforeItWasKeptDoesNotReplay() throws Exception {
        doesNotReplay("approval-during-pause-cancelled-before-c46ffe2b.json", history -> {
            assertThat(requestedCancels(history)).isOne();
            assertThat(scheduled(history, "ReinResumed")).isZero();
        }).hasStackTraceContaining("NonDeterministicException")
                .hasStackTraceContaining("activityId");
    }

    /**
     * ad120176, which has no version of its own, refuses an edit signal whose arguments are not a JSON object (sent
     * around the handle), which the workflow took before and ran the call with. A run recorded before it that took one
     * (here the arguments "A-9", a string) does not replay: the signal is now refused and the workflow keeps waiting
     * where the history records ReinResumed.
     */
    @Test
    void anEditWithoutAnObjectOfArgumentsTakenBeforeItWasRefusedDoesNotReplay() throws Exception {
        doesNotReplay("edit-not-object-before-ad120176.json", history -> {
            assertThat(scheduled(history, "ReinResumed")).as("the edit was taken: the pause ended").isOne();
            assertThat(history.getLastEvent().hasWorkflowExecutionCompletedEventAttributes()).isTrue();
        }).hasStackTraceContaining("NonDeterministicException");
    }

    /**
     * 54cec27d, which has no version of its own, ends a run whose activity failed for good with a RunResult (ReinEnd
     * traces it) where the workflow failed without one. A run recorded before it (here a verifier that threw) does not
     * replay: the workflow now schedules ReinEnd where the history records the workflow's failure. Its handle still
     * answers, without a replay: status() FAILED, result() the ReinException of a workflow ended without a RunResult.
     */
    @Test
    void anActivityFailedForGoodRecordedBeforeTheRunEndedWithAResultDoesNotReplay() throws Exception {
        doesNotReplay("verifier-failed-before-54cec27d.json", history -> {
            assertThat(history.getLastEvent().hasWorkflowExecutionFailedEventAttributes()).as("the workflow failed")
                    .isTrue();
            assertThat(scheduled(history, "ReinVerify")).isOne();
            assertThat(scheduled(history, "ReinEnd")).isZero();
        }).hasStackTraceContaining("NonDeterministicException")
                .hasStackTraceContaining("COMMAND_TYPE_SCHEDULE_ACTIVITY_TASK");
    }

    /**
     * 4532c788, which has no version of its own, has the budget stop's summary call and the critic's review hand a
     * retryable failure back to Temporal, which retries the activity, where they retried within its one attempt. Only
     * the activities' retry options changed, which a replay does not check: runs recorded before it (here each call
     * overloaded once and retried within the activity) replay, to the same result.
     */
    @Test
    void aSummaryAndAReviewRetriedWithinTheirActivityBeforeTheyWereActivityAttemptsReplay() throws Exception {
        WorkflowExecutionHistory summary = recorded("summary-retry-in-activity-before-4532c788.json");
        assertThat(scheduled(summary, "ReinStopForBudget")).isOne();
        assertThat(replayedResult(summary).status()).isEqualTo(RunStatus.STOPPED_BUDGET);
        WorkflowExecutionHistory review = recorded("critic-retry-in-activity-before-4532c788.json");
        assertThat(scheduled(review, "ReinVerify")).isOne();
        assertThat(replayedResult(review).status()).isEqualTo(RunStatus.SUCCEEDED);
    }

    /** Records the current code's histories that the folder the property names lacks (see the class doc). */
    @Test
    void recordWhenAsked() throws Exception {
        String folder = System.getProperty("rein.recordHistories");
        if (folder == null || folder.isBlank()) {
            return;
        }
        Path into = Path.of(folder);
        Files.createDirectories(into);
        // a file kept in the folder is left as it is: a history recorded with older code must not be recorded over
        record(into, () -> List.of(readsCancelled()), READS_CANCELLED);
        record(into, RecordedBranchHistoriesTest::pauseContinued, PAUSE_CONTINUED, PAUSE_CONTINUED_NEXT);
        record(into, RecordedBranchHistoriesTest::continuedBetweenSteps, CONTINUED, CONTINUED_NEXT);
        record(into, () -> List.of(deadlineInCall()), DEADLINE_IN_CALL);
        record(into, () -> List.of(cancelAtEnd()), END_NOT_CANCELLED);
        record(into, () -> List.of(decisionWithContinuedStart()), DECISION_WITH_START);
        record(into, () -> List.of(cancelDuringResume()), RESUME_NOT_CANCELLED);
        record(into, () -> List.of(finishRefusalCounted()), FINISH_REFUSAL_COUNT);
        record(into, () -> List.of(noDeadlineCall()), NO_DEADLINE_CALL);
        record(into, () -> List.of(longDeadlineCall()), LONG_DEADLINE_CALL);
        record(into, () -> List.of(unservedCall(Back.WORKER)), UNSERVED_CALL_END);
        record(into, () -> List.of(unservedCall(Back.NONE)), UNSERVED_CALL_END_UNTAKEN);
        record(into, () -> List.of(unservedCall(Back.CANCEL)), UNSERVED_CALL_END_CANCELLED);
        record(into, () -> List.of(unservedAfterDeadline()), UNSERVED_AFTER_DEADLINE);
    }

    /** A scenario that records histories: one per execution of its run, in order. */
    private interface Scenario {
        List<WorkflowExecutionHistory> run() throws Exception;
    }

    /** Runs {@code scenario} and writes its histories under {@code names} (in order), unless one of them is there. */
    private static void record(Path into, Scenario scenario, String... names) throws Exception {
        if (!absent(into, names)) {
            return;
        }
        List<WorkflowExecutionHistory> histories = scenario.run();
        assertThat(histories).as("the histories of %s", List.of(names)).hasSize(names.length);
        for (int i = 0; i < names.length; i++) {
            Files.writeString(into.resolve(names[i]), histories.get(i).toJson(true));
        }
    }

    /** True when none of the files is in the folder yet. */
    private static boolean absent(Path folder, String... names) {
        return java.util.Arrays.stream(names).noneMatch(name -> Files.exists(folder.resolve(name)));
    }

    /** As TemporalParallelReadsTest's: one read breaks the interceptor chain's contract while a slow one runs. */
    private static WorkflowExecutionHistory readsCancelled() {
        Tool slow = Tool.builder("slow_lookup").description("Looks up very slowly")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}}}")
                .risk(Risk.READ).timeout(Duration.ofMinutes(5)).handler((args, ctx) -> {
                    Thread.sleep(90_000);
                    return "注文は配達済み";
                }).build();
        ToolInterceptor broken = (invocation, chain) ->
                invocation.call().name().equals("lookup_order") ? null : chain.proceed(invocation);
        ScriptedModel model = ScriptedModel.of(
                ScriptedModel.toolCalls(ScriptedModel.call("slow_lookup", "{\"id\":\"A-2\"}"),
                        ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}")),
                ScriptedModel.text("never asked"));
        Agent agent = Orders.agent(model, new RecordingListener(), Orders.lookup(), slow).toolInterceptor(broken).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).withAttemptTimeout(Duration.ofSeconds(1))
                    .start("A-1 と A-2 は?", "run-reads-cancelled").result();
            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            return server.client().fetchHistory("run-reads-cancelled");
        }
    }

    /** As TemporalContinueAsNewTest's: refused signals make a pause's history long; it continues as new, then is approved. */
    private static List<WorkflowExecutionHistory> pauseContinued() throws InterruptedException {
        Orders.Ledger ledger = new Orders.Ledger();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(), Orders.lookup(),
                Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).withHistoryLimit(80).start("A-1 を返金して", "run-pause-continued");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            AgentWorkflow stub = server.client().newWorkflowStub(AgentWorkflow.class, "run-pause-continued");
            for (int i = 0; i < 60; i++) {
                stub.decide(ApprovalSignal.approve(String.format("%064x", i), "mallory"));
            }
            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (server.client().fetchHistory("run-pause-continued").getEvents().get(0)
                    .getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId().isEmpty()
                    && System.nanoTime() < until) {
                Thread.sleep(100);
            }
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            run.approve(run.pendingApprovals().get(0).actionHash(), "alice");
            assertThat(run.result().status()).isEqualTo(RunStatus.SUCCEEDED);
            var info = server.client().newUntypedWorkflowStub("run-pause-continued").describe().getRawDescription()
                    .getWorkflowExecutionInfo();
            return List.of(server.client().fetchHistory("run-pause-continued", info.getFirstRunId()),
                    server.client().fetchHistory("run-pause-continued", info.getExecution().getRunId()));
        }
    }

    /**
     * As TemporalContinueAsNewTest's: a pause continues as new; its continued input is started again under another id
     * with the approval (signalWithStart), as Temporal delivers a decision sent just as the pause continued.
     */
    private static WorkflowExecutionHistory decisionWithContinuedStart() throws InterruptedException {
        Orders.Ledger ledger = new Orders.Ledger();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(), Orders.lookup(),
                Orders.refund(ledger, key -> {})));
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgentClient agents = server.start(agent).withHistoryLimit(80);
            TemporalRun run = agents.start("A-1 を返金して", "run-decision-with-start");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            AgentWorkflow stub = server.client().newWorkflowStub(AgentWorkflow.class, "run-decision-with-start");
            for (int i = 0; i < 60; i++) {
                stub.decide(ApprovalSignal.approve(String.format("%064x", i), "mallory"));
            }
            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (server.client().fetchHistory("run-decision-with-start").getEvents().get(0)
                    .getWorkflowExecutionStartedEventAttributes().getContinuedExecutionRunId().isEmpty()
                    && System.nanoTime() < until) {
                Thread.sleep(100);
            }
            String hash = run.pendingApprovals().get(0).actionHash();
            var carried = server.client().fetchHistory("run-decision-with-start").getEvents().get(0)
                    .getWorkflowExecutionStartedEventAttributes().getInput();
            dev.rein.temporal.internal.RunInput input = TemporalAgents.dataConverter().fromPayloads(0,
                    java.util.Optional.of(carried), dev.rein.temporal.internal.RunInput.class,
                    dev.rein.temporal.internal.RunInput.class);
            server.client().newUntypedWorkflowStub("ReinAgentRun", io.temporal.client.WorkflowOptions.newBuilder()
                            .setTaskQueue(TemporalTestServer.QUEUE).setWorkflowId("run-decision-with-start-2").build())
                    .signalWithStart("decide", new Object[] {ApprovalSignal.approve(hash, "alice")}, new Object[] {input});
            TemporalRun second = agents.attach("run-decision-with-start-2");
            assertThat(TemporalTestServer.resultPolled(second, Duration.ofSeconds(30)).status()).isEqualTo(RunStatus.SUCCEEDED);
            return server.client().fetchHistory("run-decision-with-start-2");
        }
    }

    /** As TemporalContinueAsNewTest's: lookups make the history pass a low limit; the run continues as new, then answers. */
    private static List<WorkflowExecutionHistory> continuedBetweenSteps() {
        List<ScriptedModel.Turn> turns = new java.util.ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            turns.add(ScriptedModel.toolCalls(ScriptedModel.call("lookup_order", "{\"id\":\"A-" + i + "\"}")));
        }
        turns.add(ScriptedModel.text("すべて配達済みです。"));
        Agent agent = Orders.agent(ScriptedModel.of(turns.toArray(ScriptedModel.Turn[]::new)), new RecordingListener(),
                Orders.lookup()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).withHistoryLimit(30).start("A-1 から A-6 は?", "run-continued").result();
            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            var info = server.client().newUntypedWorkflowStub("run-continued").describe().getRawDescription()
                    .getWorkflowExecutionInfo();
            return List.of(server.client().fetchHistory("run-continued", info.getFirstRunId()),
                    server.client().fetchHistory("run-continued", info.getExecution().getRunId()));
        }
    }

    /** As TemporalBudgetTest's: the model holds its second answer past the run's 20-second deadline. */
    private static WorkflowExecutionHistory deadlineInCall() throws InterruptedException {
        ScriptedModel scripted = ScriptedModel.of(ScriptedModel.toolCalls(ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}")),
                ScriptedModel.text("never answered in time"));
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        dev.rein.model.Model slow = new dev.rein.model.Model() {
            @Override
            public dev.rein.model.ModelResponse call(dev.rein.model.ModelRequest request, dev.rein.model.ModelCallContext context)
                    throws dev.rein.model.ModelException, InterruptedException {
                if (calls.incrementAndGet() > 1) {
                    Thread.sleep(Duration.ofSeconds(90));
                }
                return scripted.call(request, context);
            }
        };
        Agent agent = Agent.builder().model(slow).modelName("scripted-model").prices(ScriptedModel.PRICES).tools(Orders.lookup())
                .listener(new RecordingListener())
                // long enough that the first step ends within it on a loaded machine
                .budget(dev.rein.budget.Budget.builder().maxSteps(8).maxDuration(Duration.ofSeconds(20)).build()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1 はどこ?", "run-deadline-in-call");
            // polled: waiting on the result would let the test server skip time past the call's deadline at once
            long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (run.status() == RunStatus.RUNNING && System.nanoTime() < until) {
                Thread.sleep(100);
            }
            assertThat(run.result().status()).isEqualTo(RunStatus.STOPPED_BUDGET);
            assertThat(calls).as("the deadline passed during the second model call").hasValue(2);
            return server.client().fetchHistory("run-deadline-in-call");
        }
    }

    /** As TemporalDecisionRaceTest's: the run is cancelled while its end (ReinEnd) is being traced. */
    private static WorkflowExecutionHistory cancelAtEnd() throws InterruptedException {
        java.util.concurrent.CountDownLatch ending = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        dev.rein.trace.RunListener holdsTheEnd = new dev.rein.trace.RunListener() {
            @Override
            public void onEvent(dev.rein.trace.TraceEvent event) {
                if (event instanceof dev.rein.trace.TraceEvent.RunFinished && ending.getCount() > 0) {
                    ending.countDown();
                    try {
                        release.await(60, java.util.concurrent.TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        };
        Agent agent = Orders.agent(Orders.lookupThenAnswer(), new RecordingListener(), Orders.lookup())
                .listener(runId -> holdsTheEnd).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalRun run = server.start(agent).start("A-1?", "run-cancel-at-end");
            assertThat(ending.await(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            run.cancel();
            Thread.sleep(1_000); // the cancel reaches the workflow while ReinEnd still runs
            release.countDown();
            assertThat(TemporalTestServer.resultPolled(run, Duration.ofSeconds(60)).status()).isEqualTo(RunStatus.SUCCEEDED);
            return server.client().fetchHistory("run-cancel-at-end");
        } finally {
            release.countDown();
        }
    }

    /**
     * As TemporalApprovalTest's: the run is cancelled while ReinResumed traces the approval (held at approval_decided
     * until the cancel has reached Temporal). Without time skipping, as there: the held activity must not time out.
     */
    private static WorkflowExecutionHistory cancelDuringResume() throws Exception {
        java.util.concurrent.CountDownLatch inResume = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch cancelSent = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean first = new java.util.concurrent.atomic.AtomicBoolean(true);
        dev.rein.trace.RunListener holding = new dev.rein.trace.RunListener() {
            @Override
            public void onEvent(dev.rein.trace.TraceEvent event) {
                if (event instanceof dev.rein.trace.TraceEvent.ApprovalDecided && first.getAndSet(false)) {
                    inResume.countDown();
                    long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                    while (System.nanoTime() < until) {
                        try {
                            if (cancelSent.await(100, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                                return;
                            }
                        } catch (InterruptedException e) {
                            // held as a slow listener would be
                        }
                    }
                }
            }
        };
        Orders.Ledger ledger = new Orders.Ledger();
        Agent agent = Orders.withApproval(Orders.agent(Orders.refundThenAnswer(), new RecordingListener(),
                Orders.refund(ledger, key -> {}))).withListener(runId -> holding);
        try (TemporalTestServer server = new TemporalTestServer(false)) {
            TemporalRun run = server.start(agent).start("A-1 を返金して", "run-cancel-during-resume");
            TemporalApprovalTest.awaitStatus(run, RunStatus.WAITING_APPROVAL);
            run.approve(run.pendingApprovals().get(0).actionHash(), "alice");
            assertThat(inResume.await(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            run.cancel();
            cancelSent.countDown();
            assertThat(run.result(Duration.ofSeconds(120)).status()).isEqualTo(RunStatus.CANCELLED);
            return server.client().fetchHistory("run-cancel-during-resume");
        } finally {
            cancelSent.countDown();
        }
    }

    /**
     * As TemporalFinishToolTest's schemaThenVerifier: a finish call its schema refuses, then a report a verifier refuses,
     * the two refusals using up maxVerificationFailures (2): the run ends FAILED.
     */
    private static WorkflowExecutionHistory finishRefusalCounted() {
        String good = "{\"status\":\"completed\",\"summary\":\"A-1 を調べた\",\"result\":\"A-1 は配達済みです。\"}";
        ScriptedModel model = ScriptedModel.of(
                ScriptedModel.toolCalls(ScriptedModel.call("finish", "{\"status\":\"completed\"}")),
                ScriptedModel.toolCalls(ScriptedModel.call("finish", good)),
                ScriptedModel.toolCalls(ScriptedModel.call("finish", good)));
        java.util.concurrent.atomic.AtomicInteger checks = new java.util.concurrent.atomic.AtomicInteger();
        Agent agent = Orders.agent(model, new RecordingListener(), Orders.lookup()).finishTool(true)
                .verifier(answer -> checks.incrementAndGet() == 1 ? dev.rein.run.Verdict.fail("配達日を書くこと")
                        : dev.rein.run.Verdict.pass()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("A-1 の状況は?", "run-finish-refusal-count").result();
            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            return server.client().fetchHistory("run-finish-refusal-count");
        }
    }

    /** As TemporalRunTest's: a run without a time limit whose model call is retried after two delays of 200 days. */
    private static WorkflowExecutionHistory noDeadlineCall() {
        dev.rein.model.ModelException slowDown = new dev.rein.model.ModelException(
                dev.rein.model.ModelException.Kind.RATE_LIMITED, 429, "slow down");
        ScriptedModel model = ScriptedModel.of(ScriptedModel.fail(slowDown), ScriptedModel.fail(slowDown),
                ScriptedModel.text("A-1 は配達済みです。"));
        Agent agent = Orders.agent(model, new RecordingListener(), Orders.lookup())
                .retryPolicy(new dev.rein.retry.RetryPolicy(2, Duration.ofDays(200), Duration.ofDays(200), 0))
                .budget(dev.rein.budget.Budget.builder().maxDuration(null).build()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("A-1?", "run-no-deadline-call").result();
            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            return server.client().fetchHistory("run-no-deadline-call");
        }
    }

    /** As TemporalRunTest's: a run with a time limit of 1000 days whose model call is retried after two delays of 200 days. */
    private static WorkflowExecutionHistory longDeadlineCall() {
        dev.rein.model.ModelException slowDown = new dev.rein.model.ModelException(
                dev.rein.model.ModelException.Kind.RATE_LIMITED, 429, "slow down");
        ScriptedModel model = ScriptedModel.of(ScriptedModel.fail(slowDown), ScriptedModel.fail(slowDown),
                ScriptedModel.text("A-1 は配達済みです。"));
        Agent agent = Orders.agent(model, new RecordingListener(), Orders.lookup())
                .retryPolicy(new dev.rein.retry.RetryPolicy(2, Duration.ofDays(200), Duration.ofDays(200), 0))
                .budget(dev.rein.budget.Budget.builder().maxDuration(Duration.ofDays(1000)).build()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            RunResult result = server.start(agent).start("A-1?", "run-long-deadline-call").result();
            assertThat(result.status()).isEqualTo(RunStatus.SUCCEEDED);
            return server.client().fetchHistory("run-long-deadline-call");
        }
    }

    /** What comes while ReinEnd waits for a worker after a model call no worker took up. */
    private enum Back { WORKER, NONE, CANCEL }

    /**
     * As TemporalMisconfigurationTest's: the workers of the agent's activities stop as the run begins and its model call
     * waits its start timeout (2 s) for one in vain; then, as {@code back} says, a worker is back in time to trace the
     * end (WORKER), none comes and ReinEnd's own wait runs out (NONE), or the run is cancelled while ReinEnd waits
     * (CANCEL).
     */
    private static WorkflowExecutionHistory unservedCall(Back back) throws Exception {
        String runId = "run-call-never-taken"
                + (back == Back.WORKER ? "" : "-" + back.name().toLowerCase(java.util.Locale.ROOT));
        io.temporal.worker.WorkerFactory worker = null;
        java.util.concurrent.atomic.AtomicReference<io.temporal.worker.WorkerFactory> activities =
                new java.util.concurrent.atomic.AtomicReference<>();
        dev.rein.trace.RunListener stopWorkers = new dev.rein.trace.RunListener() {
            @Override
            public void onEvent(dev.rein.trace.TraceEvent event) {
                if (event instanceof dev.rein.trace.TraceEvent.RunStarted) {
                    activities.get().shutdown();
                }
            }
        };
        Agent agent = Agent.builder().model(Orders.lookupThenAnswer()).tools(Orders.lookup())
                .listener(new RecordingListener()).listener(id -> stopWorkers)
                .budget(dev.rein.budget.Budget.builder().maxDuration(null).build()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgents.workflows(server.env.newWorker(TemporalTestServer.QUEUE));
            activities.set(io.temporal.worker.WorkerFactory.newInstance(server.client()));
            TemporalAgents.activities(activities.get().newWorker(TemporalTestServer.QUEUE, io.temporal.worker.WorkerOptions
                    .newBuilder().setMaxConcurrentActivityExecutionSize(1).setAllowActivityHeartbeatDuringShutdown(true)
                    .build()), agent);
            server.env.start();
            activities.get().start();
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent)
                    .withModelCallStartTimeout(Duration.ofSeconds(2)).start("A-1 はどこ?", runId);
            long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            WorkflowExecutionHistory history = server.client().fetchHistory(runId);
            while (history.getEvents().stream().filter(HistoryEvent::hasActivityTaskScheduledEventAttributes)
                    .noneMatch(e -> e.getActivityTaskScheduledEventAttributes().getActivityType().getName()
                            .equals("ReinEnd"))
                    && !history.getLastEvent().hasWorkflowExecutionCompletedEventAttributes() && System.nanoTime() < until) {
                Thread.sleep(50);
                history = server.client().fetchHistory(runId);
            }
            if (back == Back.WORKER) {
                worker = io.temporal.worker.WorkerFactory.newInstance(server.client());
                TemporalAgents.activities(worker.newWorker(TemporalTestServer.QUEUE), agent);
                worker.start();
            } else if (back == Back.CANCEL) {
                run.cancel();
            }
            RunResult result = run.result(Duration.ofSeconds(30));
            assertThat(result.status()).isEqualTo(RunStatus.FAILED);
            assertThat(result.message()).contains("no worker took it up within 2 s");
            return server.client().fetchHistory(runId);
        } finally {
            if (activities.get() != null) {
                activities.get().shutdownNow();
            }
            if (worker != null) {
                worker.shutdownNow();
            }
        }
    }

    /**
     * As TemporalMisconfigurationTest's: a run with a time limit of 2 s on a queue none of whose workers has the agent's
     * activities, so that its ReinBegin waits for one until the deadline and the grace (10 s) in vain. (Workers that
     * stop after ReinBegin would leave the path to the load: a ReinBegin slower than the limit leads to a budget stop.)
     */
    private static WorkflowExecutionHistory unservedAfterDeadline() throws Exception {
        Agent agent = Agent.builder().model(Orders.lookupThenAnswer()).tools(Orders.lookup()).listener(new RecordingListener())
                .budget(dev.rein.budget.Budget.builder().maxDuration(Duration.ofSeconds(2)).build()).build();
        try (TemporalTestServer server = new TemporalTestServer()) {
            TemporalAgents.workflows(server.env.newWorker(TemporalTestServer.QUEUE));
            server.env.start();
            TemporalRun run = TemporalAgents.client(server.client(), TemporalTestServer.QUEUE, agent)
                    .start("A-1 はどこ?", "run-unserved-after-deadline");
            assertThat(run.result(Duration.ofSeconds(60)).status()).isEqualTo(RunStatus.STOPPED_BUDGET);
            return server.client().fetchHistory("run-unserved-after-deadline");
        }
    }

    /**
     * Replays {@code history} ({@link DeterminismTest#replay}, with an interceptor) and returns what the workflow
     * returned in the replay, its result (Temporal compares the replay's commands with the history's, not that value).
     */
    private static RunResult replayedResult(WorkflowExecutionHistory history) throws Exception {
        java.util.concurrent.atomic.AtomicReference<Object> returned = new java.util.concurrent.atomic.AtomicReference<>();
        io.temporal.common.interceptors.WorkerInterceptor capture = new io.temporal.common.interceptors.WorkerInterceptorBase() {
            @Override
            public io.temporal.common.interceptors.WorkflowInboundCallsInterceptor interceptWorkflow(
                    io.temporal.common.interceptors.WorkflowInboundCallsInterceptor next) {
                return new io.temporal.common.interceptors.WorkflowInboundCallsInterceptorBase(next) {
                    @Override
                    public WorkflowOutput execute(WorkflowInput input) {
                        WorkflowOutput output = super.execute(input);
                        returned.set(output.getResult());
                        return output;
                    }
                };
            }
        };
        DeterminismTest.replay(history, capture);
        assertThat(returned.get()).as("the workflow's return in the replay").isInstanceOf(RunResult.class);
        return (RunResult) returned.get();
    }

    /** Reads the kept history {@code name}, checks that it has the shape its test is about, and replays it. */
    private static void replays(String name, Consumer<WorkflowExecutionHistory> shape) throws Exception {
        WorkflowExecutionHistory history = recorded(name);
        shape.accept(history);
        DeterminismTest.replay(history);
    }

    /** As {@link #replays}, for a history the current code does not replay: the replay's failure, to be checked. */
    private static AbstractThrowableAssert<?, ? extends Throwable> doesNotReplay(String name,
            Consumer<WorkflowExecutionHistory> shape) throws Exception {
        WorkflowExecutionHistory history = recorded(name);
        shape.accept(history);
        return assertThatThrownBy(() -> DeterminismTest.replay(history));
    }

    /** Asserts that the history asked the change id's version (it went through that branch). */
    private static void goesThrough(WorkflowExecutionHistory history, String changeId) {
        assertThat(versionMarkers(history)).as("the history goes through the %s branch", changeId).contains(changeId);
    }

    private static WorkflowExecutionHistory recorded(String name) throws IOException {
        try (var in = RecordedBranchHistoriesTest.class.getResourceAsStream("/histories/" + name)) {
            assertThat(in).as("the recorded history resource %s", name).isNotNull();
            return WorkflowExecutionHistory.fromJson(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /** How many activities of the type the history schedules. */
    private static long scheduled(WorkflowExecutionHistory history, String activityType) {
        return history.getEvents().stream().filter(HistoryEvent::hasActivityTaskScheduledEventAttributes)
                .filter(e -> e.getActivityTaskScheduledEventAttributes().getActivityType().getName().equals(activityType))
                .count();
    }

    /** How many cancels of the workflow the history records. */
    private static long requestedCancels(WorkflowExecutionHistory history) {
        return history.getEvents().stream().filter(HistoryEvent::hasWorkflowExecutionCancelRequestedEventAttributes).count();
    }

    /** The change ids of the history's version markers. */
    private static List<String> versionMarkers(WorkflowExecutionHistory history) {
        return history.getEvents().stream().filter(HistoryEvent::hasMarkerRecordedEventAttributes)
                .map(e -> e.getMarkerRecordedEventAttributes())
                .filter(m -> m.getMarkerName().equals("Version") && m.containsDetails("changeId"))
                .map(m -> m.getDetailsOrThrow("changeId").getPayloads(0).getData().toStringUtf8().replace("\"", ""))
                .toList();
    }
}
