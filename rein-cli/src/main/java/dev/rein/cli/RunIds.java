package dev.rein.cli;

import java.util.UUID;

/** Run ids made by the CLI, known before the run starts so its settings can be saved first. */
final class RunIds {
    private RunIds() {}

    static String next() {
        return "run_" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    }
}
