package dev.rein.examples.assistant;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.rein.json.Json;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolHandler;
import dev.rein.tool.ToolOutput;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The assistant's tools. Reading is free; writing is split in two: {@code draft_email} prepares a
 * message in the user's drafts (nobody else sees it), {@code send_email} sends a draft to the
 * world, is irreversible and waits for the user's approval.
 */
final class OfficeTools {
    static final String DRAFT = "draft_email";
    static final String SEND = "send_email";
    static final LocalTime DAY_START = LocalTime.of(9, 0);
    static final LocalTime DAY_END = LocalTime.of(18, 0);

    private final OfficeWorld world;

    OfficeTools(OfficeWorld world) {
        this.world = world;
    }

    List<Tool> all() {
        return List.of(searchMail(), readMail(), freeSlots(), lookupContact(), draftEmail(), sendEmail());
    }

    private Tool searchMail() {
        return read("search_mail", "Lists inbox messages (id, sender, subject, date, unread) whose sender or subject contains the"
                + " query; an empty query lists all.", """
                {"type":"object","properties":{"query":{"type":"string"}},"required":["query"],"additionalProperties":false}""",
                (args, ctx) -> {
                    String q = args.get("query").asText().toLowerCase(Locale.ROOT);
                    ArrayNode found = Json.mapper().createArrayNode();
                    for (OfficeWorld.Mail m : world.inbox()) {
                        if ((m.from() + " " + m.subject()).toLowerCase(Locale.ROOT).contains(q)) {
                            found.add(Json.object().put("id", m.id()).put("from", m.from()).put("subject", m.subject())
                                    .put("date", m.date()).put("unread", m.unread()));
                        }
                    }
                    return ToolOutput.text(found.isEmpty() ? "no messages match" : Json.write(found)).withSource("mail");
                });
    }

    private Tool readMail() {
        return read("read_mail", "Reads one message in full.", """
                {"type":"object","properties":{"id":{"type":"string","description":"e.g. M-1"}},"required":["id"],"additionalProperties":false}""",
                (args, ctx) -> {
                    OfficeWorld.Mail m = world.mail(args.get("id").asText().strip().toUpperCase(Locale.ROOT));
                    return m == null ? ToolOutput.error("no message '" + args.get("id").asText() + "'")
                            : ToolOutput.text(Json.write(Json.mapper().valueToTree(m))).withSource("mail:" + m.id());
                });
    }

    private Tool freeSlots() {
        return read("find_free_slots", "Lists the user's free time on a date between 09:00 and 18:00 (Asia/Tokyo), as slots at"
                + " least duration_minutes long.", """
                {"type":"object","properties":{"date":{"type":"string","description":"YYYY-MM-DD"},
                  "duration_minutes":{"type":"integer","minimum":5,"maximum":480}},
                 "required":["date","duration_minutes"],"additionalProperties":false}""",
                (args, ctx) -> {
                    LocalDate date = LocalDate.parse(args.get("date").asText());
                    Duration length = Duration.ofMinutes(args.get("duration_minutes").asInt());
                    List<OfficeWorld.Event> day = world.events().stream()
                            .filter(e -> LocalDateTime.parse(e.start()).toLocalDate().equals(date))
                            .sorted(Comparator.comparing(OfficeWorld.Event::start)).toList();
                    List<String> free = new ArrayList<>();
                    LocalDateTime cursor = date.atTime(DAY_START);
                    for (OfficeWorld.Event e : day) {
                        addIfLongEnough(free, cursor, LocalDateTime.parse(e.start()), length);
                        LocalDateTime end = LocalDateTime.parse(e.end());
                        cursor = end.isAfter(cursor) ? end : cursor;
                    }
                    addIfLongEnough(free, cursor, date.atTime(DAY_END), length);
                    return ToolOutput.text(free.isEmpty() ? "no free slot of " + length.toMinutes() + " minutes on " + date
                            : date + " (" + date.getDayOfWeek().toString().charAt(0) + date.getDayOfWeek().toString().substring(1).toLowerCase(Locale.ROOT)
                            + ") free: " + String.join(", ", free)).withSource("calendar");
                });
    }

    private static void addIfLongEnough(List<String> free, LocalDateTime from, LocalDateTime to, Duration length) {
        if (Duration.between(from, to).compareTo(length) >= 0) {
            free.add(from.toLocalTime() + "-" + to.toLocalTime());
        }
    }

    private Tool lookupContact() {
        return read("lookup_contact", "Finds contacts whose name contains the text; returns every match with its e-mail address.", """
                {"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false}""",
                (args, ctx) -> {
                    String q = args.get("name").asText().toLowerCase(Locale.ROOT);
                    List<OfficeWorld.Contact> found = world.contacts().stream().filter(c -> c.name().toLowerCase(Locale.ROOT).contains(q)).toList();
                    return ToolOutput.text(found.isEmpty() ? "no contact matches '" + q + "'" : Json.write(Json.mapper().valueToTree(found)))
                            .withSource("contacts");
                });
    }

    private Tool draftEmail() {
        return Tool.builder(DRAFT)
                .description("Prepares an e-mail in the user's drafts folder; nothing is sent. Returns the draft's id. A"
                        + " draft never changes: to revise one, make a new draft.")
                .inputSchema("""
                        {"type":"object","properties":{
                          "to":{"type":"string","description":"an e-mail address from lookup_contact or the message replied to"},
                          "subject":{"type":"string"},"body":{"type":"string"},
                          "in_reply_to":{"type":"string","description":"the id of the message answered, if any"}},
                         "required":["to","subject","body"],"additionalProperties":false}""")
                .risk(Risk.WRITE)
                .handler((args, ctx) -> {
                    OfficeWorld.Draft d = world.addDraft(args.get("to").asText(), args.get("subject").asText(),
                            args.get("body").asText(), args.path("in_reply_to").asText(null));
                    return ToolOutput.text("Draft " + d.id() + " saved (to " + d.to() + ", subject \"" + d.subject() + "\").")
                            .withSource("mail:drafts");
                })
                .build();
    }

    private Tool sendEmail() {
        return Tool.builder(SEND)
                .description("Sends a draft. Irreversible: the user approves each message before it goes out.")
                .inputSchema("""
                        {"type":"object","properties":{"draft_id":{"type":"string","description":"e.g. D-1"}},
                         "required":["draft_id"],"additionalProperties":false}""")
                .risk(Risk.IRREVERSIBLE)
                .handler((args, ctx) -> {
                    OfficeWorld.Draft d = world.draft(args.get("draft_id").asText().strip().toUpperCase(Locale.ROOT));
                    if (d == null) {
                        return ToolOutput.error("no draft '" + args.get("draft_id").asText() + "'");
                    }
                    return world.send(d) ? ToolOutput.text("Sent " + d.id() + " to " + d.to() + ".").withSource("mail:outbox")
                            : ToolOutput.text(d.id() + " was already sent; not sent again.").withSource("mail:outbox");
                })
                .build();
    }

    private Tool read(String name, String description, String schema, ToolHandler handler) {
        return Tool.builder(name).description(description).inputSchema(schema).risk(Risk.READ)
                .handler((args, ctx) -> {
                    Duration delay = world.delay(name);
                    if (delay != null) {
                        Thread.sleep(delay);
                    }
                    return handler.handle(args, ctx);
                })
                .build();
    }
}
