package dev.rein.internal.secret;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How secret values are found and masked in text ({@code Secrets.mask}, {@code Secrets.forms}, which delegate here): below
 * the tool package, so that Rein's internal code that masks and audits a text ({@link MaskedText}) can be used by the
 * tool package's stages without a package cycle.
 */
public final class Masking {
    /** The shortest value masked ({@code Secrets.MIN_LENGTH}): a shorter one could not be masked without ordinary text. */
    public static final int MIN_LENGTH = 4;

    /** How every marker that stands for a masked value begins: {@code [REDACTED:name]}. */
    public static final String MARKER_START = "[REDACTED:";

    /**
     * The longest secret name (in chars) whose marker a fence's cut still tells from text ({@code Excerpts.end} looks for
     * its {@code ]} no further): {@code Secrets.of} refuses a longer one, whose marker a cut could show in half, and a
     * run refuses to hand out a lookup's value for one ({@code Secrets.tracking}).
     */
    public static final int MAX_NAME = 128;

    private Masking() {}

    /** A spelling of a secret found in a text, from {@code start} to {@code end}: {@code name} is its index in the names. */
    private record Find(int start, int end, int name) {}

    /** {@link dev.rein.tool.Secrets#mask}, which says what it does; each spelling is looked for in the original text. */
    public static String mask(String text, Map<String, String> secrets) {
        if (text == null || text.isEmpty() || secrets.isEmpty()) {
            return text;
        }
        // Every spelling is looked for in the original text: replacing one value after another left the
        // part of a second value that overlapped the first in clear.
        List<Find> found = null;
        List<String> names = null;
        for (Map.Entry<String, String> secret : secrets.entrySet()) {
            if (secret.getValue().length() < MIN_LENGTH) {
                continue;
            }
            for (String form : spellings(secret.getValue())) {
                for (int at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + 1)) {
                    if (found == null) {
                        found = new ArrayList<>();
                        names = new ArrayList<>();
                    }
                    if (names.isEmpty() || !names.getLast().equals(secret.getKey())) {
                        names.add(secret.getKey());
                    }
                    found.add(new Find(at, at + form.length(), names.size() - 1));
                }
            }
        }
        if (found == null) {
            return text;
        }
        found.sort(Comparator.comparingInt(Find::start).thenComparing(Comparator.comparingInt(Find::end).reversed()));
        StringBuilder out = new StringBuilder(text.length());
        int masked = 0; // the end of the stretch masked so far
        int last = -1; // the name whose marker ends the output, within the current stretch
        for (Find f : found) {
            if (f.end() <= masked) {
                continue; // inside what is masked already (a contained secret, a shorter spelling)
            }
            if (f.start() >= masked) {
                out.append(text, masked, f.start());
                last = -1;
            }
            if (f.name() != last) {
                out.append(MARKER_START).append(names.get(f.name())).append(']');
                last = f.name();
            }
            masked = f.end();
        }
        return out.append(text, masked, text.length()).toString();
    }

    /** {@link dev.rein.tool.Secrets#spellings}: {@link #forms}, worked out once per value ({@link SecretSpellings}). */
    public static List<String> spellings(String value) {
        return SecretSpellings.of(value);
    }

    /** {@link dev.rein.tool.Secrets#forms}, which lists them: the value and how JSON encoders write it, longest first. */
    public static List<String> forms(String value) {
        boolean plain = true;
        for (int i = 0; i < value.length() && plain; i++) {
            char c = value.charAt(i);
            plain = c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '/' && c != '<' && c != '>' && c != '&';
        }
        if (plain) {
            return List.of(value);
        }
        String escaped = new String(JsonStringEncoder.getInstance().quoteAsString(value));
        StringBuilder lower = new StringBuilder();
        StringBuilder upper = new StringBuilder();
        StringBuilder htmlSafe = new StringBuilder();
        for (int i = 0; i < escaped.length(); i++) {
            char c = escaped.charAt(i);
            if (c > 0x7e) {
                String hex = String.format("%04x", (int) c);
                lower.append("\\u").append(hex);
                upper.append("\\u").append(hex.toUpperCase(Locale.ROOT));
            } else {
                lower.append(c);
                upper.append(c);
            }
            switch (c) {
                case '<' -> htmlSafe.append("\\u003c");
                case '>' -> htmlSafe.append("\\u003e");
                case '&' -> htmlSafe.append("\\u0026");
                case '\u2028' -> htmlSafe.append("\\u2028");
                case '\u2029' -> htmlSafe.append("\\u2029");
                default -> htmlSafe.append(c);
            }
        }
        List<String> forms = new ArrayList<>(List.of(upper.toString(), lower.toString(), escaped, htmlSafe.toString(), value));
        if (value.indexOf('/') >= 0) {
            for (String form : List.of(escaped, lower.toString(), upper.toString())) {
                forms.add(form.replace("/", "\\/"));
            }
        }
        return forms.stream().distinct().sorted(Comparator.comparingInt(String::length).reversed()).toList();
    }
}
