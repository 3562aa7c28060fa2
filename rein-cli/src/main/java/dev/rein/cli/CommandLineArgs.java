package dev.rein.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Recovers UTF-8 arguments that the JVM decoded with the wrong charset. The JVM decodes
 * {@code argv} with the locale's charset; under {@code LANG=C} a Japanese goal arrives as
 * replacement characters. The launcher selects a UTF-8 locale, but when the CLI is started some
 * other way on Linux the raw bytes are still in {@code /proc/self/cmdline}, and the arguments are
 * its last entries.
 */
final class CommandLineArgs {
    private CommandLineArgs() {}

    /** The arguments, re-read as UTF-8 when the JVM's decoding lost characters. */
    static String[] recover(String[] args) {
        String encoding = System.getProperty("sun.jnu.encoding", "UTF-8");
        if (encoding.equalsIgnoreCase("UTF-8") || !anyLost(args)) {
            return args;
        }
        Path cmdline = Path.of("/proc/self/cmdline");
        try {
            return Files.isReadable(cmdline) ? recover(args, Files.readAllBytes(cmdline)) : args;
        } catch (IOException e) {
            return args;
        }
    }

    /**
     * The last {@code args.length} NUL-separated entries of {@code cmdline}, decoded as UTF-8, when
     * they line up with {@code args} (every ASCII-only argument matches exactly); else {@code args}.
     * An entry that is not valid UTF-8 keeps the JVM's decoding, replacement characters included,
     * so the command can refuse it by name (see {@link #requireUtf8}).
     */
    static String[] recover(String[] args, byte[] cmdline) {
        List<byte[]> entries = split(cmdline);
        if (entries.size() < args.length) {
            return args;
        }
        List<byte[]> tail = entries.subList(entries.size() - args.length, entries.size());
        String[] recovered = new String[args.length];
        for (int i = 0; i < args.length; i++) {
            String decoded = decodeStrictly(tail.get(i));
            if (isAscii(args[i]) && !args[i].equals(decoded)) {
                return args;
            }
            recovered[i] = decoded == null ? args[i] : decoded;
        }
        return recovered;
    }

    /**
     * Refuses an argument that held bytes which are not UTF-8. The JVM decodes arguments with
     * {@code sun.jnu.encoding} (from the locale) and replaces every malformed byte sequence with
     * U+FFFD, so the replacement character is all that is left of them: a goal or prompt with it
     * would reach the model silently changed.
     *
     * @param name how the user knows the argument, e.g. {@code GOAL} or {@code --system}
     */
    static void requireUtf8(String name, String value) {
        int at = value == null ? -1 : value.indexOf('\uFFFD');
        if (at >= 0) {
            throw new UsageException(name + " is not valid UTF-8: it held bytes that are not UTF-8 text (replaced by U+FFFD at"
                    + " character " + (at + 1) + "); pass it as UTF-8, e.g. convert it with 'iconv -t UTF-8'");
        }
    }

    private static boolean anyLost(String[] args) {
        for (String arg : args) {
            if (arg.indexOf('\uFFFD') >= 0 || arg.indexOf('?') >= 0) {
                return true;
            }
        }
        return false;
    }

    private static List<byte[]> split(byte[] cmdline) {
        List<byte[]> entries = new ArrayList<>();
        ByteArrayOutputStream current = new ByteArrayOutputStream();
        for (byte b : cmdline) {
            if (b == 0) {
                entries.add(current.toByteArray());
                current.reset();
            } else {
                current.write(b);
            }
        }
        if (current.size() > 0) {
            entries.add(current.toByteArray());
        }
        return entries;
    }

    private static String decodeStrictly(byte[] bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    private static boolean isAscii(String s) {
        return s.chars().allMatch(c -> c < 0x80);
    }
}
