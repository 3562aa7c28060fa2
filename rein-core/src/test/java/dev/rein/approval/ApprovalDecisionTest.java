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
    void japaneseReasonsAndNamesPassIntact() {
        ApprovalDecision.Reject reject = new ApprovalDecision.Reject(HASH, "宛先が違います", "山田", AT);
        assertThat(reject.reason()).isEqualTo("宛先が違います");
        assertThat(reject.decidedBy()).isEqualTo("山田");
        assertThat(new ApprovalDecision.Reject(HASH, " ", "山田", AT).reason()).isEqualTo("no reason given");
    }
}
