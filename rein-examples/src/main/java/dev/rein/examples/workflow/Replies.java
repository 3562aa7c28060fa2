package dev.rein.examples.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;

/** The workflow's reply templates: code writes the customer's answer from the order system's data. */
final class Replies {
    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");

    private Replies() {}

    static String orderStatus(JsonNode order, String reason) {
        String when = OffsetDateTime.parse(order.path("last_update").asText()).format(WHEN);
        String next = switch (order.path("status").asText()) {
            case "awaiting_shipment" -> "We will write again as soon as it ships.";
            case "shipped" -> "The carrier will deliver it as soon as it can.";
            default -> "If anything is missing, just reply to this mail.";
        };
        return "Hello,\n\nyour order " + order.path("id").asText() + " is " + order.path("status").asText().replace('_', ' ')
                + " (last update " + when + ")." + (reason == null ? "" : " Reason for the delay: " + reason + ".")
                + "\n" + next + "\n\nAcme support";
    }

    static String askForOrderNumber(SupportDesk.Mail mail) {
        return "Hello,\n\nthank you for your message \"" + mail.subject() + "\". Could you tell us your order number (it looks"
                + " like A-104)? Then we can check it right away.\n\nAcme support";
    }

    static String orderNotFound(String orderId) {
        return "Hello,\n\nwe could not find an order " + orderId + ". Could you check the number on your confirmation mail?"
                + "\n\nAcme support";
    }
}
