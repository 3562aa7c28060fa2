package dev.rein.temporal;

import dev.rein.agent.Agent;
import dev.rein.approval.ApprovalPolicy;
import dev.rein.budget.Budget;
import dev.rein.testkit.RecordingListener;
import dev.rein.testkit.ScriptedModel;
import dev.rein.tool.Risk;
import dev.rein.tool.Tool;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/** An orders agent for the tests: a read tool, and a refund tool whose effect lands in a Stripe-like ledger. */
final class Orders {
    /** A fake payment ledger that deduplicates by idempotency key, as Stripe does. */
    static final class Ledger {
        final Map<String, String> charges = new ConcurrentHashMap<>();
        final List<String> keysSeen = new CopyOnWriteArrayList<>();

        String refund(String key, String order) {
            keysSeen.add(key);
            return charges.computeIfAbsent(key, k -> "re_" + (charges.size() + 1) + " for " + order);
        }
    }

    static Tool lookup() {
        return Tool.builder("lookup_order").description("Looks up an order by id")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .risk(Risk.READ).handler((args, ctx) -> "order " + args.get("id").asText() + ": 2 items, 4,200 円, 配達済み")
                .build();
    }

    static Tool refund(Ledger ledger, Consumer<String> afterEffect) {
        return Tool.builder("refund").description("Refunds an order")
                .inputSchema("{\"type\":\"object\",\"properties\":{\"id\":{\"type\":\"string\"}},\"required\":[\"id\"]}")
                .risk(Risk.WRITE).handler((args, ctx) -> {
                    String receipt = ledger.refund(ctx.idempotencyKey(), args.get("id").asText());
                    afterEffect.accept(ctx.idempotencyKey());
                    return "refunded: " + receipt;
                }).build();
    }

    static Agent.Builder agent(ScriptedModel model, RecordingListener trace, Tool... tools) {
        return Agent.builder().model(model).tools(tools).listener(trace)
                .budget(Budget.builder().maxSteps(8).maxDuration(Duration.ofMinutes(10)).build());
    }

    static Agent withApproval(Agent.Builder builder) {
        return builder.approvalPolicy(ApprovalPolicy.tools("refund")).build();
    }

    static ScriptedModel lookupThenAnswer() {
        return ScriptedModel.of(
                ScriptedModel.toolCalls(ScriptedModel.call("lookup_order", "{\"id\":\"A-1\"}"),
                        ScriptedModel.call("lookup_order", "{\"id\":\"A-2\"}")),
                ScriptedModel.text("注文 A-1 と A-2 は配達済みです。"));
    }

    static ScriptedModel refundThenAnswer() {
        return ScriptedModel.of(
                ScriptedModel.toolCalls(ScriptedModel.call("refund", "{\"id\":\"A-1\"}")),
                ScriptedModel.text("A-1 refunded."));
    }

    private Orders() {}
}
