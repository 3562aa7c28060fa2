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
    /** Where the page's script takes the decimals its costs are shown with, as the JSON and the text summary have them. */
    private static final String COST_SCALE_PLACEHOLDER = "__COST_SCALE__";

    private ReportWriter() {}

    /** The report as pretty JSON with snake_case field names. */
    public static String json(EvalReport report) {
        return Json.pretty(report);
    }

    /** The report as a self-contained HTML page; its script sets {@code data-render-status="ok"} on the root element once the charts are drawn. */
    public static String html(EvalReport report) {
        String template = template().replace(COST_SCALE_PLACEHOLDER, Integer.toString(Metrics.COST_SCALE));
        int at = template.indexOf(PLACEHOLDER);
        // The data sits inside a <script> element: escaping <, > and & keeps any text (an answer
        // containing "</script>") from ending it early; JSON.parse reads the escapes back.
        String data = pageJson(report).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
                .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029");
        return template.substring(0, at) + data + template.substring(at + PLACEHOLDER.length());
    }

    /**
     * The report's JSON for the page: as {@link #json}, but each decimal (costs, step percentiles) written as a string of
     * its digits, which the page's script reads as they are. As JSON numbers, JSON.parse made them doubles, whose 15 to 17
     * significant digits changed the last ones of a cost above about $1e9 (six decimals) from the text summary's.
     */
    private static String pageJson(EvalReport report) {
        try {
            return PAGE_MAPPER.writeValueAsString(report);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new ReinException("cannot write the report's JSON: " + e.getOriginalMessage(), e);
        }
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper PAGE_MAPPER = pageMapper();

    private static com.fasterxml.jackson.databind.ObjectMapper pageMapper() {
        com.fasterxml.jackson.databind.ObjectMapper mapper = Json.mapper().copy();
        mapper.configOverride(java.math.BigDecimal.class).setFormat(
                com.fasterxml.jackson.annotation.JsonFormat.Value.forShape(com.fasterxml.jackson.annotation.JsonFormat.Shape.STRING));
        return mapper;
    }

    public static void writeJson(EvalReport report, Path file) {
        write(file, json(report) + "\n");
    }

    public static void writeHtml(EvalReport report, Path file) {
        write(file, html(report));
    }

    /**
     * Checks that a report can be written to {@code file}, doing what {@link #writeHtml} and {@link #writeJson}
     * do with nothing in it: the missing folders are made (and removed again when the check fails) and a
     * temporary file beside the report is written and deleted. A long evaluation calls it before its first
     * trial, so a path that cannot take the report is found before the time and money are spent.
     *
     * @throws ReinException naming the file and why it cannot be written
     */
    public static void checkWritable(Path file) {
        Path target = file.toAbsolutePath();
        String cannot = "cannot write the report to " + target + ": ";
        if (Files.isDirectory(target)) {
            throw new ReinException(cannot + "it is a folder");
        }
        if (Files.exists(target) && !Files.isRegularFile(target)) {
            // the move into place would replace a device or a pipe, not write to it
            throw new ReinException(cannot + "it is not a regular file but a device, pipe or terminal");
        }
        Path dir = target.getParent();
        Path firstMade = null;
        for (Path p = dir; p != null && Files.notExists(p); p = p.getParent()) {
            firstMade = p;
        }
        try {
            Files.createDirectories(dir);
            if (!Files.exists(target)) {
                // the name itself (one the file system finds too long, say)
                Files.write(target, new byte[0], StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                Files.delete(target);
            }
            Path probe = temp(target);
            Files.write(probe, new byte[0], StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            Files.delete(probe);
        } catch (IOException e) {
            removeMade(dir, firstMade);
            String why = e instanceof java.nio.file.AccessDeniedException ? "permission denied for the folder " + dir
                    : FileProblems.why(e);
            throw new ReinException(cannot + why, e);
        }
    }

    /** Deletes the folders from {@code dir} up to {@code top} that a failed check made, so it leaves nothing behind. */
    private static void removeMade(Path dir, Path top) {
        if (top == null) {
            return;
        }
        for (Path p = dir; p != null && p.startsWith(top); p = p.getParent()) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                return; // not empty or not ours to delete: leave it
            }
        }
    }

    /**
     * Not createTempFile: its owner-only permissions would stick to the report after the move. The report's name
     * is cut to 64 characters in it, so a long name the file system takes is not refused for its temporary file's.
     */
    private static Path temp(Path target) {
        String name = target.getFileName().toString();
        int cut = name.offsetByCodePoints(0, Math.min(64, name.codePointCount(0, name.length())));
        return target.getParent().resolve("." + name.substring(0, cut) + "." + UUID.randomUUID() + ".tmp");
    }

    private static void write(Path file, String text) {
        Path target = file.toAbsolutePath();
        try {
            Path dir = target.getParent();
            Files.createDirectories(dir);
            Path temp = temp(target);
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
