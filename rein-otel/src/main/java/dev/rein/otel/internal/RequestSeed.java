package dev.rein.otel.internal;

import dev.rein.model.ModelOption;
import dev.rein.model.ModelRequest;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;

/**
 * The seed a model request asks for, for {@code gen_ai.request.seed}. The core's request has no seed of its own: a
 * provider takes it as an option (rein-openai's {@code OpenAiSeed}), which this module, knowing only the core, reads
 * by its shape: a record option with an integral {@code seed} component. So a plug-in provider's seed option of that
 * shape is reported too, and none of them is a dependency of this module.
 */
final class RequestSeed {
    private RequestSeed() {}

    /** The accessor of each option type's {@code seed} component; null for a type that has none. */
    private static final ClassValue<Method> SEED = new ClassValue<>() {
        @Override
        protected Method computeValue(Class<?> type) {
            if (!type.isRecord()) {
                return null;
            }
            for (RecordComponent component : type.getRecordComponents()) {
                Class<?> t = component.getType();
                if (component.getName().equals("seed") && (t == long.class || t == int.class || t == Long.class || t == Integer.class)) {
                    return component.getAccessor();
                }
            }
            return null;
        }
    };

    /** The seed {@code request} asks for; null when it asks for none. */
    static Long of(ModelRequest request) {
        for (ModelOption option : request.options().all()) {
            Method accessor = SEED.get(option.getClass());
            if (accessor != null) {
                try {
                    if (accessor.invoke(option) instanceof Number seed) {
                        return seed.longValue();
                    }
                } catch (ReflectiveOperationException | RuntimeException e) {
                    // an option this module cannot read (a record of a package not open to it): no seed to report
                }
            }
        }
        return null;
    }
}
