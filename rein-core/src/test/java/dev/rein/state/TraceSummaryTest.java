package dev.rein.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.run.RunStatus;
import dev.rein.json.Json;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.Usage;
import dev.rein.trace.TraceEvent;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The summary reads the events as the trace writes them (snake_case JSON). */
class TraceSummaryTest {
    private static StoredEvent stored(long seq, String type, TraceEvent event) {
        return new StoredEvent(seq, event.runId(), event.step(), type, event.time(), Json.write(event));
    }

    @Test
    void eachEventKindGetsItsDetails() {
        Instant t = Instant.parse("2026-12-01T00:00:00Z");
        ModelResponse response = new ModelResponse("m", "claude-sonnet-5", List.of(new TextBlock("hi")), StopReason.TOOL_USE, null, Usage.ZERO);
        List<String> lines = TraceSummary.lines(List.of(
                stored(1, "model_response", new TraceEvent.ModelResponded("r", 1, t, response, Usage.ZERO, new BigDecimal("0.001"),
                        new BigDecimal("0.00081"), 5)),
                stored(2, "tool_result", new TraceEvent.ToolCompleted("r", 1, t, "c1", "send_message", "denied", true,
                        "PERMISSION_DENIED", "rein", 3, "IRREVERSIBLE")),
                stored(3, "approval_requested", new TraceEvent.ApprovalRequested("r", 1, t, "c1", "send_message", "IRREVERSIBLE",
                        Json.object(), "abc123")),
                stored(4, "approval_decided", new TraceEvent.ApprovalDecided("r", 1, t, "c1", "send_message", "abc123", "reject",
                        "wrong person", Json.object(), null, "alice")),
                stored(6, "stall_detected", new TraceEvent.StallDetected("r", 2, t, "exact_repeat", "blocked", "c2",
                        "repeat", java.util.Map.of("tool", "calculate"), 1, "READ")),
                stored(5, "state_change", new TraceEvent.StateChanged("r", 1, t, RunStatus.RUNNING, RunStatus.WAITING_APPROVAL,
                        "approval_required"))));
        assertThat(lines.get(0)).contains("stop tool_use, USD 0.00081");
        assertThat(lines.get(1)).contains("send_message ERROR PERMISSION_DENIED: denied");
        assertThat(lines.get(2)).contains("send_message action abc123");
        assertThat(lines.get(3)).contains("reject send_message by alice: wrong person");
        assertThat(lines.get(4)).contains("exact_repeat blocked (#1): {\"tool\":\"calculate\"}");
        assertThat(lines.get(5)).contains("RUNNING -> WAITING_APPROVAL (approval_required)");
    }

    /**
     * A failed call's reported usage leads the line, ahead of the message the 120 characters may cut: the message says
     * it last, with the cache reads and writes as a response's. A failure without one reads as before.
     */
    @Test
    void aFailedCallShowsTheUsageItsServerReportedBeforeTheMessage() {
        Instant t = Instant.parse("2026-12-01T00:00:00Z");
        String message = "error event in the response stream (overloaded_error): Overloaded; the Anthropic API reported usage"
                + " for it (2720 input tokens, 1000 of them read from the cache and 300 written to it; no output count came)";
        List<String> lines = TraceSummary.lines(List.of(
                stored(1, "model_retry", new TraceEvent.ModelRetry("r", 1, t, 1, "OVERLOADED", 0, message, 500, null,
                        Usage.of(1420, 0, 1000, 300))),
                stored(2, "model_failed", new TraceEvent.ModelFailed("r", 1, t, "OVERLOADED", 0, message, null,
                        new Usage(1420, 12, 0, 0, java.util.Map.of(), true, java.util.Map.of()))),
                stored(3, "model_failed", new TraceEvent.ModelFailed("r", 2, t, "INVALID_REQUEST", 400, "bad"))));
        // the cache's part of the input too, as the live view and the message say it (2720 in all), not the uncached part alone
        assertThat(lines.get(0)).contains("OVERLOADED (reported, not charged: tokens in 1420 / out 0 / cache read 1000"
                + " / cache write 300): error event");
        assertThat(lines.get(1)).contains("OVERLOADED (reported, not charged: estimated tokens in 1420 / out 12): error event");
        assertThat(lines.get(2)).endsWith("INVALID_REQUEST: bad");
    }

