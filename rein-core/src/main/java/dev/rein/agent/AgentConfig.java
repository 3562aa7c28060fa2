package dev.rein.agent;

import dev.rein.budget.Budget;
import dev.rein.budget.PriceTable;
import dev.rein.model.Model;
import dev.rein.model.ModelOptions;
import dev.rein.model.ServerContextEdit;
import dev.rein.model.ServerContextEdits;
import dev.rein.retry.RetryPolicy;
import dev.rein.tool.Principal;
import dev.rein.tool.Secrets;
import dev.rein.tool.ToolInterceptor;
import dev.rein.tool.ToolRegistry;
import dev.rein.trace.RunListenerFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * The validated, immutable configuration of an {@link Agent}. Build it with {@link Agent#builder()}.
 *
 * @param modelOptions       provider options sent with every model request
 * @param serverContextEdits the builder's edits plus those of the context policy's server side
 * @param verifiers          the builder's verifiers, then the required facts (if any)
 */
public record AgentConfig(Model model, String modelName, String systemPrompt, ToolRegistry tools, Budget budget,
                          PriceTable prices, int maxTokens, ModelOptions modelOptions,
                          List<ServerContextEdit> serverContextEdits, List<Verifier> verifiers,
                          int maxVerificationFailures, boolean finishTool, Duration toolTimeout,
                          List<ToolInterceptor> interceptors, List<RunListenerFactory> listeners,
                          RetryPolicy retryPolicy, Clock clock, Principal principal, Secrets secrets,
                          Double temperature, Supplier<String> runIdSupplier, GuardConfig guards,
                          SafetyConfig safety) {

    /** The options of each model request: {@link #modelOptions()}, plus the server-side context edits if any. */
    public ModelOptions requestOptions() {
        return serverContextEdits.isEmpty() ? modelOptions : modelOptions.with(new ServerContextEdits(serverContextEdits));
    }

    /** A copy that also creates a listener from {@code factory} for each run (harnesses record runs this way). */
    public AgentConfig withListener(RunListenerFactory factory) {
        List<RunListenerFactory> all = new java.util.ArrayList<>(listeners);
        all.add(java.util.Objects.requireNonNull(factory, "factory"));
        return new AgentConfig(model, modelName, systemPrompt, tools, budget, prices, maxTokens, modelOptions,
                serverContextEdits, verifiers, maxVerificationFailures, finishTool, toolTimeout, interceptors,
                List.copyOf(all), retryPolicy, clock, principal, secrets, temperature, runIdSupplier, guards, safety);
    }
}
