package dev.rein.otel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.rein.run.Reason;
import dev.rein.tool.ErrorClass;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * docs/observability.md's value lists against the code, so a new reason or error class cannot go unlisted. Before: both
 * lists ended with "…" and named 3 of the 13 reasons a FAILED run ends with and 6 of the 13 error classes.
 */
class ObservabilityDocsTest {
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    /** The table row of docs/observability.md that starts with {@code start}, the first one after {@code after}. */
    private static String row(String after, String start) throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "observability.md"), StandardCharsets.UTF_8);
        int from = doc.indexOf(after);
        assertThat(from).as(after).isNotNegative();
        int at = doc.indexOf("\n" + start, from);
        assertThat(at).as(start + " after " + after).isNotNegative();
        return doc.substring(at + 1, doc.indexOf('\n', at + 1));
    }

    private static Set<String> quoted(String text) {
        Matcher m = CODE.matcher(text);
        Set<String> values = new java.util.TreeSet<>();
        while (m.find()) {
            values.add(m.group(1));
        }
        return values;
    }

    @Test
    void theToolSpansErrorClassRowListsEveryErrorClass() throws Exception {
        String row = row("| `gen_ai.operation.name` | `execute_tool` |", "| `rein.error_class` |");
        assertThat(row).doesNotContain("…");
        Set<String> listed = quoted(row.substring(row.indexOf("| ", 2)));
        listed.remove("dev.rein.tool.ErrorClass");
        assertThat(listed).containsExactlyInAnyOrderElementsOf(Arrays.stream(ErrorClass.values()).map(Enum::name).toList());
    }

    /**
     * The run span's error.type row lists every reason but those that never end a run FAILED: the reasons of SUCCEEDED
     * runs, of pauses, of budget stops and of cancelled runs (a new {@link Reason} has to be placed on one side).
     */
    @Test
    void theRunSpansErrorTypeRowListsEveryReasonAFailedRunEndsWith() throws Exception {
        String row = row("| `rein.run.status`, `rein.run.reason` |", "| `error.type` |");
        assertThat(row).doesNotContain("…");
        Set<Reason> notFailed = EnumSet.of(Reason.COMPLETED, Reason.FINISHED, Reason.APPROVAL_REQUIRED, Reason.RESUMED,
                Reason.CANCELLED, Reason.MAX_STEPS, Reason.MAX_COST, Reason.DEADLINE, Reason.MAX_INPUT_TOKENS,
                Reason.MAX_OUTPUT_TOKENS);
        List<String> failed = EnumSet.complementOf(EnumSet.copyOf(notFailed)).stream().map(Reason::wire).toList();
        Set<String> listed = quoted(row.substring(row.indexOf("| ", 2))).stream()
                .filter(value -> Arrays.stream(Reason.values()).anyMatch(r -> r.wire().equals(value)))
                .collect(Collectors.toSet());
        assertThat(listed).containsExactlyInAnyOrderElementsOf(failed);
    }
}
