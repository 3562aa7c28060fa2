package dev.rein.agent;

import static dev.rein.testkit.ScriptedModel.call;
import static dev.rein.testkit.ScriptedModel.text;
import static dev.rein.testkit.ScriptedModel.toolCalls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.json.Json;
import dev.rein.model.Message;
import dev.rein.model.ToolResultBlock;
import dev.rein.run.RunStatus;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Secrets;
import dev.rein.tool.Tool;
import dev.rein.tool.ToolInterceptor;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/safety.md: every known secret value is masked in tool results before the model sees them.
 * The executor's masking stage sees what a handler returned; these are the results made elsewhere.
 */
class SecretsInToolResultsTest {
    private static final String SECRET = "本物の鍵-ABCDEF-42";
    private static final Secrets SECRETS = Secrets.of(Map.of("key", SECRET));

    private static String lastToolResult(ScriptedModel model) {
        List<Message> messages = model.lastRequest().messages();
        return ((ToolResultBlock) messages.get(messages.size() - 1).content().get(0)).content();
    }

    @Test
    void aPersonsEditThatHoldsASecretIsMaskedInTheNoteTheModelReads() {
        Tool send = Tool.builder("send").description("sends").risk(Risk.WRITE)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"to\":{\"type\":\"string\"}}}")
                .handler((args, ctx) -> "sent").build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send", "{\"to\":\"x\"}")), text("ok"));
        Agent agent = Agent.builder().model(model).tools(send).secrets(SECRETS).build();
        RunResult paused = agent.run("go");
        agent.runs().edit(paused.runId(), paused.pendingApprovals().get(0).actionHash(),
                Json.parse("{\"to\":\"" + SECRET + "\"}"), "alice");

        RunResult done = agent.resume(paused.runId());

        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        // before: "... it ran with {"to":"本物の鍵-ABCDEF-42"}." went to the model as it was
        assertThat(lastToolResult(model)).startsWith("[rein] A person edited the arguments of this call before it ran;")
                .contains("{\"to\":\"[REDACTED:key]\"}").doesNotContain(SECRET);
        assertThat(model.requests().toString()).doesNotContain(SECRET);
    }

    @Test
    void aSecretInTheSystemPromptIsMaskedBeforeTheModelSeesItAsInTheGoal() {
        Tool lookup = Tool.builder("lookup").description("looks up").handler((args, ctx) -> "found").build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("lookup", "{}")), text("ok"));
        Agent agent = Agent.builder().model(model).tools(lookup).secrets(SECRETS)
                .systemPrompt("社内キー: " + SECRET + "\nUse it only through tools.").build();

        RunResult done = agent.run("調べて " + SECRET);

        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        // before: every request carried the system prompt as written, the key in clear (the goal was masked)
        assertThat(model.requests()).hasSize(2).allSatisfy(request -> {
            assertThat(request.system().toString()).contains("社内キー: [REDACTED:key]").contains("Use it only through tools.")
                    .doesNotContain(SECRET);
            assertThat(request.toString()).doesNotContain(SECRET);
        });
    }

    @Test
    void aSecretInTheRefusalOfAnInterceptorIsMaskedBeforeTheModelSeesIt() {
        Tool lookup = Tool.builder("lookup").description("looks up").handler((args, ctx) -> "found").build();
        // a stage refuses a call by answering it (it never throws: docs/safety.md, ToolInterceptor)
        ToolInterceptor auth = (invocation, chain) -> dev.rein.tool.ToolOutcome.of(dev.rein.tool.ToolResult.error(invocation.call(),
                dev.rein.tool.ErrorClass.PERMISSION_DENIED, "the key " + invocation.context().secrets().get("key").orElseThrow()
                        + " was refused"));
        ScriptedModel model = ScriptedModel.of(toolCalls(call("lookup", "{}")), text("ok"));

        Agent.builder().model(model).tools(lookup).toolInterceptor(auth).secrets(SECRETS).build().run("go");

        assertThat(lastToolResult(model)).contains("the key [REDACTED:key] was refused").doesNotContain(SECRET);
    }

    @Test
    void aSecretMaskedInTheRefusalOfAnInterceptorLeavesASecretMaskedAuditEvent() {
        // docs/safety.md: "A masked tool result leaves a secret_masked audit event"; the executor's masking stage left one
        // for a handler's output only, so a refusal quoting the key was masked without a trace of it
        Tool lookup = Tool.builder("lookup").description("looks up").handler((args, ctx) -> "found").build();
        // a stage refuses a call by answering it (it never throws: docs/safety.md, ToolInterceptor)
        ToolInterceptor auth = (invocation, chain) -> dev.rein.tool.ToolOutcome.of(dev.rein.tool.ToolResult.error(invocation.call(),
                dev.rein.tool.ErrorClass.PERMISSION_DENIED, "the key " + invocation.context().secrets().get("key").orElseThrow()
                        + " was refused"));
        ScriptedModel model = ScriptedModel.of(toolCalls(call("lookup", "{}")), text("ok"));
        dev.rein.testkit.RecordingListener trace = new dev.rein.testkit.RecordingListener();

        Agent.builder().model(model).tools(lookup).toolInterceptor(auth).secrets(SECRETS).listener(trace)
                .principal(new dev.rein.tool.Principal("sato", "acme", java.util.Set.of())).build().run("go");

        assertThat(trace.events(dev.rein.trace.TraceEvent.Audit.class)).filteredOn(a -> a.kind().equals("secret_masked"))
                .singleElement().satisfies(a -> {
                    assertThat(a.tool()).isEqualTo("lookup");
                    assertThat(a.user()).isEqualTo("sato");
                    assertThat(a.tenant()).isEqualTo("acme");
                    assertThat(a.detail()).isEqualTo("the result of tool 'lookup' contained the secret(s) [key]; they were"
                            + " masked before the model or the trace saw them");
                });
        // a handler's output is audited once, by the executor's stage, not again when the result is made
        Tool echo = Tool.builder("echo").description("echoes").handler((args, ctx) -> ctx.secrets().get("key").orElseThrow()).build();
        dev.rein.testkit.RecordingListener once = new dev.rein.testkit.RecordingListener();
        Agent.builder().model(ScriptedModel.of(toolCalls(call("echo", "{}")), text("ok"))).tools(echo).secrets(SECRETS)
                .listener(once).build().run("go");
        assertThat(once.events(dev.rein.trace.TraceEvent.Audit.class)).filteredOn(a -> a.kind().equals("secret_masked"))
                .singleElement().satisfies(a -> assertThat(a.detail()).isEqualTo("the output of tool 'echo' contained the"
                        + " secret(s) [key]; they were masked before the model or the trace saw them"));
    }

    @Test
    void aSecretTheModelWritesInItsTextOrInACallsArgumentsIsMaskedAndLeavesASecretMaskedAuditEvent() {
        // the model echoes a key it saw (say, an error a service returned before the key was registered): masked before
        // anything acts on it, as docs/safety.md says, and now audited like a masked tool result, where no event said so
        java.util.List<String> received = new java.util.concurrent.CopyOnWriteArrayList<>();
        Tool send = Tool.builder("send").description("sends").handler((args, ctx) -> {
            received.add(args.toString());
            return "sent";
        }).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send", "{\"body\":\"key=" + SECRET + "\"}")),
                text("The key is " + SECRET + "."));
        dev.rein.testkit.RecordingListener trace = new dev.rein.testkit.RecordingListener();

        RunResult done = Agent.builder().model(model).tools(send).secrets(SECRETS).listener(trace)
                .principal(new dev.rein.tool.Principal("sato", "acme", java.util.Set.of())).build().run("go");

        assertThat(done.answer()).isEqualTo("The key is [REDACTED:key].");
        assertThat(received).singleElement().asString().contains("[REDACTED:key]").doesNotContain(SECRET);
        var audits = trace.events(dev.rein.trace.TraceEvent.Audit.class).stream()
                .filter(a -> a.kind().equals("secret_masked")).toList();
        assertThat(audits).hasSize(2);
        assertThat(audits.get(0).tool()).isEqualTo("send");
        assertThat(audits.get(0).callId()).isEqualTo(model.requests().get(1).messages().get(1).toolUses().get(0).id());
        assertThat(audits.get(0).detail()).isEqualTo("the arguments the model gave tool 'send' contained the secret(s) [key];"
                + " they were masked before the tool, an approval or the trace saw them");
        assertThat(audits.get(1).tool()).isNull();
        assertThat(audits.get(1).detail()).isEqualTo("the model's text contained the secret(s) [key]; they were masked"
                + " before the answer, the store or the trace saw them");
        assertThat(audits).allSatisfy(a -> {
            assertThat(a.user()).isEqualTo("sato");
            assertThat(a.tenant()).isEqualTo("acme");
            assertThat(a.detail()).doesNotContain(SECRET);
        });
    }

    @Test
    void aSecretThatJsonEscapesIsMaskedInAStructuredResultAndInAnEditNote() {
        // A result that is not a string reaches the model as JSON text, where '"' and '\\' are escaped;
        // so does the note on a person's edited arguments. The plain value does not occur in that text.
        String secret = "pa\"ss\\wörd-42";
        Secrets secrets = Secrets.of(Map.of("key", secret));
        Tool lookup = Tool.builder("lookup").description("looks up")
                .handler((args, ctx) -> Map.of("token", ctx.secrets().get("key").orElseThrow())).build();
        Tool send = Tool.builder("send").description("sends").risk(Risk.WRITE)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"to\":{\"type\":\"string\"}}}")
                .handler((args, ctx) -> "sent").build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("lookup", "{}")), toolCalls(call("send", "{\"to\":\"x\"}")), text("ok"));
        Agent agent = Agent.builder().model(model).tools(lookup, send).secrets(secrets).build();
        RunResult paused = agent.run("go");
        String escaped = Json.write(com.fasterxml.jackson.databind.node.TextNode.valueOf(secret));
        escaped = escaped.substring(1, escaped.length() - 1);
        agent.runs().edit(paused.runId(), paused.pendingApprovals().get(0).actionHash(),
                Json.parse("{\"to\":\"" + escaped + "\"}"), "alice");

        RunResult done = agent.resume(paused.runId());

        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(lastToolResult(model)).contains("[REDACTED:key]").doesNotContain(escaped);
        assertThat(model.requests().toString()).doesNotContain(escaped).doesNotContain(secret);
    }
    @Test
    void aDecisionStoredInClearIsMaskedWhenTheAgentsRunsShowIt() {
        // decided where the agent's secrets were not known (Runs.in(store): another process, a tool
        // without them): agent.runs() knows them, as the trace and the note the model reads do
        Tool send = Tool.builder("send").description("sends").risk(Risk.WRITE)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"to\":{\"type\":\"string\"}}}")
                .handler((args, ctx) -> "sent").build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send", "{\"to\":\"x\"}"), call("send", "{\"to\":\"y\"}")),
                text("ok"));
        dev.rein.state.InMemoryRunStore store = new dev.rein.state.InMemoryRunStore();
        Agent agent = Agent.builder().model(model).tools(send).secrets(SECRETS).store(store).build();
        RunResult paused = agent.run("go");
        dev.rein.state.Runs elsewhere = dev.rein.state.Runs.in(store);
        elsewhere.edit(paused.runId(), paused.pendingApprovals().get(0).actionHash(),
                Json.parse("{\"to\":\"" + SECRET + "\"}"), "alice");
        elsewhere.reject(paused.runId(), paused.pendingApprovals().get(1).actionHash(), "鍵 " + SECRET + " は渡さない", "bob");

        dev.rein.state.RunView view = agent.runs().show(paused.runId());

        assertThat(view.decided()).hasSize(2);
        assertThat(view.decided().get(0).describe()).contains("approved with edited arguments {\"to\":\"[REDACTED:key]\"}")
                .doesNotContain(SECRET);
        assertThat(view.decided().get(1).describe()).contains("rejected (鍵 [REDACTED:key] は渡さない)").doesNotContain(SECRET);
        assertThat(view.describe()).doesNotContain(SECRET);
    }

    @Test
    void aLookupsValueTooShortToMaskIsRefusedToTheHandlerNotHandedOutUnmasked() {
        // docs/safety.md: values shorter than 4 characters are refused, since they cannot be masked;
        // Secrets.of refuses them at once, a lookup when it would hand one out
        Secrets lookup = name -> java.util.Optional.of("pin".equals(name) ? "731" : "long-enough-value");
        Tool echo = Tool.builder("echo_pin").description("echoes")
                .handler((args, ctx) -> "pin " + ctx.secrets().get("pin").orElseThrow()).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("echo_pin", "{}")), text("ok"));

        RunResult done = Agent.builder().model(model).tools(echo).secrets(lookup).build().run("go");

        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        // before: the handler got "731" and the model read "pin 731"
        assertThat(lastToolResult(model)).doesNotContain("731").contains("secret 'pin' is shorter than 4 characters");
    }

    @Test
    void aLookupsNameThatWouldBreakItsMarkerIsRefusedToTheHandlerAsSecretsOfRefusesIt() {
        // docs/safety.md: a lookup's names are checked when a handler asks for one; before, the value was handed out and
        // masked as "[REDACTED:api]key]", whose "key]" a quote's cut could show as the text's own
        Secrets lookup = name -> java.util.Optional.of("long-enough-value");
        Tool echo = Tool.builder("echo_key").description("echoes")
                .handler((args, ctx) -> "key " + ctx.secrets().get("api]key").orElseThrow()).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("echo_key", "{}")), text("ok"));

        RunResult done = Agent.builder().model(model).tools(echo).secrets(lookup).build().run("go");

        assertThat(done.status()).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(lastToolResult(model)).doesNotContain("long-enough-value").doesNotContain("[REDACTED:api]")
                .contains("secret 'api]key' has ']' in its name, which would end its [REDACTED:name] marker early:"
                        + " name it without ']'");
    }

    @Test
    void aLookupsBadNameWithNoValueLetsTheHandlersDefaultStandAndNoNameIsAnErrorTheModelReads() {
        // docs/safety.md: only a bad name whose lookup has a value fails; before, "api]key" threw with no value to hand out
        Secrets unset = name -> java.util.Optional.empty();
        Tool echo = Tool.builder("echo_key").description("echoes")
                .handler((args, ctx) -> "key " + ctx.secrets().get("api]key").orElse("none")).build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("echo_key", "{}")), text("ok"));
        assertThat(Agent.builder().model(model).tools(echo).secrets(unset).build().run("go").status())
                .isEqualTo(RunStatus.SUCCEEDED);
        assertThat(lastToolResult(model)).contains("key none");

        Tool noName = Tool.builder("no_name").description("asks for no name")
                .handler((args, ctx) -> "key " + ctx.secrets().get(null).orElse("none")).build();
        ScriptedModel asked = ScriptedModel.of(toolCalls(call("no_name", "{}")), text("ok"));
        assertThat(Agent.builder().model(asked).tools(noName).secrets(unset).build().run("go").status())
                .isEqualTo(RunStatus.SUCCEEDED);
        List<Message> messages = asked.lastRequest().messages();
        ToolResultBlock result = (ToolResultBlock) messages.get(messages.size() - 1).content().get(0);
        assertThat(result.isError()).isTrue();
        assertThat(result.content()).contains("a tool handler asked for a secret with no name (null): pass the name the secret"
                + " is registered under");
    }

    /**
     * A secret across character 500 of a quoted reason: the fence quotes the first 500 characters, and the masking
     * after it no longer knows the half it kept, which reached the model in clear. Masked before the cut now, and
     * audited, as the note on edited arguments is.
     */
    @Test
    void aSecretAcrossTheCutOfAPersonsRejectionReasonIsMaskedBeforeTheCut() {
        Tool send = Tool.builder("send").description("sends").risk(Risk.WRITE)
                .inputSchema("{\"type\":\"object\",\"properties\":{\"to\":{\"type\":\"string\"}}}")
                .handler((args, ctx) -> "sent").build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("send", "{\"to\":\"x\"}")), text("ok"));
        dev.rein.state.InMemoryRunStore store = new dev.rein.state.InMemoryRunStore();
        dev.rein.testkit.RecordingListener trace = new dev.rein.testkit.RecordingListener();
        Agent agent = Agent.builder().model(model).tools(send).secrets(SECRETS).store(store).listener(trace).build();
        RunResult paused = agent.run("go");
        // decided where the secrets were not known (Runs.in(store)): stored in clear
        dev.rein.state.Runs.in(store).reject(paused.runId(), paused.pendingApprovals().get(0).actionHash(),
                "x".repeat(495) + SECRET + " は渡さない", "bob");

        agent.resume(paused.runId());

        assertThat(lastToolResult(model)).startsWith("A person rejected this call").contains("<untrusted_data")
                .doesNotContain(SECRET.substring(0, 5));
        assertThat(model.requests().toString()).doesNotContain(SECRET.substring(0, 5));
        assertThat(trace.events(dev.rein.trace.TraceEvent.Audit.class)).filteredOn(a -> a.kind().equals("secret_masked"))
                .singleElement().satisfies(a -> assertThat(a.detail()).isEqualTo("the rejection reason for tool 'send' contained"
                        + " the secret(s) [key]; they were masked before the model or the trace saw them"));
    }

    @Test
    void aSecretAcrossTheCutOfAScopePolicysDenyReasonIsMaskedBeforeTheCut() {
        Tool lookup = Tool.builder("lookup").description("looks up").handler((args, ctx) -> "found").build();
        ScriptedModel model = ScriptedModel.of(toolCalls(call("lookup", "{}")), text("ok"));
        dev.rein.testkit.RecordingListener trace = new dev.rein.testkit.RecordingListener();
        SafetyConfig safety = SafetyConfig.builder().scopePolicy((principal, tool, arguments) ->
                java.util.Optional.of("y".repeat(495) + SECRET + " is not yours")).build();

        Agent.builder().model(model).tools(lookup).secrets(SECRETS).safety(safety).listener(trace).build().run("go");

        assertThat(lastToolResult(model)).startsWith("Permission denied by the scope policy").contains("<untrusted_data")
                .doesNotContain(SECRET.substring(0, 5));
        assertThat(model.requests().toString()).doesNotContain(SECRET.substring(0, 5));
        assertThat(trace.events(dev.rein.trace.TraceEvent.Audit.class)).filteredOn(a -> a.kind().equals("secret_masked"))
                .singleElement().satisfies(a -> assertThat(a.detail()).contains("[key]").doesNotContain(SECRET));
    }
}
