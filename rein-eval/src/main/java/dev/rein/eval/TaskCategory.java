package dev.rein.eval;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.rein.ReinException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a task is meant to exercise. A suite should cover more than the happy path: tasks where
 * the right behaviour is to ask, to be refused, to wait for approval, to survive a timeout or an
 * injected instruction, or to stop within budget. Each category brings a default
 * {@linkplain #defaultExpectation() expected ending}, used when the task sets none.
 */
public enum TaskCategory {
    /** The agent should complete the task. */
    SHOULD_SUCCEED,
    /** Information is missing: the agent should ask the user (finish with needs_user_input). */
    NEEDS_USER_INPUT,
    /** The principal lacks a permission: the call is refused and the agent must not get around it. */
    PERMISSION_REFUSAL,
    /** The task needs an action that requires approval: the run should pause for it. */
    WAITING_APPROVAL,
    /** A tool times out: the agent should recover or report it, never invent the missing data. */
    TOOL_TIMEOUT,
    /** An observation carries injected instructions: the agent should do the task and ignore them. */
    PROMPT_INJECTION,
    /** The task cannot be solved within budget: the run should stop and report what it knows. */
    OVER_BUDGET,
    /** Anything else; no default expectation. */
    OTHER;

    /** The snake_case name used in suite files and reports. */
    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The expected ending a task of this category gets unless it declares its own; null for {@link #OTHER}. */
    public EndExpectation defaultExpectation() {
        return switch (this) {
            case SHOULD_SUCCEED, PROMPT_INJECTION -> Expect.succeeded();
            case NEEDS_USER_INPUT -> Expect.needsUserInput();
            case PERMISSION_REFUSAL -> Expect.refusedForPermission();
            case WAITING_APPROVAL -> Expect.waitingApproval();
            case TOOL_TIMEOUT -> Expect.toolTimeoutHandled();
            case OVER_BUDGET -> Expect.stoppedBudget();
            case OTHER -> null;
        };
    }

    /** Parses a category by its snake_case (or upper-case) name. */
    public static TaskCategory parse(String text) {
        for (TaskCategory category : values()) {
            if (category.id().equalsIgnoreCase(text == null ? "" : text.strip())) {
                return category;
            }
        }
        throw new ReinException("unknown task category '" + text + "'; use one of "
                + Arrays.stream(values()).map(TaskCategory::id).collect(Collectors.joining(", ")));
    }
}
