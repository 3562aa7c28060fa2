package dev.rein.examples.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.agent.Agent;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.budget.Budget;
import dev.rein.eval.TrialModel;
import dev.rein.json.Json;
import dev.rein.tool.Principal;
import dev.rein.tool.Secrets;
import dev.rein.tool.ToolCall;
import dev.rein.tool.ToolContext;
import dev.rein.tool.ToolExecutor;
import dev.rein.tool.ToolRegistry;
import dev.rein.tool.ToolResult;
import dev.rein.trace.RunListener;
import dev.rein.trace.RunListenerFactory;
import dev.rein.trace.TraceEvent;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The triage workflow: code decides the path. For each mail it asks the model to classify it,
 * and, when the path needs an order, to extract the order number; everything else (looking the
 * order up, choosing the queue, writing the reply from a template) is code. Tool calls go through
 * the same executor pipeline as an agent's (validation, scopes, timeouts, provenance), every step
 * is traced, and each mail has a budget of model calls and money that the model steps share.
 */
final class Triage {
    /** The model calls and money one mail may use, across its model steps. */
    static final int MAX_MODEL_STEPS = 4;
    static final BigDecimal MAX_COST_USD = new BigDecimal("0.02");

    /**
     * What triage did with one mail.
     *
     * @param route      the path code chose, e.g. "order_status: reply queued"
     * @param modelSteps model calls used by the classify and extract steps
     */
    record Outcome(String mailId, String label, String route, List<String> actions, int modelSteps, BigDecimal costUsd) {}

    private static final Principal TRIAGE = new Principal("triage-workflow", "acme", Set.of("orders:read", SupportDesk.DESK_SCOPE));

    private final SupportDesk desk;
    private final TrialModel model;
    private final RunListenerFactory listeners;
    private final ToolExecutor executor;

    Triage(SupportDesk desk, TrialModel model, RunListenerFactory listeners) {
        this.desk = desk;
        this.model = model;
        this.listeners = listeners;
        this.executor = ToolExecutor.builder(ToolRegistry.of(desk.tools())).build();
    }

    Outcome handle(String mailId) throws InterruptedException {
        SupportDesk.Mail mail = desk.mail(mailId);
        Run run = new Run(mailId);
        run.started();
        try {
            RunResult classified = run.ask("classify", ModelSteps.classifier(model, run.budget()), ModelSteps.mailAsData(mail));
            if (!classified.succeeded()) {
                return run.finish("unclassified", "no label (" + classified.reason() + "): ticket for a person",
                        call(run, "create_ticket", ticket("support", mailId, null, "Triage could not classify: " + mail.subject())));
            }
            String label = ModelSteps.label(classified.answer());
            run.route("label " + label);
            return switch (label) {
                case "spam" -> run.finish(label, "archived", call(run, "archive_mail", Json.object().put("mail_id", mailId)));
                case "complaint" -> run.finish(label, "ticket for the support team",
                        call(run, "create_ticket", ticket("support", mailId, null, mail.subject())));
                default -> withOrder(run, mail, label);
            };
        } finally {
            run.trace.close();
        }
    }

    /** Refunds and order questions need the order: extract its number, look it up, then act by label. */
    private Outcome withOrder(Run run, SupportDesk.Mail mail, String label) throws InterruptedException {
        if (run.spent()) {
            return run.finish(label, "model budget spent: ticket for a person", call(run, "create_ticket",
                    ticket("support", mail.id(), null, "Triage ran out of budget: " + mail.subject())));
        }
        RunResult extracted = run.ask("extract", ModelSteps.extractor(model, run.budget(), mail.body()), ModelSteps.mailAsData(mail));
        String orderId = extracted.succeeded() ? ModelSteps.orderId(extracted.answer()) : null;
        if (orderId == null) {
            return run.finish(label, "reply asking for the order number", call(run, "queue_reply", Json.object()
                    .put("mail_id", mail.id()).put("body", Replies.askForOrderNumber(mail))));
        }
        ToolResult order = call(run, "get_order", Json.object().put("order_id", orderId));
        if (order.isError()) {
            return run.finish(label, "reply: order not found", call(run, "queue_reply", Json.object()
                    .put("mail_id", mail.id()).put("body", Replies.orderNotFound(orderId))));
        }
        JsonNode o = Json.parse(order.content());
        if (label.equals("refund")) {
            return run.finish(label, "ticket for the refunds team", call(run, "create_ticket",
                    ticket("refunds", mail.id(), orderId, "Refund request for " + orderId + ": " + mail.subject())));
        }
        // Where the delay is explained depends on the status: the warehouse before shipping, the carrier after.
        ToolResult detail = switch (o.path("status").asText()) {
            case "awaiting_shipment" -> call(run, "get_warehouse_status", Json.object().put("warehouse_id", o.path("warehouse").asText()));
            case "shipped" -> call(run, "get_shipment", Json.object().put("order_id", orderId));
            default -> null;
        };
        String reason = detail == null || detail.isError() ? null : Json.parse(detail.content()).path("delay_reason").asText(null);
        return run.finish(label, "reply with the order's status", call(run, "queue_reply", Json.object()
                .put("mail_id", mail.id()).put("body", Replies.orderStatus(o, reason))));
    }

