package dev.rein.examples.orders;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.run.FinalAnswer;
import dev.rein.examples.Exchanges.Exchange;
import dev.rein.examples.Exchanges;
import dev.rein.guard.RequiredFact;
import dev.rein.json.Json;
import java.text.Normalizer;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The three facts a delivery-delay answer must establish, each checked against what the lookups
 * returned: the order's status, the reason for the delay, and when the order last changed. An
 * answer missing one is refused and the model told which, so it goes on investigating instead of
 * finishing early.
 */
final class OrderFacts {
    private static final Pattern ORDER_ID = Pattern.compile("\\b[A-Z]-\\d{3}\\b");
    private static final Map<String, List<String>> STATUS_WORDS = Map.of(
            "awaiting_shipment", List.of("awaiting shipment", "awaiting_shipment", "not shipped", "not yet shipped", "未出荷"),
            "shipped", List.of("shipped", "出荷済"),
            "delivered", List.of("delivered", "配達済"));
    private static final Map<String, List<String>> REASON_WORDS = Map.of(
            "STOCK_SHORTAGE", List.of("stock", "在庫"),
            "HUB_CLOSED", List.of("hub", "typhoon", "台風"));

    private OrderFacts() {}

    static List<RequiredFact> all() {
        return List.of(status(), reason(), lastUpdate());
    }

    static RequiredFact status() {
        return new RequiredFact("order status", "look the order up with get_order and state its status", answer -> order(answer)
                .map(o -> mentionsAny(answer, STATUS_WORDS.getOrDefault(o.path("status").asText(), List.of(o.path("status").asText()))))
                .orElse(false));
    }

    static RequiredFact reason() {
        return new RequiredFact("delay reason", "find the reason in the shipment or the warehouse status and state it",
                answer -> reasonCodes(answer).stream().anyMatch(code -> mentionsAny(answer, REASON_WORDS.getOrDefault(code, List.of(code)))));
    }

    static RequiredFact lastUpdate() {
        return new RequiredFact("last update time", "state when the order's status last changed (last_update), with date and time",
                answer -> order(answer).map(o -> mentionsTime(answer, o.path("last_update").asText())).orElse(false));
    }

    /** The order the goal names (or the last one looked up), as get_order returned it. */
    private static Optional<JsonNode> order(FinalAnswer answer) {
        Matcher m = ORDER_ID.matcher(answer.goal());
        String wanted = m.find() ? m.group() : null;
        JsonNode found = null;
        for (Exchange e : Exchanges.succeeded(answer.history(), "get_order")) {
            JsonNode o = Json.parse(e.data());
            if (wanted == null || wanted.equals(o.path("id").asText())) {
                found = o;
            }
        }
        return Optional.ofNullable(found);
    }

    private static List<String> reasonCodes(FinalAnswer answer) {
        return Exchanges.of(answer.history()).stream()
                .filter(e -> e.succeeded() && (e.tool().equals("get_warehouse_status") || e.tool().equals("get_shipment")))
                .map(e -> Json.parse(e.data()).path("reason_code").asText(""))
                .filter(code -> !code.isEmpty()).toList();
    }

    private static boolean mentionsTime(FinalAnswer answer, String iso) {
        OffsetDateTime time = OffsetDateTime.parse(iso);
        String text = normalise(answer.answer());
        String date = time.toLocalDate().toString();
        String japanese = time.getMonthValue() + "月" + time.getDayOfMonth() + "日";
        String hhmm = String.format("%02d:%02d", time.getHour(), time.getMinute());
        String hmm = time.getHour() + ":" + String.format("%02d", time.getMinute());
        return (text.contains(date) || text.contains(japanese)) && (text.contains(hhmm) || text.contains(hmm));
    }

    private static boolean mentionsAny(FinalAnswer answer, List<String> words) {
        String text = normalise(answer.answer());
        return words.stream().anyMatch(w -> text.contains(normalise(w)));
    }

    private static String normalise(String text) {
        return Normalizer.normalize(text == null ? "" : text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
    }
}
