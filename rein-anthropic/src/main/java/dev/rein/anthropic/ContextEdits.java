package dev.rein.anthropic;

import com.anthropic.core.ObjectMappers;
import com.anthropic.models.beta.AnthropicBeta;
import com.fasterxml.jackson.databind.JsonNode;
import com.anthropic.models.beta.messages.BetaClearToolUses20250919Edit;
import com.anthropic.models.beta.messages.BetaCompact20260112Edit;
import com.anthropic.models.beta.messages.BetaContextManagementConfig;
import com.anthropic.models.beta.messages.BetaInputTokensClearAtLeast;
import com.anthropic.models.beta.messages.BetaInputTokensTrigger;
import dev.rein.model.ServerContextEdit;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Server-side context management. The stable Messages API types of the SDK have no
 * {@code context_management} field, so the body is built with the SDK's beta types (which know the
 * exact wire names) and written into the request, with the beta header it needs.
 */
final class ContextEdits {
    private ContextEdits() {}

    /** The {@code context_management} body value. */
    static JsonNode body(List<ServerContextEdit> edits) {
        BetaContextManagementConfig.Builder config = BetaContextManagementConfig.builder();
        for (ServerContextEdit edit : edits) {
            switch (edit) {
                case ServerContextEdit.ClearToolUses clear -> config.addEdit(clearToolUses(clear));
                case ServerContextEdit.Compact compact -> config.addEdit(compact(compact));
            }
        }
        return ObjectMappers.jsonMapper().valueToTree(config.build());
    }

    /** The {@code anthropic-beta} values the edits need. */
    static Set<String> betas(List<ServerContextEdit> edits) {
        Set<String> betas = new LinkedHashSet<>();
        betas.add(AnthropicBeta.CONTEXT_MANAGEMENT_2025_06_27.asString());
        for (ServerContextEdit edit : edits) {
            if (edit instanceof ServerContextEdit.Compact) {
                betas.add(AnthropicBeta.COMPACT_2026_01_12.asString());
            }
        }
        return betas;
    }

    private static BetaClearToolUses20250919Edit clearToolUses(ServerContextEdit.ClearToolUses clear) {
        BetaClearToolUses20250919Edit.Builder b = BetaClearToolUses20250919Edit.builder();
        if (clear.triggerInputTokens() != null) {
            b.inputTokensTrigger(clear.triggerInputTokens());
        }
        if (clear.keepToolUses() != null) {
            b.toolUsesKeep(clear.keepToolUses());
        }
        if (clear.clearAtLeastTokens() != null) {
            b.clearAtLeast(BetaInputTokensClearAtLeast.builder().value(clear.clearAtLeastTokens()).build());
        }
        if (!clear.excludeTools().isEmpty()) {
            b.excludeTools(clear.excludeTools());
        }
        if (clear.clearToolInputs()) {
            b.clearToolInputs(true);
        }
        return b.build();
    }

    private static BetaCompact20260112Edit compact(ServerContextEdit.Compact compact) {
        BetaCompact20260112Edit.Builder b = BetaCompact20260112Edit.builder();
        if (compact.triggerInputTokens() != null) {
            b.trigger(BetaInputTokensTrigger.builder().value(compact.triggerInputTokens()).build());
        }
        if (compact.instructions() != null && !compact.instructions().isBlank()) {
            b.instructions(compact.instructions());
        }
        return b.build();
    }
}