    private static ObjectNode ticket(String queue, String mailId, String orderId, String summary) {
        ObjectNode args = Json.object().put("queue", queue).put("mail_id", mailId).put("summary", summary);
        return orderId == null ? args : args.put("order_id", orderId);
    }

    /** A code step: one tool call through the executor, traced like an agent's. */
    private ToolResult call(Run run, String tool, ObjectNode arguments) throws InterruptedException {
        String callId = "wf_call_" + (++run.calls);
        run.emit(new TraceEvent.ToolCalled(run.id, 0, Instant.now(), callId, tool, arguments));
        ToolResult result = executor.execute(new ToolCall(callId, tool, arguments, 0), new ToolContext(run.id, 0, callId,
                run.id + ":" + callId, Instant.now().plusSeconds(30), TRIAGE, Secrets.NONE));
        run.emit(new TraceEvent.ToolCompleted(run.id, 0, Instant.now(), callId, tool, result.content(), result.isError(),
                result.errorClass().name(), result.source(), result.duration().toMillis(),
                executor.registry().find(tool).map(t -> t.risk().name()).orElse(null)));
        run.actions.add(tool + " " + Json.write(arguments) + (result.isError() ? " -> error: " + result.content() : ""));
        return result;
    }

    /** One mail's pass through the workflow: its trace, its shared budget, what it did. */
    private final class Run {
        final String mailId;
        final RunListener trace;
        final String id;
        final List<String> actions = new ArrayList<>();
        int calls;
        int modelSteps;
        BigDecimal cost = BigDecimal.ZERO;

        Run(String mailId) {
            this.mailId = mailId;
            this.id = "wf_" + mailId + "_" + UUID.randomUUID().toString().substring(0, 8);
            this.trace = listeners.create(id);
        }

        /** True when the mail's model budget is used up: no further model step starts. */
        boolean spent() {
            return modelSteps >= MAX_MODEL_STEPS || cost.compareTo(MAX_COST_USD) >= 0;
        }

        void started() {
            Map<String, Object> limits = new LinkedHashMap<>();
            limits.put("max_model_steps", MAX_MODEL_STEPS);
            limits.put("max_cost_usd", MAX_COST_USD);
            emit(new TraceEvent.RunStarted(id, 0, Instant.now(), "triage " + mailId, model.name(), executor.registry().names(), limits));
        }

        /** The budget left for the next model step (callers check {@link #spent()} first). */
        Budget budget() {
            return Budget.builder().maxSteps(MAX_MODEL_STEPS - modelSteps).maxCostUsd(MAX_COST_USD.subtract(cost)).build();
        }

        /** A model step: a small agent run, traced by the same listeners, charged to this mail's budget. */
        RunResult ask(String step, Agent agent, String input) {
            RunResult result = agent.withListener(listeners).run(input);
            modelSteps += result.steps();
            cost = cost.add(result.costUsd());
            emit(new TraceEvent.Intervention(id, 0, Instant.now(), "workflow", step + " step ended " + result.status()
                    + " (" + result.reason() + ") in run " + result.runId(), Map.of("step", step, "run_id", result.runId(),
                    "status", result.status().name())));
            if (result.status() == RunStatus.STOPPED_BUDGET) {
                actions.add(step + " stopped: the mail's model budget is spent");
            }
            return result;
        }

        void route(String what) {
            emit(new TraceEvent.Intervention(id, 0, Instant.now(), "workflow", "route: " + what, Map.of()));
        }

        Outcome finish(String label, String route, ToolResult last) {
            emit(new TraceEvent.RunFinished(id, 0, Instant.now(), last.isError() ? RunStatus.FAILED : RunStatus.SUCCEEDED,
                    last.isError() ? "tool_error" : "completed", route, route, null, cost));
            return new Outcome(mailId, label, route, List.copyOf(actions), modelSteps, cost);
        }

        void emit(TraceEvent event) {
            trace.onEvent(event);
        }
    }
}
