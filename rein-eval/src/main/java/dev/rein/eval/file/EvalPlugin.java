package dev.rein.eval.file;

/**
 * Contributes environments to the registry suite files are resolved against. Implementations are
 * found with {@link java.util.ServiceLoader}: list the class in
 * {@code META-INF/services/dev.rein.eval.file.EvalPlugin} and it is picked up by
 * {@link EvalRegistry#load()} (and so by {@code rein eval}) whenever its jar is on the class path.
 */
@FunctionalInterface
public interface EvalPlugin {
    void register(EvalRegistry.Builder registry);
}
