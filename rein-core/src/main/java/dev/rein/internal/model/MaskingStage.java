package dev.rein.internal.model;

import dev.rein.model.ContentBlock;
import dev.rein.model.ModelCall;
import dev.rein.model.ModelException;
import dev.rein.model.ModelResponse;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolUseBlock;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;

/**
 * Masks every known secret in a response's text and tool calls before anything acts on it,
 * traces it, stores it or sends it back: a tool never receives a secret from the model, and an
 * approval shows the arguments that will run. Thinking blocks stay as they are (their signature
 * covers the text); the store masks them. Each block masked is reported (to audit it).
 */
public final class MaskingStage implements BuiltInStage {
    private final UnaryOperator<ContentBlock> mask;
    private final BiConsumer<ContentBlock, ContentBlock> masked;

    public MaskingStage(UnaryOperator<ContentBlock> mask) {
        this(mask, (original, changed) -> {});
    }

    /** @param masked told of each block that held a secret: the block as the model wrote it, then as masked */
    public MaskingStage(UnaryOperator<ContentBlock> mask, BiConsumer<ContentBlock, ContentBlock> masked) {
        this.mask = mask;
        this.masked = masked;
    }

    @Override
    public Chain bind(Chain next) {
        return new Bound(next);
    }

    /** This stage bound to the rest of the chain: one frame per stage on a waiting run's stack (see BuiltInStage). */
    private final class Bound extends BuiltInStage.Bound {
        Bound(Chain next) {
            super(next);
        }

        @Override
        public ModelResponse proceed(ModelCall call) throws ModelException, InterruptedException {
            ModelResponse response = next.proceed(call);
            List<ContentBlock> original = response.content();
            List<ContentBlock> content = new ArrayList<>(original.size());
            boolean same = true; // the mask hands back the same block when there is nothing to mask: no deep comparison then
            for (ContentBlock block : original) {
                ContentBlock maskedBlock = block instanceof TextBlock || block instanceof ToolUseBlock ? mask.apply(block) : block;
                if (maskedBlock != block && !maskedBlock.equals(block)) {
                    masked.accept(block, maskedBlock);
                }
                same &= maskedBlock == block;
                content.add(maskedBlock);
            }
            // withContent keeps every other field, one added later too: a constructor here dropped each field it did not name
            return same || content.equals(original) ? response : response.withContent(content);
        }
    }

    @Override
    public String toString() {
        return "secret masking";
    }
}
