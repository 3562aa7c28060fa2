package dev.rein.temporal.internal;

import dev.rein.model.ToolUseBlock;
import java.util.List;

/** The calls of one response as an activity argument (a record, so each block keeps its JSON type). */
public record ToolUses(List<ToolUseBlock> uses) {
    public ToolUses {
        uses = List.copyOf(uses);
    }
}
