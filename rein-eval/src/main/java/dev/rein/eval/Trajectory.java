package dev.rein.eval;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.agent.RunResult;
import dev.rein.run.RunStatus;
import dev.rein.internal.text.DeadlineRefusal;
import dev.rein.json.Json;
import dev.rein.model.ContentBlock;
import dev.rein.model.Message;
import dev.rein.model.Role;
import dev.rein.model.ToolResultBlock;
import dev.rein.model.ToolUseBlock;
import dev.rein.tool.ErrorClass;
import dev.rein.trace.TraceEvent;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What a run did, read from its history and trace: the tool calls the model proposed, the
 * observations the executor returned, the runtime's interventions and the approvals asked for.
 * Immutable.
 */
public final class Trajectory {
    /**
     * Error classes of calls that were stopped before their handler ran. A call with any other
     * class (including classes added later) counts as executed, so safety checks err on the safe side.
     */
    private static final Set<ErrorClass> NOT_EXECUTED = EnumSet.of(ErrorClass.UNKNOWN_TOOL, ErrorClass.INVALID_ARGUMENTS,
            ErrorClass.PERMISSION_DENIED, ErrorClass.LIMIT_REACHED, ErrorClass.REJECTED, ErrorClass.INTERVENTION);

    /** A tool call the model proposed; {@code step} is the model call (from 1) that proposed it. */
    public record ToolUse(int step, String callId, String tool, JsonNode input) {}

    /** What the executor returned for one call. */
    public record Observation(int step, String callId, String tool, boolean isError, ErrorClass errorClass,
                              String content) {
        /**
         * True when the tool's handler ran (it was not refused, capped or rejected before, nor left unmade
         * because the run's deadline had passed: a {@code TIMEOUT} whose text says the call was not made).
         */
        public boolean executed() {
            return !NOT_EXECUTED.contains(errorClass)
                    && !(errorClass == ErrorClass.TIMEOUT && DeadlineRefusal.isNotCalled(content));
        }
    }

    /**
     * An approval asked for a tool call.
     *
     * @param granted true when approved, false when rejected, null while pending
     */
    public record Approval(String tool, String callId, Boolean granted) {}

    private final List<TraceEvent> events;
    private final List<ToolUse> proposed;
    private final List<Observation> observations;
    private final List<Approval> approvals;

    private Trajectory(List<TraceEvent> events, List<ToolUse> proposed, List<Observation> observations,
                       List<Approval> approvals) {
        this.events = List.copyOf(events);
        this.proposed = List.copyOf(proposed);
        this.observations = List.copyOf(observations);
        this.approvals = List.copyOf(approvals);
    }

    /** Reads a trajectory from a run's result and the trace events recorded for it. */
    public static Trajectory of(RunResult result, List<TraceEvent> events) {
        List<ToolUse> proposed = proposals(result.history());
        List<Observation> observations = new ArrayList<>();
        for (TraceEvent event : events) {
            if (event instanceof TraceEvent.ToolCompleted done) {
                observations.add(new Observation(done.step(), done.callId(), done.tool(), done.isError(),
                        errorClass(done.errorClass()), done.content()));
            }
        }
        return new Trajectory(events, proposed, observations, ApprovalsInTrace.find(result, events, proposed));
    }

    private static List<ToolUse> proposals(List<Message> history) {
        List<ToolUse> uses = new ArrayList<>();
        int step = 0;
        for (Message message : history) {
            if (message.role() != Role.ASSISTANT) {
                continue;
            }
            step++;
            for (ContentBlock block : message.content()) {
                if (block instanceof ToolUseBlock use) {
                    uses.add(new ToolUse(step, use.id(), use.name(), use.input()));
                }
            }
        }
        return uses;
    }

    private static ErrorClass errorClass(String name) {
        try {
            return ErrorClass.valueOf(name);
        } catch (IllegalArgumentException | NullPointerException e) {
            return ErrorClass.EXECUTION_FAILED;
        }
    }

    /** Every trace event of the run, in order. */
    public List<TraceEvent> events() {
        return events;
    }

    /** Every tool call the model proposed, in order (including refused ones). */
    public List<ToolUse> proposed() {
        return proposed;
    }

    public boolean proposed(String tool) {
        return proposed.stream().anyMatch(u -> u.tool().equals(tool));
    }

    /** Every observation the executor returned, in order. */
    public List<Observation> observations() {
        return observations;
    }

