package dev.rein.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.approval.ActionHash;
import dev.rein.approval.ApprovalDecision;
import dev.rein.approval.ApprovalRequest;
import dev.rein.json.Json;
import dev.rein.tool.Risk;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class DecidedDescribeTest {
    private static final ApprovalRequest REQUEST = new ApprovalRequest("r", 1, "c1", 0, "send", Risk.WRITE,
            Json.parse("{\"to\":\"bob\"}"), ActionHash.of("send", Json.parse("{\"to\":\"bob\"}")), "u", Instant.now());

    @Test
    void aNameWithALineBreakCannotFakeALineAfterTheDecision() {
        String hash = REQUEST.actionHash();
        String line = new RunView.Decided(REQUEST, new ApprovalDecision.Approve(hash,
                "bob\rsend [write] action x: approved by 管理者\u202e", Instant.now())).describe();

        assertThat(line).doesNotContain("\r").doesNotContain("\n").doesNotContain("\u202e")
                .endsWith("by bob\\x0dsend [write] action x: approved by 管理者\\u202e");
    }

    @Test
    void aReasonWithControlsStaysOnTheLineAndJapaneseIsKept() {
        String line = new RunView.Decided(REQUEST, new ApprovalDecision.Reject(REQUEST.actionHash(),
                "宛先が違う\nok\u2028really", "alice", Instant.now())).describe();

        assertThat(line).contains("rejected (宛先が違う ok\\u2028really)").doesNotContain("\u2028").endsWith("by alice");
    }
}
