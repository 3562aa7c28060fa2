package dev.rein.cli;

import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.anthropic.AnthropicProvider;
import dev.rein.budget.ModelPrice;
import dev.rein.eval.Environment;
import dev.rein.eval.Suite;
import dev.rein.eval.Task;
import dev.rein.eval.TrialModel;
import dev.rein.model.Model;
import dev.rein.model.ModelOption;
import dev.rein.openai.OpenAiProvider;
import dev.rein.openai.OpenAiReasoningEffort;
import dev.rein.provider.OptionedModel;
import dev.rein.provider.PricedModel;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * How much the model thinks before it answers, for every command that runs a real model ({@code run}, {@code eval},
 * {@code example}): {@code --thinking} (Claude's extended thinking) and {@code --reasoning-effort} (Chat Completions'
 * {@code reasoning_effort}), each refused for the other provider.
 */
public final class ReasoningOptions {
    @ExampleValue("adaptive")
    @Option(names = "--thinking", paramLabel = "adaptive|between_tools|N", converter = OptionValues.Thinking.class,
            description = "Let Claude think before answering (extended thinking): adaptive (the model decides how much),"
                    + " between_tools (Claude Sonnet 5.5: none before the first tool call), or a"
                    + " budget of N thinking tokens, at least 1024 and below max_tokens (--max-tokens of rein run; an"
                    + " agent's own, else 8192), on models before Claude 4.7 only (such as claude-sonnet-4-5; the default"
                    + " model takes none). Thinking tokens are billed as output. Anthropic provider only.")
    String thinking;

    @ExampleValue("none")
    @Option(names = "--reasoning-effort", paramLabel = "LEVEL", converter = OptionValues.ReasoningEffort.class,
            description = "How much a reasoning model thinks before answering, sent as reasoning_effort: none, minimal, low,"
                    + " medium, high or xhigh (which ones the model takes is its own). none lets OpenAI's gpt-5.4 and later"
                    + " call tools on Chat Completions. Reasoning tokens are billed as output. OpenAI provider only.")
    String reasoningEffort;

    /** The first of the options given, as written on the command line, or null when neither is. */
    String given() {
        return thinking != null ? "--thinking" : reasoningEffort != null ? "--reasoning-effort" : null;
    }

    /**
     * Refuses an option of another provider's API, which that provider would never send.
     *
     * @throws UsageException for --thinking without the Anthropic provider or --reasoning-effort without OpenAI's
     */
    void requireProvider(ProviderSelection provider) {
        if (thinking != null && !provider.provider().equals(AnthropicProvider.NAME)) {
            throw new UsageException("--thinking is an option of the Anthropic Messages API, and the provider is '"
                    + provider.provider() + "': leave --thinking out, or use --provider anthropic");
        }
        if (reasoningEffort != null && !provider.provider().equals(OpenAiProvider.NAME)) {
            throw new UsageException("--reasoning-effort is an option of OpenAI Chat Completions (reasoning_effort), and the"
                    + " provider is '" + provider.provider() + "': leave --reasoning-effort out (Claude's is --thinking), or use"
                    + " --provider openai");
        }
    }

    /**
     * Refuses thinking the model is refused when the run's agent is built, in the library's terms; said here in the options'
     * terms, before anything starts: a thinking budget ({@code --thinking N}) on every model from Claude 4.7 on
     * ({@link dev.rein.anthropic.AnthropicThinking#refusesBudgets}), and {@code --thinking between_tools} on those of them
     * other than Claude Sonnet 5.5 ({@link dev.rein.anthropic.AnthropicThinking#refusesBetweenTools}).
     *
     * @param modelName the model the run's requests go to
     * @param isDefault whether it is the default model (no --model given)
     * @throws UsageException naming the value and the model, and saying to give --thinking adaptive
     */
    void requireThinkingTakenBy(String modelName, boolean isDefault) {
        if (thinking == null || thinking.equals(OptionValues.Thinking.ADAPTIVE)) {
            return;
        }
        String model = modelName + (isDefault ? " (the default model)" : "");
        if (thinking.equals(OptionValues.Thinking.BETWEEN_TOOLS)) {
            if (dev.rein.anthropic.AnthropicThinking.refusesBetweenTools(modelName)) {
                throw new UsageException("--thinking between_tools cannot be used on " + model + ": only Claude Sonnet 5.5"
                        + " takes between_tools thinking, and the API refuses it on other models; give --thinking adaptive (the"
                        + " model decides how much to think, as its effort guides it), or leave --thinking out, or choose"
                        + " Claude Sonnet 5.5 with --model claude-sonnet-5-5");
            }
            return;
        }
        if (dev.rein.anthropic.AnthropicThinking.refusesBudgets(modelName)) {
            throw new UsageException("--thinking " + thinking + " is a thinking budget, and " + model + " takes none: the API"
                    + " refuses a budget on every model from Claude 4.7 on (\"thinking.type.enabled\" is not supported for"
                    + " this model); give --thinking adaptive (the model decides how much to think, as its effort guides it),"
                    + " or leave --thinking out, or choose a model before Claude 4.7 with --model (e.g. claude-sonnet-4-5)");
        }
    }

