package dev.rein.approval;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.json.Json;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** A decision made by application code without its action or arguments is a ReinException saying what to pass. */
class ApprovalDecisionTest {
    private static final String HASH = "a".repeat(64);
    private static final Instant AT = Instant.parse("2026-12-05T08:00:00Z");

    @Test
    void aDecisionWithoutItsActionHashOrArgumentsIsRefusedSayingWhatToPass() {
        assertThatThrownBy(() -> new ApprovalDecision.Approve(null, "alice", AT)).isInstanceOf(ReinException.class)
                .hasMessageContaining("action hash").hasMessageContaining("ApprovalRequest.actionHash()");
        assertThatThrownBy(() -> new ApprovalDecision.Reject(null, "wrong recipient", "alice", AT)).isInstanceOf(ReinException.class)
                .hasMessageContaining("action hash");
        assertThatThrownBy(() -> new ApprovalDecision.Edit(null, Json.parse("{}"), HASH, "alice", AT)).isInstanceOf(ReinException.class)
                .hasMessageContaining("action hash");
        assertThatThrownBy(() -> new ApprovalDecision.Edit(HASH, null, HASH, "alice", AT)).isInstanceOf(ReinException.class)
                .hasMessageContaining("arguments").hasMessageContaining("JSON object");
        assertThatThrownBy(() -> new ApprovalDecision.Edit(HASH, Json.parse("{}"), null, "alice", AT)).isInstanceOf(ReinException.class)
                .hasMessageContaining("edited").hasMessageContaining("ActionHash.of");
    }

    @Test
    void aDecisionWithoutWhoMadeItOrWhenIsRefusedSayingWhatToPass() {
        // taken before: the run's record and its approval_decided event said the decision was made by null, at no time
        for (String nobody : new String[] {null, " "}) {
            String expected = "was given no decidedBy (" + (nobody == null ? "null" : "blank")
                    + "): pass the name of the person deciding (\"alice\"); it is recorded with the decision";
            assertThatThrownBy(() -> new ApprovalDecision.Approve(HASH, nobody, AT)).isInstanceOf(ReinException.class)
                    .hasMessage("an ApprovalDecision.Approve " + expected);
            assertThatThrownBy(() -> new ApprovalDecision.Reject(HASH, "宛先が違います", nobody, AT)).isInstanceOf(ReinException.class)
                    .hasMessage("an ApprovalDecision.Reject " + expected);
            assertThatThrownBy(() -> new ApprovalDecision.Edit(HASH, Json.parse("{}"), HASH, nobody, AT))
                    .isInstanceOf(ReinException.class).hasMessage("an ApprovalDecision.Edit " + expected);
        }
        assertThatThrownBy(() -> new ApprovalDecision.Approve(HASH, "alice", null)).isInstanceOf(ReinException.class)
                .hasMessage("an ApprovalDecision.Approve was given no decidedAt (null): pass when it was decided, e.g. clock.instant()");
        assertThatThrownBy(() -> new ApprovalDecision.Reject(HASH, "no", "alice", null)).isInstanceOf(ReinException.class)
                .hasMessageContaining("Reject was given no decidedAt");
        assertThatThrownBy(() -> new ApprovalDecision.Edit(HASH, Json.parse("{}"), HASH, "alice", null))
                .isInstanceOf(ReinException.class).hasMessageContaining("Edit was given no decidedAt");
    }

    @Test
    void aDecisionStoredWithoutANameReadsBackAsNotRecorded() throws Exception {
        // stored so by Runs before it refused a decision without a name, or by a Temporal signal without decided_by
        for (String stored : new String[] {
                "{\"decision\":\"approve\",\"action_hash\":\"" + HASH + "\",\"decided_by\":null,\"decided_at\":\"" + AT + "\"}",
                "{\"decision\":\"reject\",\"action_hash\":\"" + HASH + "\",\"reason\":\"宛先が違います\",\"decided_at\":\"" + AT + "\"}",
                "{\"decision\":\"edit\",\"action_hash\":\"" + HASH + "\",\"arguments\":{\"to\":\"山田\"},\"edited_hash\":\"" + HASH
                        + "\",\"decided_by\":\"\",\"decided_at\":\"" + AT + "\"}"}) {
            ApprovalDecision read = Json.storedMapper().readValue(stored, ApprovalDecision.class);
            assertThat(read.decidedBy()).isEqualTo(ApprovalDecision.NOT_RECORDED).isEqualTo("(not recorded)");
            assertThat(read.decidedAt()).isEqualTo(AT);
            assertThat(read.actionHash()).isEqualTo(HASH);
        }
        ApprovalDecision edit = new ApprovalDecision.Edit(HASH, Json.parse("{\"to\":\"山田\"}"), "b".repeat(64), "佐藤", AT);
        assertThat(Json.storedMapper().readValue(Json.mapper().writeValueAsString(edit), ApprovalDecision.class)).isEqualTo(edit);
        ApprovalDecision reject = new ApprovalDecision.Reject(HASH, "宛先が違います", "佐藤", AT);
        assertThat(Json.storedMapper().readValue(Json.mapper().writeValueAsString(reject), ApprovalDecision.class)).isEqualTo(reject);
    }

    @Test
    void japaneseReasonsAndNamesPassIntact() {
        ApprovalDecision.Reject reject = new ApprovalDecision.Reject(HASH, "宛先が違います", "山田", AT);
        assertThat(reject.reason()).isEqualTo("宛先が違います");
        assertThat(reject.decidedBy()).isEqualTo("山田");
        assertThat(new ApprovalDecision.Reject(HASH, " ", "山田", AT).reason()).isEqualTo("no reason given");
    }
}
