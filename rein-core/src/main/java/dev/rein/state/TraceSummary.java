package dev.rein.state;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.internal.text.Counts;
import dev.rein.json.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** One short line per stored trace event, read from the events' JSON (no need to know every event type). */
final class TraceSummary {
    private static final int MAX = 120;

    private TraceSummary() {}

    static List<String> lines(List<StoredEvent> events) {
        List<String> lines = new ArrayList<>();
        for (StoredEvent e : events) {
            JsonNode j;
            try {
                j = Json.storedMapper().readTree(e.json());
            } catch (RuntimeException | JsonProcessingException ex) {
                lines.add(prefix(e) + "(unreadable event)");
                continue;
            }
            String detail = switch (e.type()) {
                case "run_started" -> "goal: " + j.path("goal").asText();
                case "model_response" -> "stop " + j.path("response").path("stop_reason").asText().toLowerCase()
                        + providerStop(j.path("response")) + ", USD " + j.path("total_cost_usd").decimalValue().toPlainString() + tokens(j.path("usage"));
                case "tool_call" -> j.path("tool").asText() + " " + Json.write(j.path("arguments"));
                case "tool_result" -> j.path("tool").asText() + (j.path("is_error").asBoolean() ? " ERROR " + j.path("error_class").asText() : " ok")
                        + ": " + j.path("content").asText();
                case "tool_retry" -> j.path("tool").asText() + " attempt " + j.path("attempt").asInt() + " failed, retry in "
                        + j.path("delay_millis").asLong() + " ms";
                case "approval_requested" -> j.path("tool").asText() + " action " + j.path("action_hash").asText();
                case "approval_decided" -> j.path("decision").asText() + " " + j.path("tool").asText() + " by "
                        + j.path("decided_by").asText("?") + (j.hasNonNull("reason") ? ": " + j.path("reason").asText() : "");
                case "audit" -> j.path("kind").asText() + " " + j.path("tool").asText("") + ": " + j.path("detail").asText();
                case "stall_detected" -> j.path("detector").asText() + " " + j.path("action").asText() + " (#"
                        + j.path("occurrence").asInt() + "): " + Json.write(j.path("evidence"));
                case "output_truncated" -> j.path("tool").asText() + ("user_content".equals(j.path("part").asText())
                        ? " output for the user cut to " : " output cut to ") + j.path("shown_chars").asInt() + " of "
                        + j.path("total_chars").asInt() + " characters, full text " + j.path("sha256").asText();
                case "context_edited" -> j.path("edit").asText() + ": " + j.path("tokens_before").asLong() + " -> "
                        + j.path("tokens_after").asLong() + " tokens";
                case "intervention" -> j.path("kind").asText() + ": " + j.path("message").asText();
                case "state_change" -> j.path("from").asText("-") + " -> " + j.path("to").asText() + " (" + j.path("reason").asText() + ")";
                case "run_finished" -> j.path("status").asText() + " (" + j.path("reason").asText() + ")";
                case "run_resumed" -> "from " + j.path("from").asText();
                case "turn_started" -> "turn " + j.path("turn").asInt() + ": " + j.path("text").asText();
                case "model_retry", "model_failed" -> j.path("error_kind").asText() + reported(j.path("reported_usage")) + ": "
                        + j.path("message").asText();
                case "model_fallback" -> j.path("error_kind").asText() + " on " + j.path("from_model").asText()
                        + (j.hasNonNull("to_model") ? ", moved on to " + j.path("to_model").asText() : ", no other attempt")
                        + reported(j.path("reported_usage")) + ": " + j.path("message").asText();
                default -> "";
            };
            lines.add(prefix(e) + oneLine(detail));
        }
        return lines;
    }

    /**
     * " (provider: X)": the stop reason as the provider sent it, when it says something else than Rein's
     * (an UNKNOWN's value, a finish_reason Rein maps); "" when the same or not recorded (an older trace).
     */
    private static String providerStop(JsonNode response) {
        String sent = response.path("provider_stop_reason").asText("");
        return sent.isEmpty() || sent.equalsIgnoreCase(response.path("stop_reason").asText()) ? "" : " (provider: " + sent + ")";
    }

    /**
     * ", tokens in X / out Y", with "(reasoning Z)" for the part of the output a reasoning model spent thinking
     * when the provider reported it, " / cache read R / cache write W" when the input (X uncached) had a cached part and
     * the provider's server tool uses after them;
     * "" for an event without usage (one written before it was recorded).
     */
    private static String tokens(JsonNode usage) {
        if (!usage.isObject()) {
            return "";
        }
        long reasoning = usage.path("reasoning_output_tokens").asLong();
        long cacheRead = usage.path("cache_read_input_tokens").asLong();
        long cacheWrite = usage.path("cache_creation_input_tokens").asLong();
        // "in" is the uncached input: the cache's part is said after it, as the live view does, or the input looks smaller
        return ", " + (usage.path("estimated").asBoolean() ? "estimated " : "") + "tokens in " + usage.path("input_tokens").asLong()
                + " / out " + usage.path("output_tokens").asLong() + (reasoning > 0 ? " (reasoning " + reasoning + ")" : "")
                + (cacheRead > 0 || cacheWrite > 0 ? " / cache read " + cacheRead + " / cache write " + cacheWrite : "")
                + serverToolUses(usage.path("server_tool_uses"));
    }

    /**
     * " / web_search 3, web_fetch 1": tools the provider ran for the model and bills per use on top of the tokens, as the
     * live view says them, so a call that cost more than its tokens says why; "" when there were none.
     */
    private static String serverToolUses(JsonNode uses) {
        Map<String, Long> counts = new TreeMap<>();
        uses.properties().forEach(entry -> counts.put(entry.getKey(), entry.getValue().asLong()));
        StringBuilder sb = new StringBuilder();
        counts.forEach((tool, count) -> sb.append(sb.isEmpty() ? " / " : ", ").append(tool).append(' ').append(count));
        return sb.toString();
    }

    /**
     * " (reported, not charged: tokens in X / out Y)" for a failed call whose server reported usage, ahead of the
     * message, which the line may cut; "" without one.
     */
    private static String reported(JsonNode usage) {
        return usage.isObject() ? " (reported, not charged: " + tokens(usage).substring(2) + ")" : "";
    }

    private static String prefix(StoredEvent e) {
        return String.format("%3d %-18s ", e.step(), e.type());
    }

    /** The text on one line, cut after {@link #MAX} code points (whole characters: half an emoji prints as '?'), saying how many more it had. */
    private static String oneLine(String text) {
        String flat = text.replace('\n', ' ').strip();
        int length = flat.codePointCount(0, flat.length());
        return length <= MAX ? flat : flat.substring(0, flat.offsetByCodePoints(0, MAX)) + "… (+" + Counts.of(length - MAX, "char") + ")";
    }
}
