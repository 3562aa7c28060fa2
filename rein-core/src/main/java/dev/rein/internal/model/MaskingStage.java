package dev.rein.internal.model;

import dev.rein.model.ContentBlock;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelException;
import dev.rein.model.ModelInterceptor;
import dev.rein.model.ModelResponse;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolUseBlock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Masks every known secret in a response's text and tool calls before anything acts on it,
 * traces it, stores it or sends it back: a tool never receives a secret from the model, and an
 * approval shows the arguments that will run. Thinking blocks stay as they are (their signature
 * covers the text); the store masks them.
 */
public final class MaskingStage implements ModelInterceptor {
    private final UnaryOperator<ContentBlock> mask;

    public MaskingStage(UnaryOperator<ContentBlock> mask) {
        this.mask = mask;
    }

    @Override
    public ModelResponse intercept(ModelCall call, Chain chain) throws ModelException, InterruptedException {
        ModelResponse response = chain.proceed(call);
        List<ContentBlock> original = response.content();
        List<ContentBlock> content = new ArrayList<>(original.size());
        boolean same = true; // the mask hands back the same block when there is nothing to mask: no deep comparison then
        for (ContentBlock block : original) {
            ContentBlock masked = block instanceof TextBlock || block instanceof ToolUseBlock ? mask.apply(block) : block;
            same &= masked == block;
            content.add(masked);
        }
        return same || content.equals(original) ? response
                : new ModelResponse(response.id(), response.model(), content, response.stopReason(), response.stopSequence(),
                        response.usage(), response.stopDetail());
    }

    @Override
    public String toString() {
        return "secret masking";
    }
}
