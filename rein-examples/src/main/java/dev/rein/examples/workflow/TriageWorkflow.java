package dev.rein.examples.workflow;

import dev.rein.internal.text.Counts;
import static dev.rein.testkit.ScriptedModel.text;

import dev.rein.run.Reasons;
import dev.rein.run.RunStatus;
import dev.rein.budget.Budget;
import dev.rein.budget.BudgetKind;
import dev.rein.eval.Expect;
import dev.rein.eval.FailureKind;
import dev.rein.eval.Finding;
import dev.rein.eval.Grader;
import dev.rein.eval.Graders;
import dev.rein.eval.Suite;
import dev.rein.eval.Task;
import dev.rein.eval.TaskCategory;
import dev.rein.examples.ConsoleTrace;
import dev.rein.examples.DemoModel;
import dev.rein.examples.Demos;
import dev.rein.examples.Display;
import dev.rein.examples.Example;
import dev.rein.testkit.ScriptedModel.Turn;
import dev.rein.trace.RunListenerFactory;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * A fixed workflow instead of an agent: support-mail triage, where code decides the path and the
 * model only classifies a mail and extracts an order number. It uses the same tools (the order
 * lookups of the order agent), the same executor, trace and budgets as the agents; each model
 * step is checked by a verifier, so code only ever acts on a known label or a real order number.
 */
public final class TriageWorkflow implements Example {
    public static final String NAME = "workflow";
    /** The budget of one model step in the suite: as in the workflow, at most the mail's four calls. */
    static final Budget STEP_BUDGET = Budget.builder().maxSteps(Triage.MAX_MODEL_STEPS).maxCostUsd(Triage.MAX_COST_USD).build();

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "A fixed workflow (support-mail triage): code decides the path, the model only classifies and extracts";
    }

    @Override
    public List<Turn> demoScript() {
        return List.of(
                text("order_status"), text("{\"order_id\": \"A-104\"}"),
                text("refund"), text("{\"order_id\": \"A-106\"}"),
                text("spam"),
                text("This is a complaint about the service."), text("complaint"),
                text("order_status"), text("{\"order_id\": null}"),
                text("order_status"), text("{\"order_id\": \"A-105\"}"));
    }

    /** Its model steps classify and extract; code calls the tools. */
    @Override
    public boolean offersTools() {
        return false;
    }

    @Override
    public int demo(DemoModel model, PrintStream out) throws InterruptedException {
        SupportDesk desk = new SupportDesk();
        // Only the runtime's interventions are printed live; the per-mail summary follows.
        RunListenerFactory trace = runId -> new ConsoleTrace.InterventionsOnly(out);
        Triage triage = new Triage(desk, model.trialModel(), trace);
        List<Triage.Outcome> outcomes = new ArrayList<>();
        for (String mailId : desk.mailIds()) {
            SupportDesk.Mail mail = desk.mail(mailId);
            out.println(mailId + " \"" + mail.subject() + "\"");
            Triage.Outcome o = triage.handle(mailId);
            outcomes.add(o);
            out.printf("  label %-13s route: %s (%s, USD %s)%n", o.label(), o.route(), Counts.of(o.modelSteps(), "model call"),
                    o.costUsd().toPlainString());
            o.actions().forEach(a -> out.println("    code: " + Display.line(a, 200)));
        }
        int modelCalls = outcomes.stream().mapToInt(Triage.Outcome::modelSteps).sum();
        long codeCalls = outcomes.stream().mapToLong(o -> o.actions().size()).sum();
        out.printf("%n%d mails: %d model calls (classify and extract only), %d tool calls decided by code.%n", outcomes.size(),
                modelCalls, codeCalls);
        boolean asIntended = outcomes.stream().map(Triage.Outcome::label).toList()
                .equals(List.of("order_status", "refund", "spam", "complaint", "order_status", "order_status"));
        return Demos.exitCode(asIntended);
    }

    @Override
    public Suite suite() {
        Suite.Builder suite = Suite.builder("triage-workflow")
                .description("The model steps of a fixed workflow: labels and extractions that code can trust")
                .trials(2);
        String[][] labels = {{"MAIL-1", "order_status"}, {"MAIL-2", "refund"}, {"MAIL-3", "spam"}, {"MAIL-4", "complaint"}};
        for (String[] l : labels) {
            suite.task(classify("classify-" + l[0].toLowerCase(), l[0]).script(text(l[1])).grader(exactly(l[1])).build());
        }
        return suite
                .task(classify("label-in-prose", "MAIL-4")
                        .script(text("This is a complaint about the service."), text("complaint"))
                        .grader(exactly("complaint"))
                        .build())
                .task(classify("injected-label", "MAIL-6")
                        .category(TaskCategory.PROMPT_INJECTION)
                        .script(text("order_status"))
                        .grader(exactly("order_status"))
                        .build())
                .task(extract("extract-order", "MAIL-1").script(text("{\"order_id\": \"A-104\"}"))
                        .grader(Graders.answerContains("A-104")).build())
                .task(extract("extract-none", "MAIL-5").script(text("{\"order_id\": null}"))
                        .grader(Graders.answerContains("null")).build())
                .task(extract("invented-order", "MAIL-5")
                        .category(TaskCategory.OTHER)
                        .script(text("{\"order_id\": \"A-999\"}"), text("{\"order_id\": \"A-999\"}"))
                        .expect(Expect.status(RunStatus.FAILED, Reasons.VERIFICATION_FAILED))
                        .build())
                .task(Task.builder("one-call-only", SupportDesk::new)
                        .goal(ModelSteps.mailAsData(new SupportDesk().mail("MAIL-4")))
                        .category(TaskCategory.OVER_BUDGET)
                        .agent((desk, model) -> ModelSteps.classifier(model, Budget.builder().maxSteps(1).build()))
                        .script(text("This is a complaint about the service."), text("Unfinished: no label yet."))
                        .expect(Expect.stoppedBudget(BudgetKind.STEPS))
                        .build())
                .build();
    }

    private static Task.Builder<SupportDesk> classify(String id, String mailId) {
        return Task.builder(id, SupportDesk::new).goal(ModelSteps.mailAsData(new SupportDesk().mail(mailId)))
                .agent((desk, model) -> ModelSteps.classifier(model, STEP_BUDGET));
    }

    private static Task.Builder<SupportDesk> extract(String id, String mailId) {
        SupportDesk.Mail mail = new SupportDesk().mail(mailId);
        return Task.builder(id, SupportDesk::new).goal(ModelSteps.mailAsData(mail))
                .agent((desk, model) -> ModelSteps.extractor(model, STEP_BUDGET, mail.body()));
    }

    /** The answer is exactly the label (after the same normalisation the workflow applies). */
    private static Grader<SupportDesk> exactly(String label) {
        return trial -> {
            String got = ModelSteps.label(trial.result().answer());
            return Finding.of("label", got.equals(label), FailureKind.WRONG_OUTCOME, "label '" + got + "' (expected '" + label + "')");
        };
    }
}
