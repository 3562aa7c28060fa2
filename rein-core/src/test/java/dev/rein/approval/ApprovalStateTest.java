package dev.rein.approval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.json.Json;
import dev.rein.tool.Risk;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ApprovalStateTest {
    private static ApprovalRequest request(String callId, int index, String args) {
        return new ApprovalRequest("r", 1, callId, index, "send", Risk.WRITE, Json.parse(args),
                ActionHash.of("send", Json.parse(args)), "u", Instant.now());
    }

    @Test
    void theHashIgnoresKeyOrderButNotValuesOrTheTool() {
        assertThat(ActionHash.of("send", Json.parse("{\"a\":1,\"b\":{\"c\":2,\"d\":3}}")))
                .isEqualTo(ActionHash.of("send", Json.parse("{\"b\":{\"d\":3,\"c\":2},\"a\":1}")));
        assertThat(ActionHash.of("send", Json.parse("{\"a\":1}"))).isNotEqualTo(ActionHash.of("send", Json.parse("{\"a\":2}")))
                .isNotEqualTo(ActionHash.of("delete", Json.parse("{\"a\":1}")));
    }

    @Test
    void identicalActionsOfOneResponseAreDecidedTogetherOthersStayPending() {
        ApprovalRequest a = request("c1", 0, "{\"to\":\"x\"}");
        ApprovalRequest b = request("c2", 1, "{\"to\":\"x\"}");
        ApprovalRequest c = request("c3", 2, "{\"to\":\"y\"}");
        ApprovalState state = new ApprovalState(List.of(c, b, a), Map.of(), Map.of());

        ApprovalState decided = state.decide("r", a.actionHash(), r -> new ApprovalDecision.Approve(r.actionHash(), "p", Instant.now()));

        assertThat(state.requests()).extracting(ApprovalRequest::callId).containsExactly("c1", "c2", "c3");
        assertThat(decided.undecided()).containsExactly(c);
        assertThatThrownBy(() -> decided.decide("r", a.actionHash(), r -> new ApprovalDecision.Reject(r.actionHash(), "", "p", null)))
                .isInstanceOf(ApprovalException.class).hasMessageContaining("already decided");
    }

    @Test
    void decisionsRoundTripThroughJsonWithTheirKind() throws Exception {
        ApprovalDecision edit = new ApprovalDecision.Edit("h1", Json.parse("{\"to\":\"z\"}"), "h2", "p", Instant.parse("2026-01-01T00:00:00Z"));
        String json = Json.write(edit);
        assertThat(json).contains("\"decision\":\"edit\"");
        ApprovalDecision back = Json.mapper().readValue(json, ApprovalDecision.class);
        assertThat(back).isEqualTo(edit);
        assertThat(back.approvedHash()).isEqualTo("h2");
    }

    /**
     * A hash is hex: the same digest in upper case names the same action, as `rein approve --action` takes it. Before, the
     * whole hash in upper case was answered as "the start of the hash" of the action, and of a decided one as "no pending
     * action ... a changed action needs a new look".
     */
    @Test
    void aWholeHashInUpperCaseNamesTheSameAction() {
        ApprovalRequest a = request("c1", 0, "{\"to\":\"x\"}");
        ApprovalRequest b = request("c2", 1, "{\"to\":\"y\"}");
        ApprovalState state = new ApprovalState(List.of(a, b), Map.of(), Map.of());
        String upper = a.actionHash().toUpperCase(java.util.Locale.ROOT);

        ApprovalState decided = state.decide("r", upper, r -> new ApprovalDecision.Approve(r.actionHash(), "p", Instant.now()));

        assertThat(decided.undecided()).containsExactly(b);
        assertThat(decided.decisions().get("c1").approvedHash()).isEqualTo(a.actionHash());
        assertThatThrownBy(() -> decided.decide("r", upper, r -> new ApprovalDecision.Approve(r.actionHash(), "p", Instant.now())))
                .isInstanceOf(ApprovalException.class).hasMessageContaining("already decided")
                .hasMessageNotContaining("changed action");
    }

    /** A value that is no hash at all (a word, a hash with a space or a stray character) is answered as that, not as a changed action. */
    @Test
    void aValueThatIsNoHashSaysWhatAHashIs() {
        ApprovalRequest a = request("c1", 0, "{\"to\":\"x\"}");
        ApprovalState state = new ApprovalState(List.of(a), Map.of(), Map.of());
        for (String given : List.of("approve", a.actionHash() + "\n", " " + a.actionHash(), a.actionHash() + "0",
                a.actionHash().substring(0, 63) + "g")) {
            assertThatThrownBy(() -> state.decide("r", given, r -> new ApprovalDecision.Approve(r.actionHash(), "p", Instant.now())))
                    .as(given).isInstanceOf(ApprovalException.class)
                    .hasMessageContaining("is not an action hash").hasMessageContaining("64 hexadecimal digits")
                    .hasMessageContaining("send " + a.actionHash())
                    .hasMessageNotContaining("changed action");
        }
    }
}
