package dev.rein.anthropic;

import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.ModelRequest;
import dev.rein.model.Role;
import dev.rein.model.TextBlock;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Decides where the {@code cache_control} breakpoints of one request go, so that each step of a
 * loop reads the earlier turns from the prompt cache instead of paying for them again.
 *
 * <ul>
 *   <li>One breakpoint on the fixed prefix: the last system block, or the last tool when there is
 *       no system prompt (tools are rendered before the system prompt, so either covers both).
 *   <li>A moving breakpoint on the last cacheable block of the conversation. The next step's
 *       request starts with this one's, so its lookup finds this entry.
 *   <li>The cache looks back at most {@value #LOOKBACK_BLOCKS} blocks from a breakpoint for an
 *       earlier entry. When more than {@value #INTERMEDIATE_AFTER} blocks were added since the
 *       previous step's moving breakpoint (the end of the history before the latest assistant
 *       turn), intermediate breakpoints are placed at most {@value #INTERMEDIATE_AFTER} blocks apart
 *       so that the chain of lookups still reaches the previous entry.
 *   <li>At most {@value #MAX_BREAKPOINTS} breakpoints in total (an API limit).
 * </ul>
 *
 * Only text, tool use and tool result blocks are marked: the API refuses {@code cache_control} on
 * thinking blocks, and Rein does not know the schema of opaque provider blocks. Blank text blocks
 * are not sent at all (see {@link RequestMapper#sendable}), so they are never marked either.
 */
final class CacheBreakpoints {
    static final int MAX_BREAKPOINTS = 4;
    static final int LOOKBACK_BLOCKS = 20;
    static final int INTERMEDIATE_AFTER = 15;

    /** A content block by message index and block index. */
    record Position(int message, int block) {}

    /** Where to put breakpoints; {@code tool} is -1 when no tool is marked. */
    record Plan(boolean system, int tool, Set<Position> blocks) {
        static final Plan NONE = new Plan(false, -1, Set.of());

        boolean marks(int message, int block) {
            return blocks.contains(new Position(message, block));
        }

        /** Whether any block of message {@code message} is marked. */
        boolean marksMessage(int message) {
            for (Position p : blocks) {
                if (p.message() == message) {
                    return true;
                }
            }
            return false;
        }

        int count() {
            return (system ? 1 : 0) + (tool >= 0 ? 1 : 0) + blocks.size();
        }
    }

    private CacheBreakpoints() {}

    /**
     * Work is proportional to the blocks added since the previous step, not to the history: the
     * scan walks back from the end to the previous step's breakpoint and stops there.
     */
    static Plan plan(ModelRequest request) {
        return plan(request, MAX_BREAKPOINTS);
    }

    /**
     * The plan with at most {@code max} breakpoints: fewer than the API's limit behind a gateway that
     * adds breakpoints of its own (the fixed prefix's goes first, then the moving one).
     */
    static Plan plan(ModelRequest request, int max) {
        max -= serverToolBreakpoints(request); // the request's own: the API's limit counts every cache_control
        if (!AnthropicOptions.of(request).caching().enabled() || max <= 0) {
            return Plan.NONE;
        }
        boolean system = RequestMapper.anySendable(request.system());
        int tool = !system && !request.tools().isEmpty() ? request.tools().size() - 1 : -1;
        int budget = max - (system || tool >= 0 ? 1 : 0);
        List<Message> messages = request.messages();
        Position newest = lastCacheableBefore(messages, messages.size());
        if (newest == null || budget <= 0) {
            return new Plan(system, tool, Set.of());
        }
        int lastAssistant = lastAssistant(messages);
        Position previous = lastAssistant < 0 ? null : lastCacheableBefore(messages, lastAssistant);
        Set<Position> marked = new HashSet<>();
        if (previous != null) {
            // The blocks from the previous breakpoint (flat index 0) to the newest block.
            List<Position> flat = new ArrayList<>();
            List<Boolean> cacheable = new ArrayList<>();
            for (int m = previous.message(); m < messages.size(); m++) {
                List<ContentBlock> content = messages.get(m).content();
                for (int b = m == previous.message() ? previous.block() : 0; b < content.size(); b++) {
                    flat.add(new Position(m, b));
                    cacheable.add(isCacheable(content.get(b)));
                }
            }
            int end = lastCacheable(cacheable, flat.size() - 1, -1);
            int anchor = 0;
            while (end - anchor > INTERMEDIATE_AFTER && budget > 1) {
                int next = lastCacheable(cacheable, anchor + INTERMEDIATE_AFTER, anchor);
                if (next < 0) {
                    break;
                }
                marked.add(flat.get(next));
                budget--;
                anchor = next;
            }
        }
        marked.add(newest);
        return new Plan(system, tool, Set.copyOf(marked));
    }

    /**
     * The {@code cache_control} entries the caller wrote on server tools ({@link AnthropicServerTools}), sent as given:
     * the API's limit of four counts them with Rein's.
     */
    static int serverToolBreakpoints(ModelRequest request) {
        return request.option(AnthropicServerTools.class)
                .map(tools -> (int) tools.tools().stream().filter(tool -> tool.hasNonNull("cache_control")).count())
                .orElse(0);
    }

    /** The last cacheable block in the messages before {@code end}, or null. */
    private static Position lastCacheableBefore(List<Message> messages, int end) {
        for (int m = end - 1; m >= 0; m--) {
            List<ContentBlock> content = messages.get(m).content();
            for (int b = content.size() - 1; b >= 0; b--) {
                if (isCacheable(content.get(b))) {
                    return new Position(m, b);
                }
            }
        }
        return null;
    }

    static boolean isCacheable(ContentBlock block) {
        return switch (block) {
            case TextBlock t -> RequestMapper.sendable(t);
            case ToolUseBlock u -> true;
            case ToolResultBlock r -> true;
            default -> false;
        };
    }

    private static int lastAssistant(List<Message> messages) {
        for (int m = messages.size() - 1; m >= 0; m--) {
            if (messages.get(m).role() == Role.ASSISTANT) {
                return m;
            }
        }
        return -1;
    }

    /** The highest cacheable flat index in {@code (floor, from]}, or -1. */
    private static int lastCacheable(List<Boolean> cacheable, int from, int floor) {
        for (int i = Math.min(from, cacheable.size() - 1); i > floor; i--) {
            if (cacheable.get(i)) {
                return i;
            }
        }
        return -1;
    }
}
