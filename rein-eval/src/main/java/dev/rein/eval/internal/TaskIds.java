package dev.rein.eval.internal;

import dev.rein.internal.text.Controls;
import dev.rein.internal.text.Ignorables;
import dev.rein.internal.text.LoneSurrogates;
import dev.rein.internal.text.RunIds;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.Locale;

/**
 * What a task id may hold. An id names its trial traces ({@code TASK.TRIAL.jsonl}) and is read in every report, so it
 * holds letters and digits of any script ({@code 注文確認}, {@code заказ}), and after the first also combining marks (one
 * with no composed form, {@code ą́}), {@code _}, {@code -} and {@code .}: nothing a file system refuses or reads as a path
 * ({@code / \ :}, control characters, spaces), nothing invisible (format characters, Unicode's default-ignorable code
 * points). It is in NFC, as typed: a decomposed {@code テ\u3099} beside a composed {@code デ} would be two ids of a
 * suite but one trace file on a Mac, whose file system names files in one form. At most {@link #MAX_CHARACTERS}
 * characters (code points) and {@link #MAX_BYTES} bytes in UTF-8, so that the trace's name stays within the 255 bytes a
 * file name may have.
 */
public final class TaskIds {
    /** The most characters (code points, an emoji or 𠮷 being one) a task id holds. */
    public static final int MAX_CHARACTERS = 80;
    /** The most UTF-8 bytes a task id holds: with {@code .TRIAL.jsonl} after it, the name of a file. */
    public static final int MAX_BYTES = 200;
    /** The rule, as a message ends with it. */
    public static final String RULE = "use 1-" + MAX_CHARACTERS + " letters or digits (of any script), '_', '-' or '.',"
            + " starting with a letter or digit, at most " + MAX_BYTES + " bytes in UTF-8 (it names trace files:"
            + " TASK.TRIAL.jsonl)";

    private TaskIds() {}

