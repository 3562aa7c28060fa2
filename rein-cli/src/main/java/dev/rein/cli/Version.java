package dev.rein.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** {@code rein --version}: the Rein version (filtered in at build time) and the Java runtime. */
public final class Version implements IVersionProvider {
    @Override
    public String[] getVersion() {
        return new String[] {"rein " + rein(),
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ", "
                        + System.getProperty("java.home") + ")"};
    }

    /** The Rein version, or "unknown" when the resource is missing (a build without resources). */
    public static String rein() {
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
