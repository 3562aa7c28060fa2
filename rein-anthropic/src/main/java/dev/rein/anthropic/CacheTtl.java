package dev.rein.anthropic;

/** Lifetime of an Anthropic prompt cache entry. Longer entries cost more to write. */
public enum CacheTtl {
    FIVE_MINUTES("5m"),
    ONE_HOUR("1h");

    private final String wire;

    CacheTtl(String wire) {
        this.wire = wire;
    }

    /** The wire value, {@code 5m} or {@code 1h}. */
    public String wire() {
        return wire;
    }
}
