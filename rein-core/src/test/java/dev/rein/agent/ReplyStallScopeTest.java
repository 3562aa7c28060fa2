package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.approval.ApprovalPolicy;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.ModelRequest;
import dev.rein.model.ToolResultBlock;
import dev.rein.run.RunStatus;
import dev.rein.stall.ExactRepeat;
import dev.rein.state.InMemoryRunStore;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolOutput;
import dev.rein.trace.TraceEvent;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The stall guard of a reply turn counts only that turn's calls: asking the same thing again after
 * the person's follow-up is not a repeat, while repeats within the turn are still caught (the default
 * exact-repeat threshold is 3).
 */
class ReplyStallScopeTest {
    private static final String X = "{\"id\":\"A-104\"}";

    private final RecordingListener trace = new RecordingListener();
    private final InMemoryRunStore store = new InMemoryRunStore();
    private final AtomicInteger lookups = new AtomicInteger();

    private Tool lookup() {
        return Tool.builder("lookup_order").description("Looks an order up.")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .handler((args, ctx) -> ToolOutput.text("order A-104 ships on 2026-12-0" + lookups.incrementAndGet())
                        .withSource("orders-db:A-104"))
                .build();
    }

    /** A READ tool that waits for a person, so a reply turn can pause and be resumed mid-way. */
    private static Tool confirm() {
        return Tool.builder("confirm").description("Asks the clerk to confirm.").risk(Risk.READ)
                .inputSchema("{\"type\":\"object\"}")
                .handler((args, ctx) -> ToolOutput.text("confirmed"))
                .build();
    }

    private Agent agent(ScriptedModel model) {
        return Agent.builder().model(model).tools(lookup(), confirm()).listener(trace).store(store)
                .approvalPolicy(ApprovalPolicy.tools("confirm")).build();
    }

    private static List<ToolResultBlock> results(ModelRequest request) {
        List<Message> messages = request.messages();
        List<ContentBlock> last = messages.get(messages.size() - 1).content();
        return last.stream().filter(ToolResultBlock.class::isInstance).map(ToolResultBlock.class::cast).toList();
    }

    @Test
    void aCallFromAnEarlierTurnIsNotARepeatInTheReplyTurnButRepeatsWithinItAre() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("lookup_order", X)), toolCalls(call("lookup_order", X)), text("It ships on 2026-12-02."),
                // turn 2: the same question again after the follow-up, three times
                toolCalls(call("lookup_order", X)), toolCalls(call("lookup_order", X)), toolCalls(call("lookup_order", X)),
                text("Still 2026-12-04."));
        Agent agent = agent(model);
        RunResult first = agent.run("When does A-104 ship?");
        assertThat(first.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(trace.events(TraceEvent.StallDetected.class)).isEmpty();

        RunResult second = agent.reply(first.runId(), "Could you check again? It may have changed.");
        assertThat(second.status()).isEqualTo(RunStatus.SUCCEEDED);
        // turn 2's first two calls ran (the third and fourth overall); its third was blocked
        assertThat(lookups).hasValue(4);
        assertThat(results(model.requests().get(4)).get(0).content()).contains("2026-12-03");
        assertThat(results(model.requests().get(5)).get(0).content()).contains("2026-12-04");
        assertThat(results(model.requests().get(6)).get(0).content()).contains("exact arguments 3 times");
        assertThat(trace.events(TraceEvent.StallDetected.class)).singleElement().satisfies(s -> {
            assertThat(s.detector()).isEqualTo(ExactRepeat.NAME);
            assertThat(s.action()).isEqualTo("blocked");
            assertThat(s.evidence()).containsEntry("count", 3);
            // steps are numbered as the run counts them: turn 2 began after step 3
            assertThat(s.evidence()).containsEntry("first_step", 4);
        });
    }

    @Test
    void aReplyTurnResumedAfterAnApprovalKeepsItsOwnCountsButNotTheEarlierTurns() {
        ScriptedModel model = ScriptedModel.of(
                toolCalls(call("lookup_order", X)), toolCalls(call("lookup_order", X)), text("It ships on 2026-12-02."),
                // turn 2: one lookup, a pause for approval, then two more lookups
                toolCalls(call("lookup_order", X)), toolCalls(call("confirm", "{}")),
                toolCalls(call("lookup_order", X)), toolCalls(call("lookup_order", X)), text("Confirmed, 2026-12-04."));
        Agent agent = agent(model);
        RunResult first = agent.run("When does A-104 ship?");
        RunResult paused = agent.reply(first.runId(), "Please confirm it with the clerk.");
        assertThat(paused.status()).isEqualTo(RunStatus.WAITING_APPROVAL);
        assertThat(trace.events(TraceEvent.StallDetected.class)).isEmpty();

        agent.runs().approve(paused.runId(), paused.pendingApprovals().get(0).actionHash(), "carol");
        RunResult done = agent.resume(paused.runId());
        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        // after the resume the turn's earlier lookup still counts: the turn's third identical call is blocked
        assertThat(lookups).hasValue(4);
        assertThat(trace.events(TraceEvent.StallDetected.class)).singleElement().satisfies(s -> {
            assertThat(s.detector()).isEqualTo(ExactRepeat.NAME);
            assertThat(s.evidence()).containsEntry("count", 3);
        });
    }
}
