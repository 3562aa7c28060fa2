package dev.rein.stall;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.rein.json.Json;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The query a call asks, reduced so that trivial rewordings compare equal: Unicode NFKC, lower
 * case, punctuation and symbols dropped, whitespace collapsed, words sorted. Entity-like tokens —
 * any word with a digit or a capital letter (names, ids, numbers, dates) — must be shared: "orders
 * of customer Jon Smith" and "… Jan Smith" are different questions, as are "population 2020" and
 * "population 2021", however similar the text. Non-string arguments (page numbers, limits, flags)
 * form the skeleton, which must be equal too.
 *
 * @param entities the entity-like tokens, lower-cased
 * @param tokens   every token, lower-cased
 */
record QueryText(String skeleton, String normalised, Set<String> entities, Set<String> tokens, String original) {
    /** Longer queries are compared only for equality after normalisation (edit distance is quadratic). */
    static final int MAX_EDIT_DISTANCE_LENGTH = 1_000;
    private static final Pattern NOISE = Pattern.compile("[\\p{P}\\p{S}]+");
    private static final Pattern SPACE = Pattern.compile("\\s+");
    private static final Pattern ENTITY = Pattern.compile(".*[\\p{Nd}\\p{Lu}\\p{Lt}].*");

    static QueryText of(JsonNode arguments) {
        List<String> strings = new ArrayList<>();
        JsonNode skeleton = strip(arguments, strings);
        String original = String.join(" ", strings);
        Set<String> entities = new TreeSet<>();
        Set<String> tokens = new TreeSet<>();
        for (String token : SPACE.split(NOISE.matcher(Normalizer.normalize(original, Normalizer.Form.NFKC)).replaceAll(" ").strip())) {
            if (token.isEmpty()) {
                continue;
            }
            String lower = token.toLowerCase(Locale.ROOT);
            tokens.add(lower);
            if (ENTITY.matcher(token).matches()) {
                entities.add(lower);
            }
        }
        return new QueryText(Json.canonical(skeleton), normalise(original), entities, tokens, original);
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
        String s = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        s = NOISE.matcher(s).replaceAll(" ").strip();
        if (s.isEmpty()) {
            return "";
        }
        String[] words = SPACE.split(s);
        Arrays.sort(words);
        return String.join(" ", words);
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
        return 1.0 - (double) EditDistance.levenshtein(a, b) / longer;
    }

    /** A copy of {@code node} with every string replaced by "" (keys sorted), collecting the strings in that order. */
    private static JsonNode strip(JsonNode node, List<String> strings) {
        if (node.isTextual()) {
            strings.add(node.asText());
            return Json.mapper().getNodeFactory().textNode("");
        }
        if (node instanceof ObjectNode object) {
            TreeMap<String, JsonNode> sorted = new TreeMap<>();
            for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                sorted.put(name, object.get(name));
            }
            ObjectNode copy = Json.object();
            sorted.forEach((name, value) -> copy.set(name, strip(value, strings)));
            return copy;
        }
        if (node instanceof ArrayNode array) {
            ArrayNode copy = Json.mapper().createArrayNode();
            array.forEach(element -> copy.add(strip(element, strings)));
            return copy;
        }
        return node;
    }
}
