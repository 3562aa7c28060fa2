package dev.rein.stall;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * QueryText scans text by hand; these properties compare it with the regular-expression
 * implementation it replaced (kept below as {@link Reference}) on ASCII, Unicode and Japanese text.
 */
class QueryTextPropertiesTest {

    @Property(tries = 2000)
    void normaliseIsTheRegexDefinition(@ForAll("texts") String text) {
        assertThat(QueryText.normalise(text)).isEqualTo(Reference.normalise(text));
    }

    @Property(tries = 2000)
    void queryTextIsTheRegexDefinition(@ForAll("texts") String a, @ForAll("texts") String b, @ForAll int page) {
        ObjectNode args = Json.object();
        args.put("q", a);
        args.put("page", page);
        args.putObject("filters").put("lang", b).put("n", 1.5);
        args.putArray("tags").add(b).add(true);
        assertSame(QueryText.of(args), Reference.of(args));
        assertSame(QueryText.of(Json.mapper().getNodeFactory().textNode(a)), Reference.of(Json.mapper().getNodeFactory().textNode(a)));
    }

    @Example
    void everyCodePointIsNoiseSpaceOrEntityExactlyAsThePatternsSay() {
        Pattern entity = Pattern.compile(".*[\\p{Nd}\\p{Lu}\\p{Lt}].*");
        List<String> differ = new ArrayList<>();
        for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
            String s = Character.toString(cp);
            String padded = "a" + s + "b";
            if (!QueryText.words(padded).equals(Reference.words(padded))
                    || QueryText.entity(s) != entity.matcher(s).matches()
                    || QueryText.entity("A" + s) != entity.matcher("A" + s).matches()) {
                differ.add(String.format("U+%04X", cp));
            }
        }
        assertThat(differ).isEmpty();
    }

    private static void assertSame(QueryText actual, QueryText expected) {
        assertThat(actual.skeleton()).isEqualTo(expected.skeleton());
        assertThat(actual.normalised()).isEqualTo(expected.normalised());
        assertThat(actual.original()).isEqualTo(expected.original());
        assertThat(List.copyOf(actual.entities())).isEqualTo(List.copyOf(expected.entities()));
        assertThat(actual.tokens()).isEqualTo(expected.tokens());
    }

    @Provide
    Arbitrary<String> texts() {
        Arbitrary<String> ascii = Arbitraries.strings().ascii().ofMaxLength(40);
        Arbitrary<String> words = Arbitraries.of("Tokyo", "weather", "東京", "の", "天気", "ＴＯＫＹＯ", "ｗｅａｔｈｅｒ", "２０２４年",
                "Σ", "ΟΔΟΣ", "İstanbul", "ß", "ǅ", "½", "①", "Ⓐ", "ﬁ", "😀", "𝐀𝐁", "\uD800", "\uDC00", "-", "...", "!?",
                "$", "€", "„", "«", "»", "、", "。", "・", "ー", "　", " ", "\t", "\n", "\r\n", "\u000B", "\f", "\u0085",
                "\u00A0", "\u2028", "\u2029", "\u001C", "\u1680", "\u2007", "\u3000", "\u200B", "e\u0301", "ｶﾞ", "Ⅻ", "x²");
        Arbitrary<String> mixed = words.list().ofMaxSize(12).map(l -> String.join("", l));
        Arbitrary<String> spaced = words.list().ofMaxSize(12).map(l -> String.join(" ", l));
        Arbitrary<String> any = Arbitraries.strings().all().ofMaxLength(20);
        Arbitrary<String> japanese = Arbitraries.strings().withCharRange('\u3000', '\u30FF').withCharRange('\u4E00', '\u4FFF')
                .withCharRange('\uFF00', '\uFFEF').ofMaxLength(20);
        return Arbitraries.oneOf(ascii, mixed, spaced, any, japanese);
    }

    /** The implementation QueryText had before the hand-written scanners, verbatim. */
    static final class Reference {
        private static final Pattern NOISE = Pattern.compile("[\\p{P}\\p{S}]+");
        private static final Pattern SPACE = Pattern.compile("\\s+");
        private static final Pattern ENTITY = Pattern.compile(".*[\\p{Nd}\\p{Lu}\\p{Lt}].*");
        // Letters and vowel signs of scripts without capitals (kanji, katakana, Hangul, Arabic, Thai, ...), hiragana excepted.
        private static final Pattern NAME_RUN = Pattern.compile(
                "[\\x{30FC}[[\\p{Lo}\\p{Mn}\\p{Mc}]&&[^\\p{IsHiragana}\\p{IsInherited}\\p{IsCommon}]]]+");

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
                Matcher run = NAME_RUN.matcher(lower);
                while (run.find()) { // runs of caseless scripts: Japanese or Korean names have no capitals to mark them
                    entities.add(run.group());
                    tokens.add(run.group());
                }
            }
            return new QueryText(Json.canonical(skeleton), normalise(original), entities, tokens, original);
        }

        static List<String> words(String text) {
            String s = NOISE.matcher(text).replaceAll(" ").strip();
            return s.isEmpty() ? List.of() : Arrays.asList(SPACE.split(s));
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
}
