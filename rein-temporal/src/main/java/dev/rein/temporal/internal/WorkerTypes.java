package dev.rein.temporal.internal;

import io.temporal.common.metadata.POJOActivityInterfaceMetadata;
import io.temporal.common.metadata.POJOActivityMethodMetadata;
import io.temporal.worker.Worker;
import java.lang.reflect.Field;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The type names Rein registers on a worker, and those a worker already has. Temporal registers an implementation's
 * activity types one by one and stops at the first name already taken, leaving the ones before it registered (and it
 * cannot take a registration back), so a clash with the application's own types must be found before anything of the
 * agent is registered. The Worker does not list its types: they are read from the SDK's fields (1.38, the version this
 * module is built with); when those cannot be read, {@link #registered} answers null and the registration goes on, a
 * clash then said by the exception Temporal throws.
 */
public final class WorkerTypes {
    private WorkerTypes() {}

    /** The run workflow's type. */
    public static String workflowType() {
        return Worker.getWorkflowType(AgentWorkflow.class);
    }

    /** The agent's activity types, in the order of their interface's metadata. */
    public static List<String> activityTypes() {
        return POJOActivityInterfaceMetadata.newInstance(AgentActivities.class).getMethodsMetadata().stream()
                .map(POJOActivityMethodMetadata::getActivityTypeName).sorted().toList();
    }

    /** The types already registered on {@code worker}. */
    public record Registered(Set<String> workflows, Set<String> activities) {}

    /** What {@code worker} has registered (activities: regular and local ones), or null when it cannot be read. */
    public static Registered registered(Worker worker) {
        try {
            Object workflowWorker = field(worker, "workflowWorker");
            Set<String> workflows = new LinkedHashSet<>(keys(field(field(workflowWorker, "factory"), "workflowDefinitions")));
            Set<String> activities = new LinkedHashSet<>(keys(field(field(workflowWorker, "laTaskHandler"), "activities")));
            Object activityWorker = field(worker, "activityWorker");
            if (activityWorker != null) { // none on a worker for local activities only
                activities.addAll(keys(field(field(activityWorker, "taskHandler"), "activities")));
            }
            return new Registered(workflows, activities);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // another SDK's internals, or a module that does not open them
        }
    }

    private static Set<String> keys(Object map) {
        Map<?, ?> m = (Map<?, ?>) map;
        synchronized (m) { // the SDK's maps are synchronized ones
            Set<String> names = new LinkedHashSet<>();
            for (Object key : m.keySet()) {
                names.add(String.valueOf(key));
            }
            return names;
        }
    }

    private static Object field(Object owner, String name) throws ReflectiveOperationException {
        for (Class<?> c = owner.getClass(); c != null; c = c.getSuperclass()) {
            try {
                Field f = c.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(owner);
            } catch (NoSuchFieldException e) {
                // declared higher up
            }
        }
        throw new NoSuchFieldException(owner.getClass().getName() + "." + name);
    }
}
