package dev.rein.examples.expense;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.json.Json;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolContext;
import dev.rein.tool.ToolOutput;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;

/**
 * The expense agent's tools: reads (report, policy, policy check) and two decisions. The policy
 * check is code, and the decisions are guarded by {@link DecisionGuard}: a report may only be
 * decided after this run checked it, approved only without violations, and sent back only with a
 * reason for every violation.
 */
final class ExpenseTools {
    static final String READ_SCOPE = "expenses:read";
    static final String DECIDE_SCOPE = "expenses:decide";
    static final String CHECK = "check_report";
    static final String APPROVE = "approve_report";
    static final String SEND_BACK = "send_back_report";

    private final ExpenseWorld world;

    ExpenseTools(ExpenseWorld world) {
        this.world = world;
    }

    List<Tool> all() {
        return List.of(getReport(), getPolicy(), checkReport(), approve(), sendBack());
    }

    /** Approving a report over the manager limit waits for a person; everything else runs. */
    ApprovalPolicy approvals() {
        return (tool, arguments, principal) -> tool.name().equals(APPROVE)
                && world.total(id(arguments)) > ExpenseWorld.MANAGER_LIMIT_JPY;
    }

    private Tool getReport() {
        return reportReader("get_report", "Reads an expense report: employee, submission date, items (date, category,"
                + " description, amount in JPY, attendees, whether a receipt is attached), total and status.", (r, ctx) -> {
                    ObjectNode out = Json.mapper().valueToTree(r);
                    out.put("total_jpy", r.total());
                    return ToolOutput.text(Json.write(out)).withSource("expenses");
                });
    }

    private Tool getPolicy() {
        return Tool.builder("get_policy")
                .description("Reads the expense policy: its rules, each with an id (R1, R2, ...).")
                .requiredScopes(READ_SCOPE)
                .handler((args, ctx) -> ToolOutput.text(ExpensePolicy.TEXT).withSource("policy"))
                .build();
    }

    private Tool checkReport() {
        return reportReader(CHECK, "Checks a report against the policy and lists every violation (rule id, item number,"
                + " detail). Required before any decision on the report.", (r, ctx) -> {
                    world.markChecked(ctx.runId(), r.id());
                    ObjectNode out = Json.object().put("report_id", r.id()).put("total_jpy", r.total())
                            .put("needs_manager_signoff", r.total() > ExpenseWorld.MANAGER_LIMIT_JPY);
                    out.set("violations", Json.mapper().valueToTree(ExpensePolicy.check(r)));
                    return ToolOutput.text(Json.write(out)).withSource("policy-check");
                });
    }

    /** A read-scoped tool over one report by id; an unknown id is an error result. */
    private Tool reportReader(String name, String description, BiFunction<ExpenseWorld.Report, ToolContext, ToolOutput> read) {
        return Tool.builder(name)
                .description(description)
                .inputSchema(reportIdSchema())
                .requiredScopes(READ_SCOPE)
                .handler((args, ctx) -> {
                    ExpenseWorld.Report r = world.report(id(args));
                    return r == null ? ToolOutput.error("no report '" + id(args) + "'") : read.apply(r, ctx);
                })
                .build();
    }

    private Tool approve() {
        return Tool.builder(APPROVE)
                .description("Approves a report for payment. Only for a report that check_report found without violations;"
                        + " reports over 50,000 JPY wait for a manager's sign-off.")
                .inputSchema("""
                        {"type":"object","properties":{
                          "report_id":{"type":"string"},
                          "note":{"type":"string","description":"a short note for the employee"}},
                         "required":["report_id","note"],"additionalProperties":false}""")
                .risk(Risk.WRITE)
                .requiredScopes(READ_SCOPE, DECIDE_SCOPE)
                .handler((args, ctx) -> {
                    String id = id(args);
                    int total = world.total(id);
                    world.decide(id, "approved", List.of(), total > ExpenseWorld.MANAGER_LIMIT_JPY, "approved " + id
                            + " (" + ExpensePolicy.yen(total) + ")");
                    return ToolOutput.text(id + " approved for payment: " + ExpensePolicy.yen(total)).withSource("expenses");
                })
                .build();
    }

    private Tool sendBack() {
        return Tool.builder(SEND_BACK)
                .description("Sends a report back to the employee with the reasons, one per violation found by check_report,"
                        + " each naming its rule id.")
                .inputSchema("""
                        {"type":"object","properties":{
                          "report_id":{"type":"string"},
                          "reasons":{"type":"array","minItems":1,"items":{"type":"string"},
                                     "description":"e.g. 'R1: item 2, taxi of 3,600 JPY has no receipt'"}},
                         "required":["report_id","reasons"],"additionalProperties":false}""")
                .risk(Risk.WRITE)
                .requiredScopes(READ_SCOPE, DECIDE_SCOPE)
                .handler((args, ctx) -> {
                    String id = id(args);
                    List<String> reasons = new ArrayList<>();
                    args.get("reasons").forEach(r -> reasons.add(r.asText()));
                    world.decide(id, "sent_back", reasons, false, "sent back " + id);
                    return ToolOutput.text(id + " sent back to the employee with " + reasons.size() + " reason(s)").withSource("expenses");
                })
                .build();
    }

    static String id(JsonNode args) {
        return args.path("report_id").asText().strip().toUpperCase(Locale.ROOT);
    }

    private static String reportIdSchema() {
        return """
                {"type":"object","properties":{"report_id":{"type":"string","description":"e.g. EXP-201"}},
                 "required":["report_id"],"additionalProperties":false}""";
    }
}
