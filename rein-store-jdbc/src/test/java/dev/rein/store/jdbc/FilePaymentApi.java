package dev.rein.store.jdbc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * A payment API outside the agent's process, as real ones behave: every request is logged with
 * the idempotency key it carried, and a key that was already charged returns the first receipt
 * instead of charging again (Stripe-style). Backed by files so that several processes share it.
 */
final class FilePaymentApi {
    private final Path requests;
    private final Path charges;

    FilePaymentApi(Path directory) {
        this.requests = directory.resolve("requests.log");
        this.charges = directory.resolve("charges.log");
    }

    /** Charges once per key; returns the receipt. */
    String charge(String idempotencyKey, String order, long cents) throws IOException {
        Files.createDirectories(requests.getParent());
        try (FileChannel lockFile = FileChannel.open(requests.getParent().resolve("lock"), StandardOpenOption.CREATE,
                StandardOpenOption.WRITE); FileLock ignored = lockFile.lock()) {
            append(requests, idempotencyKey);
            for (String line : lines(charges)) {
                if (line.startsWith(idempotencyKey + " ")) {
                    return "receipt " + line;
                }
            }
            String charge = idempotencyKey + " " + order + " " + cents;
            append(charges, charge);
            return "receipt " + charge;
        }
    }

    /** The idempotency keys of every request received, in order. */
    List<String> requests() throws IOException {
        return lines(requests);
    }

    /** The charges actually applied. */
    List<String> charges() throws IOException {
        return lines(charges);
    }

    private static List<String> lines(Path file) throws IOException {
        return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).toList()
                : List.of();
    }

    private static void append(Path file, String line) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        }
    }
}
