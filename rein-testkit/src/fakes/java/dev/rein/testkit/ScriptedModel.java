package dev.rein.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.Model;
import dev.rein.model.ModelCallContext;
import dev.rein.model.ModelException;
import dev.rein.model.ModelRequest;
import dev.rein.model.ModelResponse;
import dev.rein.model.StopReason;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.model.Usage;
import dev.rein.budget.ModelPrice;
import dev.rein.budget.PriceTable;
import dev.rein.provider.ModelDefaults;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A model that answers from a script and records every request it receives. Each instance has its
 * own script and log (no static state). When the script runs out, calls fail with a
 * non-retryable {@link ModelException} so a test never passes by accident.
 *
 * <pre>{@code
 * ScriptedModel model = ScriptedModel.of(
 *         ScriptedModel.toolCalls(ScriptedModel.call("calculate", "{\"expression\":\"2+2\"}")),
 *         ScriptedModel.text("4"));
 * }</pre>
 */
public final class ScriptedModel implements Model, ModelDefaults {
    /** The model name an agent uses with a scripted model unless it sets one. */
    public static final String DEFAULT_NAME = "scripted-model";
    /**
     * Prices of {@link #DEFAULT_NAME} (USD per million tokens: 3 input, 0.30 cache read, 3.75 cache
     * write, 6 for the cache write class {@code 1h}, 15 output), so money budgets can be tested offline.
     */
    public static final PriceTable PRICES = PriceTable.empty()
            .with(DEFAULT_NAME, ModelPrice.of("3.00", "0.30", "3.75", "15.00").withCacheWriteClass("1h", "6.00"));
    /** Usage reported by replies that do not set their own. */
    public static final Usage DEFAULT_USAGE = Usage.of(100, 20, 0, 0);

    /** One scripted turn: computes the response to a request (it may inspect it, wait or fail). */
    @FunctionalInterface
    public interface Turn {
        ModelResponse answer(ModelRequest request, int callNumber) throws ModelException, InterruptedException;
    }

    /** A proposed tool call in a scripted reply. */
    public record Call(String name, JsonNode input) {}

    private final ConcurrentLinkedDeque<Turn> script;
    private final List<ModelRequest> requests = new CopyOnWriteArrayList<>();
    private final AtomicInteger calls = new AtomicInteger();

    private ScriptedModel(List<Turn> turns) {
        this.script = new ConcurrentLinkedDeque<>(turns);
    }

    /** {@value #DEFAULT_NAME}. */
    @Override
    public String defaultModelName() {
        return DEFAULT_NAME;
    }

    /** {@link #PRICES}. */
    @Override
    public PriceTable prices() {
        return PRICES;
    }

    public static ScriptedModel of(Turn... turns) {
        return new ScriptedModel(List.of(turns));
    }

    public static ScriptedModel of(List<Turn> turns) {
        return new ScriptedModel(turns);
    }

    /** Adds turns at the end of the script. */
    public ScriptedModel then(Turn... turns) {
        script.addAll(List.of(turns));
        return this;
    }

    @Override
    public ModelResponse call(ModelRequest request, ModelCallContext context) throws ModelException, InterruptedException {
        requests.add(request);
        int number = calls.incrementAndGet();
        Turn turn = script.pollFirst();
        if (turn == null) {
            throw new ModelException(ModelException.Kind.OTHER, 0,
                    "the scripted model has no reply left for call " + number, false, null, null, null);
        }
        ModelResponse response = turn.answer(request, number);
        for (ContentBlock block : response.content()) {
            if (block instanceof TextBlock t) {
                context.stream().onTextDelta(t.text());
            } else if (block instanceof ToolUseBlock use) {
                context.stream().onToolUseStart(use.id(), use.name());
                context.stream().onToolInputDelta(use.id(), Json.write(use.input()));
            }
        }
        return response;
    }

    /** Every request received, in order. */
    public List<ModelRequest> requests() {
        return List.copyOf(requests);
    }

    public ModelRequest lastRequest() {
        if (requests.isEmpty()) {
            throw new IllegalStateException("the scripted model received no request");
        }
        return requests.get(requests.size() - 1);
    }

    /** Turns not used yet. */
    public int remaining() {
        return script.size();
    }

    // ---- turns ----

    /** A final text answer (stop reason end_turn). */
    public static Turn text(String text) {
        return reply(StopReason.END_TURN, DEFAULT_USAGE, new TextBlock(text));
    }

    /** A response proposing the given tool calls (stop reason tool_use); ids are assigned per call. */
    public static Turn toolCalls(Call... calls) {
        return toolCalls("", calls);
    }

    /** A response with some text and tool calls. */
    public static Turn toolCalls(String text, Call... calls) {
        return (request, number) -> {
            List<ContentBlock> blocks = new ArrayList<>();
            if (!text.isEmpty()) {
                blocks.add(new TextBlock(text));
            }
            for (int i = 0; i < calls.length; i++) {
                blocks.add(new ToolUseBlock("toolu_" + number + "_" + (i + 1), calls[i].name(), calls[i].input()));
            }
            return new ModelResponse("msg_scripted_" + number, request.model(), blocks, StopReason.TOOL_USE, null, DEFAULT_USAGE);
        };
    }

    /** A tool call with JSON arguments. */
    public static Call call(String name, String inputJson) {
        return new Call(name, Json.parse(inputJson));
    }

    /** A response with any blocks, stop reason and usage. */
    public static Turn reply(StopReason stopReason, Usage usage, ContentBlock... blocks) {
        List<ContentBlock> content = List.of(blocks);
        return (request, number) -> new ModelResponse("msg_scripted_" + number, request.model(), content, stopReason, null, usage);
    }

    /** Like {@code turn}, but reports {@code usage}. */
    public static Turn withUsage(Usage usage, Turn turn) {
        return (request, number) -> turn.answer(request, number).withUsage(usage); // every other field kept (the tier too)
    }

    /** A failing call. */
    public static Turn fail(ModelException error) {
        return (request, number) -> {
            throw error;
        };
    }

    /** A call that never answers until interrupted (to test deadlines and cancel). */
    public static Turn hang() {
        return (request, number) -> {
            Thread.sleep(Long.MAX_VALUE);
            throw new IllegalStateException("unreachable");
        };
    }

    /** Waits {@code delay}, then answers like {@code turn}. */
    public static Turn delayed(Duration delay, Turn turn) {
        return (request, number) -> {
            Thread.sleep(delay.toMillis());
            return turn.answer(request, number);
        };
    }
}
