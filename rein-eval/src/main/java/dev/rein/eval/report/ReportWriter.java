package dev.rein.eval.report;

import dev.rein.ReinException;
import dev.rein.internal.text.FileProblems;
import dev.rein.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.UUID;

/**
 * Writes an {@link EvalReport} as JSON or as one self-contained HTML page (inline CSS, script and
 * SVG charts; no network access). Files are written to a temporary sibling and moved into place,
 * so a reader never sees half a report.
 */
public final class ReportWriter {
    private static final String TEMPLATE = "report.html";
    private static final String PLACEHOLDER = "__REPORT_JSON__";

    private ReportWriter() {}

    /** The report as pretty JSON with snake_case field names. */
    public static String json(EvalReport report) {
        return Json.pretty(report);
    }

    /** The report as a self-contained HTML page; its script sets {@code data-render-status="ok"} on the root element once the charts are drawn. */
    public static String html(EvalReport report) {
        String template = template();
        int at = template.indexOf(PLACEHOLDER);
        // The data sits inside a <script> element: escaping <, > and & keeps any text (an answer
        // containing "</script>") from ending it early; JSON.parse reads the escapes back.
        String data = Json.write(report).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
                .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029");
        return template.substring(0, at) + data + template.substring(at + PLACEHOLDER.length());
    }

    public static void writeJson(EvalReport report, Path file) {
        write(file, json(report) + "\n");
    }

    public static void writeHtml(EvalReport report, Path file) {
        write(file, html(report));
    }

    private static void write(Path file, String text) {
        Path target = file.toAbsolutePath();
        try {
            Path dir = target.getParent();
            Files.createDirectories(dir);
            // Not createTempFile: its owner-only permissions would stick to the report after the move.
            Path temp = dir.resolve("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
            try {
                Files.writeString(temp, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                try {
                    Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(temp);
            }
        } catch (IOException e) {
            throw new ReinException("cannot write the report to " + target + ": " + FileProblems.why(e), e);
        }
    }

    private static String template() {
        try (InputStream in = ReportWriter.class.getResourceAsStream(TEMPLATE)) {
            if (in == null) {
                throw new IllegalStateException("the HTML report template is missing from the rein-eval jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