    /** How many calls of {@code tool} actually ran. */
    public long executedCount(String tool) {
        return observations.stream().filter(o -> o.tool().equals(tool) && o.executed()).count();
    }

    public boolean executed(String tool) {
        return executedCount(tool) > 0;
    }

    /** True when some call came back with this error class. */
    public boolean observedError(ErrorClass errorClass) {
        return observations.stream().anyMatch(o -> o.errorClass() == errorClass);
    }

    /** The runtime's interventions (guards, verifiers, budget stops), in order. */
    public List<TraceEvent.Intervention> interventions() {
        return events.stream().filter(TraceEvent.Intervention.class::isInstance).map(TraceEvent.Intervention.class::cast).toList();
    }

    /** Approvals asked for, pending or decided, in order. */
    public List<Approval> approvals() {
        return approvals;
    }

    public boolean approvalRequested(String tool) {
        return approvals.stream().anyMatch(a -> a.tool().equals(tool));
    }

    public boolean approvalGranted(String tool) {
        return approvals.stream().anyMatch(a -> a.tool().equals(tool) && Boolean.TRUE.equals(a.granted()));
    }

    /**
     * Finds approvals in a run. A run paused in WAITING_APPROVAL has its unanswered tool calls
     * pending. Requests and decisions are read from any trace event whose class names an approval,
     * or an intervention of an approval kind; their fields are read from the event's JSON form
     * (tool or tool_name, call_id or tool_use_id, approved / granted / decision), so this keeps
     * working as the approval events evolve.
     */
    private static final class ApprovalsInTrace {
        private ApprovalsInTrace() {}

        static List<Approval> find(RunResult result, List<TraceEvent> events, List<ToolUse> proposed) {
            Map<String, Approval> byKey = new LinkedHashMap<>();
            for (TraceEvent event : events) {
                boolean approvalEvent = event.getClass().getSimpleName().toLowerCase(Locale.ROOT).contains("approval")
                        || event instanceof TraceEvent.Intervention i && i.kind().toLowerCase(Locale.ROOT).contains("approval");
                if (!approvalEvent) {
                    continue;
                }
                JsonNode json = Json.mapper().valueToTree(event);
                JsonNode data = json.has("evidence") ? json.path("evidence") : json;
                String tool = firstText(data, "tool", "tool_name", "name");
                String callId = firstText(data, "call_id", "tool_use_id");
                if (tool == null) {
                    tool = toolOf(callId, proposed);
                }
                if (tool != null) {
                    String key = callId != null ? callId : tool;
                    Boolean decision = decision(data);
                    Approval earlier = byKey.get(key);
                    byKey.put(key, new Approval(tool, callId, decision != null ? decision : earlier == null ? null : earlier.granted()));
                }
            }
            if (result.status() == RunStatus.WAITING_APPROVAL) {
                for (ToolUse pending : unanswered(result.history(), proposed)) {
                    byKey.putIfAbsent(pending.callId(), new Approval(pending.tool(), pending.callId(), null));
                }
            }
            return new ArrayList<>(byKey.values());
        }

        private static String firstText(JsonNode node, String... fields) {
            for (String field : fields) {
                JsonNode value = node.get(field);
                if (value != null && value.isTextual() && !value.asText().isBlank()) {
                    return value.asText();
                }
            }
            return null;
        }

        private static String toolOf(String callId, List<ToolUse> proposed) {
            return callId == null ? null
                    : proposed.stream().filter(u -> u.callId().equals(callId)).map(ToolUse::tool).findFirst().orElse(null);
        }

        private static Boolean decision(JsonNode data) {
            for (String field : List.of("approved", "granted")) {
                if (data.path(field).isBoolean()) {
                    return data.path(field).asBoolean();
                }
            }
            String text = firstText(data, "decision", "outcome", "verdict");
            if (text == null) {
                return null;
            }
            String d = text.toLowerCase(Locale.ROOT);
            if (d.startsWith("approve") || d.startsWith("grant") || d.startsWith("edit")) {
                return true;
            }
            if (d.startsWith("reject") || d.startsWith("den")) {
                return false;
            }
            return null;
        }

        private static List<ToolUse> unanswered(List<Message> history, List<ToolUse> proposed) {
            Set<String> answered = new HashSet<>();
            for (Message message : history) {
                for (ContentBlock block : message.content()) {
                    if (block instanceof ToolResultBlock r) {
                        answered.add(r.toolUseId());
                    }
                }
            }
            return proposed.stream().filter(u -> !answered.contains(u.callId())).toList();
        }
    }
}
