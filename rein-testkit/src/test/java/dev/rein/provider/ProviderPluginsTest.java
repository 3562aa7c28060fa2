package dev.rein.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.rein.ReinException;
import dev.rein.agent.Agent;
import dev.rein.budget.PriceTable;
import dev.rein.model.Model;
import dev.rein.testkit.ScriptedModel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Provider plug-ins that load but whose name() or prices() throw (a provider reading a price file
 * that is missing): they are left out and named by require(name), as a plug-in that cannot be
 * loaded is (ProviderLoadingTest in rein-core), where their exception escaped available() and
 * require() and broke finding the other providers. (Here on the class path, where ServiceLoader
 * reads a services entry naming test classes; rein-core's own tests run in its module.)
 */
class ProviderPluginsTest {
    abstract static class Plugin implements ModelProvider {
        @Override
        public String defaultModel() {
            return "m-1";
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

    public static final class BadName extends Plugin {
        @Override
        public String name() {
            throw new IllegalStateException("名前がありません");
        }
    }

    public static final class BadPrices extends Plugin {
        @Override
        public String name() {
            return "badprices";
        }

        @Override
        public PriceTable prices() {
            throw new UncheckedIOException(new IOException("prices.json not found"));
        }
    }

    public static final class Good extends Plugin {
        @Override
        public String name() {
            return "good";
        }
    }

    @Test
    void aPluginWhoseNameOrPricesThrowIsSkippedAndNamedWhenItIsAskedFor(@TempDir Path dir) throws Exception {
        Path services = dir.resolve("META-INF/services/" + ModelProvider.class.getName());
        Files.createDirectories(services.getParent());
        Files.writeString(services, BadName.class.getName() + "\n" + BadPrices.class.getName() + "\n" + Good.class.getName() + "\n",
                StandardCharsets.UTF_8);
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        try (URLClassLoader plugins = new URLClassLoader(new URL[] {dir.toUri().toURL()}, before)) {
            thread.setContextClassLoader(plugins);

            assertThat(ModelProvider.available()).extracting(ModelProvider::name).containsExactly("good");
            assertThat(ModelProvider.require("good").defaultModel()).isEqualTo("m-1");
            assertThatThrownBy(() -> ModelProvider.require("badprices")).isInstanceOf(ReinException.class)
                    .hasMessageContaining("no model provider named 'badprices'").hasMessageContaining("available: good.")
                    .hasMessageContaining(BadName.class.getName()).hasMessageContaining("名前がありません")
                    .hasMessageContaining(BadPrices.class.getName()).hasMessageContaining("prices.json not found");
        } finally {
            thread.setContextClassLoader(before);
        }
    }
}
