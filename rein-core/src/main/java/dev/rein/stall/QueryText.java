package dev.rein.stall;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.internal.text.EditDistance;
import dev.rein.json.Json;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The query a call asks, reduced so that trivial rewordings compare equal: Unicode NFKC, lower
 * case, punctuation and symbols dropped, whitespace collapsed, words sorted. Entity-like tokens —
 * any word with a digit or a capital letter (names, ids, numbers, dates), and each run of kanji or
 * katakana in a word (Japanese and Chinese have no spaces or capitals to mark a name), or of the
 * letters of another script without capitals (Hangul, Arabic, Thai) — must be
 * shared: "orders of customer Jon Smith" and "… Jan Smith" are different questions, as are
 * "population 2020" and "population 2021", or "顧客佐藤一郎の注文履歴" and "顧客佐藤二郎の注文履歴",
 * however similar the text. Non-string arguments (page numbers, limits, flags)
 * form the skeleton, which must be equal too.
 *
 * <p>This runs for every proposed read call, so the text is scanned by hand rather than with
 * regular expressions; the scanners reproduce exactly what the patterns
 * {@code [\p{P}\p{S}]+} (replaced by a space), {@code \s+} (split) and
 * {@code .*[\p{Nd}\p{Lu}\p{Lt}].*} (entity) did (QueryTextPropertiesTest compares them).
 *
 * @param entities the entity-like tokens, lower-cased, sorted
 * @param tokens   every token, lower-cased (a set for look-ups, in no particular order)
 */
record QueryText(String skeleton, String normalised, Set<String> entities, Set<String> tokens, String original) {
    /** Longer queries are compared only for equality after normalisation (edit distance is quadratic). */
    static final int MAX_EDIT_DISTANCE_LENGTH = 1_000;
    private static final int NOISE_CATEGORIES = 1 << Character.CONNECTOR_PUNCTUATION | 1 << Character.DASH_PUNCTUATION
            | 1 << Character.START_PUNCTUATION | 1 << Character.END_PUNCTUATION | 1 << Character.INITIAL_QUOTE_PUNCTUATION
            | 1 << Character.FINAL_QUOTE_PUNCTUATION | 1 << Character.OTHER_PUNCTUATION | 1 << Character.MATH_SYMBOL
            | 1 << Character.CURRENCY_SYMBOL | 1 << Character.MODIFIER_SYMBOL | 1 << Character.OTHER_SYMBOL;
    private static final int ENTITY_CATEGORIES = 1 << Character.DECIMAL_DIGIT_NUMBER | 1 << Character.UPPERCASE_LETTER
            | 1 << Character.TITLECASE_LETTER;

    static QueryText of(JsonNode arguments) {
        List<String> strings = new ArrayList<>();
        // the skeleton: the arguments with every string replaced by "", the strings taken in canonical order
        String skeleton = Json.canonical(arguments, text -> {
            strings.add(text);
            return "";
        });
        String original = strings.size() == 1 ? strings.get(0) : String.join(" ", strings);
        String nfkc = nfkc(original);
        Set<String> entities = new TreeSet<>();
        Set<String> tokens = new HashSet<>();
        List<String> lowered = new ArrayList<>();
        boolean ascii = isAscii(nfkc);
        for (String token : words(nfkc)) {
            String lower = token.toLowerCase(Locale.ROOT);
            tokens.add(lower);
            lowered.add(lower);
            if (entity(token)) {
                entities.add(lower);
            }
            if (!ascii) {
                nameRuns(lower, entities, tokens);
            }
        }
        // ASCII lower-casing changes letters only, never what is noise or space, so the normalised
        // text is the tokens lower-cased and sorted; other text is normalised as the definition says
        String normalised = ascii ? sortedWords(lowered) : normaliseNfkc(nfkc);
        return new QueryText(skeleton, normalised, entities, tokens, original);
    }

    /**
     * Whether both queries name the same entities: each entity-like token of one occurs (in any case)
     * in the other. A capitalised first word that the other query also uses ("Tokyo weather",
     * "weather in tokyo") is no difference.
     */
    boolean sameEntities(QueryText other) {
        return other.tokens.containsAll(entities) && tokens.containsAll(other.entities);
    }

    static String normalise(String text) {
        return normaliseNfkc(nfkc(text));
    }

    private static String normaliseNfkc(String nfkc) {
        return sortedWords(words(nfkc.toLowerCase(Locale.ROOT)));
    }

    private static String sortedWords(List<String> words) {
        if (words.isEmpty()) {
            return "";
        }
        words.sort(null);
        return String.join(" ", words);
    }

    /** Unicode NFKC; ASCII text is its own normal form, so it skips the normaliser. */
    private static String nfkc(String text) {
        return isAscii(text) ? text : Normalizer.normalize(text, Normalizer.Form.NFKC);
    }

