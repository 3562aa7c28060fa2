package dev.rein.mcp.internal;

/** The version Rein reports to servers in {@code clientInfo}. */
final class Versions {
    private Versions() {}

    static String rein() {
        String version = Versions.class.getPackage().getImplementationVersion();
        return version == null ? "dev" : version;
    }
}