    /**
     * Refuses, before any trial or demo run, an option an agent of {@code suite} cannot take (its build would refuse it in
     * every trial): above all a thinking budget not below the agent's own max_tokens, said in the options' terms. Each
     * task's agent is built once, in a fresh environment, with the options on a model that is never called; when that is
     * refused it is built again there without them (for its max_tokens), and an agent that cannot be built even without
     * them is left to its trials, which report it as before.
     *
     * @param suite     the suite whose agents get the options
     * @param modelName the model the trials run on
     * @param raise     how to raise an agent's max_tokens, e.g. "agent.max_tokens in the suite"; null when there is no way
     * @throws UsageException naming the option, its value, the task, the agent's max_tokens and what to do
     */
    void requireRoomIn(Suite suite, String modelName, String raise) {
        List<ModelOption> options = modelOptions();
        if (options.isEmpty()) {
            return;
        }
        Model standIn = PricedModel.of((request, context) -> {
            throw new IllegalStateException("the options' check calls no model");
        }, modelName, ModelPrice.of("0", "0", "0"));
        for (Task<?> task : suite.tasks()) {
            refused(task, new TrialModel(standIn, modelName), new TrialModel(OptionedModel.of(standIn, options), modelName), raise);
        }
    }

    private <E extends Environment> void refused(Task<E> task, TrialModel plain, TrialModel optioned, String raise) {
        // one environment, and one build on the usual path: a task's environment may be costly to make (the code
        // example's is a git repository)
        try (E env = task.newEnvironment()) {
            env.reset();
            try {
                task.agent().create(env, optioned);
                return;
            } catch (ReinException e) {
                int maxTokens;
                try {
                    Agent agent = task.agent().create(env, plain);
                    if (agent == null) {
                        return;
                    }
                    maxTokens = agent.config().maxTokens();
                } catch (Exception notTheOptions) {
                    return; // not the options' doing: the trials report it as before
                }
                String option = thinking != null ? "--thinking " + thinking : "--reasoning-effort " + reasoningEffort;
                String agent = "the agent of task '" + task.id() + "'";
                if (thinking != null && !thinking.equals(OptionValues.Thinking.ADAPTIVE)
                        && !thinking.equals(OptionValues.Thinking.BETWEEN_TOOLS) && Integer.parseInt(thinking) >= maxTokens) {
                    throw new UsageException(option + " must be below max_tokens, which is " + maxTokens + " for " + agent
                            + ", as the API wants thinking's budget below it: give a budget below " + maxTokens
                            + " (or --thinking adaptive)" + (raise == null ? "" : ", or raise " + raise));
                }
                throw new UsageException(option + " cannot be used with " + agent + ": " + e.getMessage());
            }
        } catch (UsageException e) {
            throw e;
        } catch (Exception e) {
            // an environment that cannot be made, or an agent that fails otherwise: the trials report it as before
        }
    }

    /** The model options the given values stand for: what every request of the model sends. */
    List<ModelOption> modelOptions() {
        return modelOptions(thinking, reasoningEffort);
    }

    /**
     * The model options of {@code thinking} and {@code reasoningEffort} as the converters return them (either null for
     * none), as a run's settings keep them.
     */
    static List<ModelOption> modelOptions(String thinking, String reasoningEffort) {
        List<ModelOption> options = new ArrayList<>();
        if (thinking != null) {
            options.add(OptionValues.Thinking.option(thinking));
        }
        if (reasoningEffort != null) {
            options.add(OpenAiReasoningEffort.of(reasoningEffort));
        }
        return List.copyOf(options);
    }
}