    /** The provider's own stop reason follows Rein's when it says something else (what UNKNOWN was, say); not when the same. */
    @Test
    void aModelResponseShowsTheProvidersOwnStopReasonWhenItDiffers() {
        Instant t = Instant.parse("2026-12-01T00:00:00Z");
        ModelResponse eos = new ModelResponse("m", "llama", List.of(new TextBlock("hi")), StopReason.UNKNOWN, null, Usage.ZERO,
                null, "eos");
        ModelResponse same = new ModelResponse("m", "claude-sonnet-5", List.of(new TextBlock("hi")), StopReason.END_TURN, null,
                Usage.ZERO, null, "end_turn");
        List<String> lines = TraceSummary.lines(List.of(
                stored(1, "model_response", new TraceEvent.ModelResponded("r", 1, t, eos, Usage.ZERO, BigDecimal.ZERO,
                        BigDecimal.ZERO, 5)),
                stored(2, "model_response", new TraceEvent.ModelResponded("r", 2, t, same, Usage.ZERO, BigDecimal.ZERO,
                        BigDecimal.ZERO, 5))));
        assertThat(lines.get(0)).contains("stop unknown (provider: eos), USD 0");
        assertThat(lines.get(1)).contains("stop end_turn, USD 0");
    }

    @Test
    void aTurnStartedShowsItsTurnAndTheReply() {
        Instant t = Instant.parse("2026-12-01T00:00:00Z");
        List<String> lines = TraceSummary.lines(List.of(
                stored(1, "turn_started", new TraceEvent.TurnStarted("r", 1, t, 2, "会議室Bで\nお願いします"))));
        assertThat(lines.get(0)).endsWith("turn 2: 会議室Bで お願いします");
    }

    /**
     * A long detail is cut to 120 characters, never inside one: 119 then an emoji across the cut stays whole, and the cut
     * says how many characters it left out (it said a bare "...").
     */
    @Test
    void aLongDetailIsCutBetweenWholeCharacters() {
        Instant t = Instant.parse("2026-12-01T00:00:00Z");
        String content = "x".repeat(119 - "lookup ok: ".length()) + "🍣" + "在庫".repeat(50);
        List<String> lines = TraceSummary.lines(List.of(stored(1, "tool_result", new TraceEvent.ToolCompleted("r", 1, t, "c1",
                "lookup", content, false, "NONE", "db", 3, "READ"))));
        assertThat(lines.get(0)).endsWith("x🍣… (+100 chars)");
        assertThat(lines.get(0).codePoints().filter(cp -> Character.isSurrogate((char) cp))).isEmpty();
    }

    /** A failed attempt a stage moved on from: its model, where the call went next, the reported usage and the message. */
    @Test
    void aFallbackSaysWhichModelFailedAndWhereTheCallWentNext() {
        Instant t = Instant.parse("2026-12-01T00:00:00Z");
        List<String> lines = TraceSummary.lines(List.of(
                stored(1, "model_fallback", new TraceEvent.ModelFallback("r", 1, t, "primary", "backup", "OVERLOADED", 529,
                        "Overloaded", "req_1", Usage.of(1420, 0, 0, 0))),
                stored(2, "model_fallback", new TraceEvent.ModelFallback("r", 1, t, "backup", null, "SERVER_ERROR", 500,
                        "down", null, null))));

        assertThat(lines.get(0)).endsWith("model_fallback     OVERLOADED on primary, moved on to backup (reported, not charged:"
                + " tokens in 1420 / out 0): Overloaded");
        assertThat(lines.get(1)).endsWith("model_fallback     SERVER_ERROR on backup, no other attempt: down");
    }

    /**
     * The tools the provider ran for the model and billed per use (a web search, USD 0.01 each) follow the token counts, as
     * the live view says them, so a call that cost more than its tokens says why. Before: only the tokens.
     */
    @Test
    void aModelResponseShowsTheServerToolUsesAfterItsTokens() {
        Instant t = Instant.parse("2026-12-01T00:00:00Z");
        Usage usage = Usage.of(1000, 50, 0, 0).withServerToolUses("web_search", 3).withServerToolUses("web_fetch", 1);
        ModelResponse response = new ModelResponse("m", "claude-sonnet-5", List.of(new TextBlock("hi")), StopReason.END_TURN,
                null, usage);
        List<String> lines = TraceSummary.lines(List.of(stored(1, "model_response", new TraceEvent.ModelResponded("r", 1, t,
                response, usage, new BigDecimal("0.0425"), new BigDecimal("0.0425"), 5))));
        assertThat(lines.getFirst()).endsWith("stop end_turn, USD 0.0425, tokens in 1000 / out 50 / web_fetch 1, web_search 3");
    }
}