    /** Why {@code id} cannot be a task's id, as the start of a sentence ("it holds '/' at character 2"), or null. */
    public static String problem(String id) {
        if (id == null || id.isEmpty()) {
            return "it is empty";
        }
        int half = LoneSurrogates.first(id);
        if (half >= 0) {
            return "it holds " + LoneSurrogates.describe(id, half);
        }
        int first = id.codePointAt(0);
        if (!Character.isLetterOrDigit(first) || invisible(first)) {
            return "it starts with " + describe(first);
        }
        int at = 0;
        for (int i = 0; i < id.length(); at++) {
            int c = id.codePointAt(i);
            if (!allowed(c)) {
                return "it holds " + describe(c) + " at character " + at;
            }
            i += Character.charCount(c);
        }
        String composed = Normalizer.normalize(id, Normalizer.Form.NFC);
        if (!composed.equals(id)) {
            // a Mac names a file in one form: a decomposed and a composed id would be one trace file, one trial's lost
            return notNfc(id, composed);
        }
        if (at > MAX_CHARACTERS) {
            return "it has " + at + " characters";
        }
        int bytes = id.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_BYTES) {
            return "it has " + bytes + " bytes in UTF-8";
        }
        String stem = stem(id);
        if (!reserved(stem)) {
            return null;
        }
        String rest = id.substring(stem.length());
        return "it is '" + stem + "', a name Windows keeps for a device (CON, PRN, AUX, NUL, COM0-9, LPT0-9, in any case,"
                + " also before a '.'), so its trial traces (" + id + ".1.jsonl) could not be written on Windows; rename it,"
                + " e.g. '" + stem + "_" + rest + "' or '" + stem + "-task" + rest + "'";
    }

    /** What Windows reads as the name of a trace file made from {@code id}: the part before its first '.'. */
    private static String stem(String id) {
        int dot = id.indexOf('.');
        return dot < 0 ? id : id.substring(0, dot);
    }

    /**
     * Whether Windows keeps {@code stem} for a device: a file named so, with any extension ({@code CON.1.jsonl}), is the
     * device, not a file. An id is never a file name alone (its traces end in {@code .TRIAL.jsonl}), so one ending in a
     * '.', which Windows strips from a name's end, is an id.
     */
    private static boolean reserved(String stem) {
        String upper = stem.toUpperCase(Locale.ROOT);
        return upper.equals("CON") || upper.equals("PRN") || upper.equals("AUX") || upper.equals("NUL")
                || upper.length() == 4 && (upper.startsWith("COM") || upper.startsWith("LPT"))
                && upper.charAt(3) >= '0' && upper.charAt(3) <= '9';
    }

    /**
     * What ids that are one trace file share: {@code id} in NFC, then in lower case ({@link Locale#ROOT}), as a file
     * system that ignores case (macOS's default, Windows) reads a name. Upper case first, so that letters with two lower
     * forms and one upper (σ and ς) meet too; that also makes ß meet ss, which such a file system may keep apart: one id
     * refused too many rather than one trace lost.
     */
    public static String caseKey(String id) {
        String composed = Normalizer.normalize(id, Normalizer.Form.NFC);
        return Normalizer.normalize(composed.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT), Normalizer.Form.NFC);
    }

    /**
     * Why an id is not in NFC, naming the code points NFC writes differently and what it writes instead: where one
     * character becomes another that looks the same (the Ohm sign U+2126 is Omega U+03A9) the id alone would not show it.
     */
    private static String notNfc(String id, String composed) {
        int start = 0;
        while (start < id.length() && start < composed.length() && id.codePointAt(start) == composed.codePointAt(start)) {
            start += Character.charCount(id.codePointAt(start));
        }
        int end = id.length();
        int composedEnd = composed.length();
        while (end > start && composedEnd > start && id.codePointBefore(end) == composed.codePointBefore(composedEnd)) {
            end -= Character.charCount(id.codePointBefore(end));
            composedEnd -= Character.charCount(composed.codePointBefore(composedEnd));
        }
        return "it is not in Unicode's normal form NFC, which writes " + codePoints(id.substring(start, end))
                + " at character " + id.codePointCount(0, start) + " as " + codePoints(composed.substring(start, composedEnd))
                + ": write it '" + RunIds.shown(composed) + "'";
    }

    private static String codePoints(String text) {
        StringBuilder out = new StringBuilder();
        text.codePoints().forEach(c -> out.append(out.isEmpty() ? "" : " ").append(String.format(Locale.ROOT, "U+%04X", c)));
        return out.toString();
    }

    /**
     * A task id made from {@code name} (a trace's file name) followed by {@code suffix} ("", "-2"): in NFC (a name a Mac
     * wrote decomposed reads as typed), every character an id may not hold as '_', a 't' before a first one that is no
     * letter or digit, and {@code name} cut by characters and bytes, never inside a surrogate pair, so that the whole is
     * within both limits.
     */
    public static String from(String name, String suffix) {
        StringBuilder base = new StringBuilder();
        Normalizer.normalize(name, Normalizer.Form.NFC).codePoints()
                .forEach(c -> base.appendCodePoint(allowed(c) ? c : '_')); // half a pair is no letter: '_'
        int first = base.isEmpty() ? '_' : base.codePointAt(0);
        if (!Character.isLetterOrDigit(first)) {
            base.insert(0, 't');
        }
        // the 't' may compose with a first mark ('t' and U+0308 are U+1E97); NFC's prefixes stay in NFC when cut below
        String whole = Normalizer.normalize(base, Normalizer.Form.NFC);
        String stem = stem(whole + suffix); // a suffix ("-2") starts with '-', which no device name holds
        if (reserved(stem)) {
            whole = stem + "_" + whole.substring(stem.length()); // a trace con.jsonl: con_, as CON.1.jsonl is no file on Windows
        }
        int characters = MAX_CHARACTERS - suffix.length();
        int bytes = MAX_BYTES - suffix.getBytes(StandardCharsets.UTF_8).length;
        int end = 0;
        for (int n = 0; end < whole.length() && n < characters; n++) {
            int c = whole.codePointAt(end);
            int size = new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8).length;
            if ((bytes -= size) < 0) {
                break;
            }
            end += Character.charCount(c);
        }
        if (end < whole.length()) {
            // Cut between grapheme clusters: a letter keeps its marks or goes with them (ą́ cut after its ą is another
            // letter); a first cluster longer than the limits is cut inside, so the id is not empty.
            int before = dev.rein.internal.text.Clusters.startOf(whole, end);
            end = before > 0 ? before : end;
        }
        return whole.substring(0, end) + suffix;
    }

    private static boolean allowed(int c) {
        if (invisible(c)) {
            return false;
        }
        if (Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.') {
            return true;
        }
        int type = Character.getType(c);
        return type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK || type == Character.ENCLOSING_MARK;
    }

    /**
     * Letters and marks no one sees (Hangul fillers, the combining grapheme joiner, variation selectors, Khmer inherent
     * vowels): Unicode's default-ignorable code points, as rein-core's tag rule reads them.
     */
    private static boolean invisible(int c) {
        return Ignorables.defaultIgnorable(c);
    }

    /** {@code c} as a message names it: in quotes when it can be seen, else as U+XXXX. */
    private static String describe(int c) {
        int type = Character.getType(c);
        boolean unseen = Controls.isControl(c) || Character.isSpaceChar(c) && c != ' ' || invisible(c)
                || type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK || type == Character.UNASSIGNED
                || type == Character.PRIVATE_USE;
        return unseen ? String.format(Locale.ROOT, "U+%04X", c) : "'" + new String(Character.toChars(c)) + "'";
    }
}
