package dev.rein.internal.context;

import dev.rein.context.Compaction;
import dev.rein.context.OutputStore;
import dev.rein.context.TokenEstimator;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Client-side clearing: every tool result but the newest {@code keep} is replaced by a placeholder
 * (its full text goes to the output store first). The blocks stay where they are, with their ids
 * and error flags, so every tool_use keeps its tool_result and the history stays valid.
 */
final class ToolResultClearing {
    /** Starts every placeholder, so an already cleared result is recognised (also after a resume). */
    static final String MARKER = "[rein: cleared]";
    /**
     * Results shorter than this that are also estimated at no more than {@link #MIN_CLEARABLE_TOKENS}
     * are left alone: the placeholder would not be smaller.
     */
    static final int MIN_CLEARABLE = 300;
    /**
     * The estimate of {@link #MIN_CLEARABLE} ASCII characters: what matters is the context a result
     * takes, and 100 Japanese characters are estimated at 100 tokens, more than the placeholder costs.
     */
    static final int MIN_CLEARABLE_TOKENS = MIN_CLEARABLE / 4;

    /**
     * The edited history; {@code notStored} results were left in place because the store refused
     * their text ({@code storeError} says why, null when none was refused).
     */
    record Result(List<Message> history, int cleared, long characters, int notStored, String storeError) {}

    private ToolResultClearing() {}

    static Result clear(List<Message> history, int keep, Set<String> excludeTools, OutputStore store) {
        Map<String, String> toolNames = new HashMap<>();
        int results = 0;
        for (Message message : history) {
            for (ContentBlock block : message.content()) {
                if (block instanceof ToolUseBlock use) {
                    toolNames.put(use.id(), use.name());
                } else if (block instanceof ToolResultBlock) {
                    results++;
                }
            }
        }
        int toClear = results - keep;
        if (toClear <= 0) {
            return new Result(history, 0, 0, 0, null);
        }
        List<Message> edited = new ArrayList<>(history.size());
        int seen = 0;
        int cleared = 0;
        long characters = 0;
        int notStored = 0;
        String storeError = null;
        for (Message message : history) {
            List<ContentBlock> blocks = new ArrayList<>(message.content().size());
            boolean changed = false;
            for (ContentBlock block : message.content()) {
                if (block instanceof ToolResultBlock result && seen++ < toClear && clearable(result, toolNames, excludeTools)) {
                    String sha256;
                    try {
                        sha256 = store.put(result.content());
                    } catch (RuntimeException e) {
                        // a text that cannot be kept out of band stays in the history: clearing must lose nothing
                        notStored++;
                        storeError = storeError != null ? storeError : e.getClass().getSimpleName() + ": " + e.getMessage();
                        blocks.add(block);
                        continue;
                    }
                    String tool = toolNames.getOrDefault(result.toolUseId(), "unknown");
                    blocks.add(new ToolResultBlock(result.toolUseId(), placeholder(tool, result.content(), sha256), result.isError()));
                    characters += result.content().codePointCount(0, result.content().length()); // as the placeholder counts them
                    cleared++;
                    changed = true;
                } else {
                    blocks.add(block);
                }
            }
            edited.add(changed ? new Message(message.role(), blocks) : message);
        }
        return new Result(List.copyOf(edited), cleared, characters, notStored, storeError);
    }

    private static boolean clearable(ToolResultBlock result, Map<String, String> toolNames, Set<String> excludeTools) {
        String content = result.content();
        return !content.startsWith(MARKER)
                && (content.length() >= MIN_CLEARABLE || TokenEstimator.text(content) > MIN_CLEARABLE_TOKENS)
                && !excludeTools.contains(toolNames.get(result.toolUseId()));
    }

    private static String placeholder(String tool, String content, String sha256) {
        return String.format(Locale.ROOT, "%s This result of '%s' (%,d characters, kept out of band as sha256:%s) was"
                + " removed to save context. Call the tool again if you need it.", MARKER, tool,
                content.codePointCount(0, content.length()), sha256.substring(0, Math.min(16, sha256.length())));
    }
}
