package dev.rein.security;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.rein.tool.Secrets;
import dev.rein.trace.TraceEvent;
import java.lang.reflect.Constructor;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Masks every known secret value in a trace event before any listener sees it. Events are
 * records; the redactor walks their components (strings, JSON trees, nested records, lists and
 * maps) and rebuilds only what changed. An event it cannot rebuild is replaced by an
 * {@link TraceEvent.Audit} saying so: a secret never reaches a listener.
 *
 * <p>Only exact values are masked; a tool that encodes a secret (base64, split across lines)
 * defeats any redactor, so tools must not echo secrets in the first place.
 */
public final class TraceRedactor {
    private final Supplier<Map<String, String>> secrets;

    /** @param secrets the values to mask, by name; asked again for every event (new ones appear as tools fetch them) */
    public TraceRedactor(Supplier<Map<String, String>> secrets) {
        this.secrets = secrets;
    }

    public String redact(String text) {
        return Secrets.mask(text, secrets.get());
    }

    public TraceEvent redact(TraceEvent event) {
        Map<String, String> known = secrets.get();
        if (known.isEmpty()) {
            return event;
        }
        try {
            return (TraceEvent) walk(event, known);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return new TraceEvent.Audit(event.runId(), event.step(), event.time(), "redaction_failed", null, null, null, null,
                    "a " + event.getClass().getSimpleName() + " event could not be checked for secrets and was dropped: " + e);
        }
    }

    /**
     * {@code value} — a record (a snapshot, a result, a message), a list, a map, a JSON tree or a
     * string — with every known secret masked; unchanged parts are shared, so a value without
     * secrets comes back as the same instance.
     *
     * @throws IllegalStateException when a record cannot be rebuilt (then nothing may be stored or handed out)
     */
    @SuppressWarnings("unchecked")
    public <T> T redactValue(T value) {
        Map<String, String> known = secrets.get();
        if (known.isEmpty() || value == null) {
            return value;
        }
        try {
            return (T) walk(value, known);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot mask secrets in a " + value.getClass().getSimpleName() + ": " + e, e);
        }
    }

    private Object walk(Object value, Map<String, String> known) throws ReflectiveOperationException {
        return switch (value) {
            case null -> null;
            case String s -> Secrets.mask(s, known);
            case JsonNode node -> json(node, known);
            case Record r -> record(r, known);
            case List<?> list -> list(list, known);
            case Map<?, ?> map -> map(map, known);
            default -> value;
        };
    }

    private Object record(Record r, Map<String, String> known) throws ReflectiveOperationException {
        RecordComponent[] components = r.getClass().getRecordComponents();
        Object[] values = new Object[components.length];
        Class<?>[] types = new Class<?>[components.length];
        boolean changed = false;
        for (int i = 0; i < components.length; i++) {
            var accessor = components[i].getAccessor();
            accessor.setAccessible(true);
            Object original = accessor.invoke(r);
            values[i] = walk(original, known);
            types[i] = components[i].getType();
            changed |= values[i] != original;
        }
        if (!changed) {
            return r;
        }
        Constructor<?> constructor = r.getClass().getDeclaredConstructor(types);
        constructor.setAccessible(true);
        return constructor.newInstance(values);
    }

    private Object list(List<?> list, Map<String, String> known) throws ReflectiveOperationException {
        List<Object> out = new ArrayList<>(list.size());
        boolean changed = false;
        for (Object item : list) {
            Object redacted = walk(item, known);
            changed |= redacted != item;
            out.add(redacted);
        }
        return changed ? java.util.Collections.unmodifiableList(out) : list;
    }

    private Object map(Map<?, ?> map, Map<String, String> known) throws ReflectiveOperationException {
        Map<Object, Object> out = new LinkedHashMap<>();
        boolean changed = false;
        for (Map.Entry<?, ?> e : map.entrySet()) {
            Object key = walk(e.getKey(), known);
            Object val = walk(e.getValue(), known);
            changed |= key != e.getKey() || val != e.getValue();
            out.put(key, val);
        }
        return changed ? java.util.Collections.unmodifiableMap(out) : map;
    }

    private JsonNode json(JsonNode node, Map<String, String> known) {
        if (node.isTextual()) {
            String masked = Secrets.mask(node.asText(), known);
            return masked.equals(node.asText()) ? node : TextNode.valueOf(masked);
        }
        if (node instanceof ObjectNode object) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            boolean changed = false;
            for (Map.Entry<String, JsonNode> e : object.properties()) {
                String key = Secrets.mask(e.getKey(), known);
                JsonNode val = json(e.getValue(), known);
                changed |= !key.equals(e.getKey()) || val != e.getValue();
                out.set(key, val);
            }
            return changed ? out : node;
        }
        if (node instanceof ArrayNode array) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            boolean changed = false;
            for (JsonNode item : array) {
                JsonNode val = json(item, known);
                changed |= val != item;
                out.add(val);
            }
            return changed ? out : node;
        }
        return node;
    }
}
