package dev.rein.eval.file;

import dev.rein.eval.env.FileTreeEnvironment;
import java.util.Map;

/** Registered through META-INF/services, as an example module would register its environments. */
public final class TestPlugin implements EvalPlugin {
    @Override
    public void register(EvalRegistry.Builder registry) {
        registry.environment(EnvironmentType.builder("plugin_files", options -> new FileTreeEnvironment(Map.of("p.txt", "from a plugin")))
                .toolset("read", FileTreeEnvironment::readTools)
                .build());
    }
}
