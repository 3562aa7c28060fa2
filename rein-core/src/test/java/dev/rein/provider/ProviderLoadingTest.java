package dev.rein.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.budget.PriceTable;
import dev.rein.model.Model;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Providers found with ServiceLoader when a plug-in on the class path is broken (a missing class, a failing constructor):
 * before, ServiceLoader's error escaped from available(), so every Agent build (which reads the installed prices) failed.
 */
class ProviderLoadingTest {
    /** A provider whose construction fails, as one built against a missing dependency does. */
    public static final class Broken implements ModelProvider {
        public Broken() {
            throw new IllegalStateException("the SDK this provider needs is not on the class path");
        }

        @Override
        public String name() {
            return "broken";
        }

        @Override
        public String defaultModel() {
            return "b-1";
        }

        @Override
        public PriceTable prices() {
            return PriceTable.empty();
        }

        @Override
        public Model create(ProviderConfig config) {
            throw new UnsupportedOperationException();
        }
    }

    @Test
    void aBrokenPluginIsSkippedAndNamedWhenItIsAskedFor(@TempDir Path dir) throws Exception {
        Path services = dir.resolve("META-INF/services/" + ModelProvider.class.getName());
        Files.createDirectories(services.getParent());
        Files.writeString(services, Broken.class.getName() + "\ndev.rein.provider.NoSuchProvider\n",
                StandardCharsets.UTF_8);
        assertThat(ModelProvider.available()).as("none on rein-core's own test class path").isEmpty();
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        try (URLClassLoader plugins = new URLClassLoader(new URL[] {dir.toUri().toURL()}, before)) {
            thread.setContextClassLoader(plugins);

            // (the test classes sit in rein-core's module, where ServiceLoader ignores a services entry naming them)
            assertThat(ModelProvider.available()).as("the broken entries are left out, not thrown").isEmpty();
            assertThatThrownBy(() -> ModelProvider.require("broken")).isInstanceOf(ReinException.class)
                    .hasMessageContaining("no model provider named 'broken'")
                    .hasMessageContaining("could not be loaded").hasMessageContaining("dev.rein.provider.NoSuchProvider not found");
        } finally {
            thread.setContextClassLoader(before);
        }
    }
}
