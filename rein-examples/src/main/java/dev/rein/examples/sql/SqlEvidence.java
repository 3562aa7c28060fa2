package dev.rein.examples.sql;

import dev.rein.run.FinalAnswer;
import dev.rein.run.Verdict;
import dev.rein.run.Verifier;
import dev.rein.examples.Exchanges.Exchange;
import dev.rein.examples.Exchanges;
import java.math.BigDecimal;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An analysis answer is accepted only when every figure in it can be checked: each figure must
 * appear in the result of a query that the run actually executed, and that query's SQL must be
 * quoted in the answer (in a {@code ```sql} block), so a reader can rerun it.
 *
 * <p>A figure is a number in the prose (outside code blocks) with three or more digits or a
 * decimal part; years (1900-2100) and dates are not figures. Numbers are compared by value, so
 * {@code 1,234,500} matches {@code 1234500}.
 */
final class SqlEvidence implements Verifier {
    private static final Pattern CODE_BLOCK = Pattern.compile("```(?:sql)?\\s*\\n?(.*?)```", Pattern.DOTALL | Pattern.CASE_INSENSITIVE);
    private static final Pattern DATE = Pattern.compile("\\d{4}-\\d{2}(-\\d{2})?");
    private static final Pattern NUMBER = Pattern.compile("(?<![\\w.])-?\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|(?<![\\w.])-?\\d+(?:\\.\\d+)?");

    /** One executed query: its SQL as normalised text and the numbers in its result. */
    private record Evidence(String sql, Set<BigDecimal> numbers) {}

    @Override
    public Verdict verify(FinalAnswer answer) {
        String text = Normalizer.normalize(answer.answer(), Normalizer.Form.NFKC);
        List<String> quoted = new ArrayList<>();
        Matcher blocks = CODE_BLOCK.matcher(text);
        while (blocks.find()) {
            quoted.add(normaliseSql(blocks.group(1)));
        }
        String prose = CODE_BLOCK.matcher(text).replaceAll(" ");
        List<Evidence> shown = executed(answer).stream().filter(e -> quoted.contains(e.sql())).toList();
        List<String> missing = new ArrayList<>();
        for (String figure : figures(prose)) {
            BigDecimal value = value(figure);
            if (shown.stream().noneMatch(e -> e.numbers().contains(value))) {
                missing.add("the figure " + figure + " is not backed by a query in the answer: quote the exact SQL that"
                        + " produced it in a ```sql block, and use the number exactly as that query returned it");
            }
        }
        return missing.isEmpty() ? Verdict.pass() : Verdict.fail(missing);
    }

    private static List<Evidence> executed(FinalAnswer answer) {
        List<Evidence> evidence = new ArrayList<>();
        for (Exchange e : Exchanges.succeeded(answer.history(), SqlTool.RUN_SQL)) {
            String result = e.data().lines().filter(line -> !line.startsWith("query: ")).reduce("", (a, b) -> a + "\n" + b);
            evidence.add(new Evidence(normaliseSql(e.input().path("query").asText()), numbers(result)));
        }
        return evidence;
    }

    /** The figures of {@code prose}, in order, without repeats. */
    static Set<String> figures(String prose) {
        String withoutDates = DATE.matcher(prose).replaceAll(" ");
        Set<String> figures = new LinkedHashSet<>();
        Matcher m = NUMBER.matcher(withoutDates);
        while (m.find()) {
            String n = m.group();
            String digits = n.replace(",", "").replace("-", "");
            boolean decimal = digits.contains(".");
            int integerDigits = (decimal ? digits.substring(0, digits.indexOf('.')) : digits).length();
            boolean year = !decimal && integerDigits == 4 && Integer.parseInt(digits) >= 1900 && Integer.parseInt(digits) <= 2100;
            if ((decimal || integerDigits >= 3) && !year) {
                figures.add(n);
            }
        }
        return figures;
    }

    private static Set<BigDecimal> numbers(String text) {
        Set<BigDecimal> numbers = new HashSet<>();
        Matcher m = NUMBER.matcher(text);
        while (m.find()) {
            numbers.add(value(m.group()));
        }
        return numbers;
    }

    private static BigDecimal value(String number) {
        BigDecimal v = new BigDecimal(number.replace(",", ""));
        return v.signum() == 0 ? BigDecimal.ZERO : v.stripTrailingZeros();
    }

    /** SQL compared ignoring case, whitespace and a final semicolon. */
    static String normaliseSql(String sql) {
        String s = sql.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
        return s.endsWith(";") ? s.substring(0, s.length() - 1).strip() : s;
    }
}