    private static boolean isAscii(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /**
     * The words of {@code text}: runs of punctuation and symbols become one space, the ends are
     * stripped ({@link String#strip()}), and what is left is split at runs of ASCII whitespace
     * (what {@code \s} matches without {@code UNICODE_CHARACTER_CLASS}). A modifiable list.
     */
    static List<String> words(String text) {
        String stripped = denoise(text).strip();
        List<String> words = new ArrayList<>();
        int start = -1;
        for (int i = 0; i < stripped.length(); i++) {
            if (isSpace(stripped.charAt(i))) {
                if (start >= 0) {
                    words.add(stripped.substring(start, i));
                    start = -1;
                }
            } else if (start < 0) {
                start = i;
            }
        }
        if (start >= 0) {
            words.add(stripped.substring(start));
        }
        return words;
    }

    /** {@code text} with each run of punctuation and symbol code points replaced by one space. */
    private static String denoise(String text) {
        StringBuilder out = null;
        boolean inNoise = false;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            int next = i + Character.charCount(cp);
            boolean noise = (NOISE_CATEGORIES >> Character.getType(cp) & 1) != 0;
            if (noise && out == null) {
                out = new StringBuilder(text.length()).append(text, 0, i);
            }
            if (out != null) {
                if (!noise) {
                    out.append(text, i, next);
                } else if (!inNoise) {
                    out.append(' ');
                }
            }
            inNoise = noise;
            i = next;
        }
        return out == null ? text : out.toString();
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    /**
     * A digit, capital or title-case letter somewhere, and no line terminator (the pattern's
     * {@code .} does not match one, so such a token never matched).
     */
    static boolean entity(String token) {
        boolean found = false;
        for (int i = 0; i < token.length(); ) {
            int cp = token.codePointAt(i);
            if (cp == '\n' || cp == '\r' || cp == 0x85 || cp == 0x2028 || cp == 0x2029) {
                return false;
            }
            found |= (ENTITY_CATEGORIES >> Character.getType(cp) & 1) != 0;
            i += Character.charCount(cp);
        }
        return found;
    }

    /**
     * Adds the runs of Han and Katakana in {@code token} as entity-like tokens. Japanese and Chinese
     * are written without spaces and without capitals, so a name or id never stands out as a word
     * of its own: "顧客佐藤一郎の注文履歴" is one token. Its kanji and katakana runs (顧客佐藤一郎,
     * 注文履歴) carry the names and content words, while kana particles (の, を) do not; so "…佐藤二郎
     * の注文履歴" is a different question, as "Jan Smith" is after "Jon Smith", and a change of
     * particles or punctuation is still a rewording. The prolonged sound mark ー belongs to katakana
     * words. Other scripts without capitals (Hangul, Arabic, Thai, …) cannot mark a name either, so
     * their runs count the same way: "김민준" and "박민준" are different people.
     */
    private static void nameRuns(String token, Set<String> entities, Set<String> tokens) {
        int start = -1;
        for (int i = 0; i < token.length(); ) {
            int cp = token.codePointAt(i);
            if (nameLike(cp)) {
                if (start < 0) {
                    start = i;
                }
            } else if (start >= 0) {
                addRun(token.substring(start, i), entities, tokens);
                start = -1;
            }
            i += Character.charCount(cp);
        }
        if (start >= 0) {
            addRun(token.substring(start), entities, tokens);
        }
    }

    private static void addRun(String run, Set<String> entities, Set<String> tokens) {
        entities.add(run);
        tokens.add(run);
    }

    /**
     * A letter of a script without capitals (kanji, katakana, Hangul, Arabic, Thai, …) or a vowel
     * sign of one, hiragana excepted: the kana particles carry no names.
     */
    static boolean nameLike(int cp) {
        if (cp == 0x30FC) {
            return true;
        }
        int type = Character.getType(cp);
        if (type != Character.OTHER_LETTER && type != Character.NON_SPACING_MARK && type != Character.COMBINING_SPACING_MARK) {
            return false;
        }
        Character.UnicodeScript script = Character.UnicodeScript.of(cp);
        // Combining accents of Latin and other cased scripts are INHERITED or COMMON: they mark no name.
        return script != Character.UnicodeScript.HIRAGANA && script != Character.UnicodeScript.INHERITED
                && script != Character.UnicodeScript.COMMON;
    }

    /** Similarity in [0, 1]: 1 minus the edit distance over the longer length, in code points. */
    double similarity(QueryText other) {
        return similarity(other, 0.0);
    }

    /**
     * As {@link #similarity(QueryText)} where the result matters only when it reaches {@code least}:
     * below that, any value under {@code least} may come back. The edit distance is at least the
     * difference in length, so a pair too different in length is decided without computing it.
     */
    double similarity(QueryText other, double least) {
        if (normalised.equals(other.normalised)) {
            return 1.0;
        }
        int lengthA = normalised.codePointCount(0, normalised.length());
        int lengthB = other.normalised.codePointCount(0, other.normalised.length());
        int longer = Math.max(lengthA, lengthB);
        if (longer > MAX_EDIT_DISTANCE_LENGTH) {
            return 0.0;
        }
        double bound = 1.0 - (double) Math.abs(lengthA - lengthB) / longer;
        if (bound < least) {
            return bound;
        }
        int[] a = normalised.codePoints().toArray();
        int[] b = other.normalised.codePoints().toArray();
        // A distance above this leaves the similarity below least (one more for the rounding of doubles):
        // the distance is computed only that far, and exactly up to it, so what comes back is as before
        int max = (int) Math.min(longer, Math.ceil((1.0 - least) * longer) + 1);
        return 1.0 - (double) EditDistance.levenshtein(a, b, max) / longer;
    }
}
