package dev.rein.json;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** SHA-256 content hashes, as lowercase hex. */
public final class Hashing {
    /** Cloned for each hash: cheaper than a provider look-up per call, and every JDK's SHA-256 is cloneable. */
    private static final MessageDigest SHA_256 = sha256Digest();
    private static final HexFormat HEX = HexFormat.of();

    private Hashing() {}

    public static String sha256(String text) {
        return sha256(text.getBytes(StandardCharsets.UTF_8));
    }

    public static String sha256(byte[] bytes) {
        return HEX.formatHex(newDigest().digest(bytes));
    }

    /**
     * A fresh SHA-256 digest, cloned from a prepared one (no provider lookup): for callers that
     * hash many values and keep one digest of their own.
     */
    public static MessageDigest newDigest() {
        try {
            return (MessageDigest) SHA_256.clone();
        } catch (CloneNotSupportedException e) {
            return sha256Digest();
        }
    }

    private static MessageDigest sha256Digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
