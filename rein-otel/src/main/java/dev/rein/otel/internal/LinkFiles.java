package dev.rein.otel.internal;

import dev.rein.ReinException;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The names of {@code SpanLinkStore.directory}'s files. A run id may hold any character (rein-core refuses only
 * half a surrogate pair), so it cannot be a file name as it is: {@code .} and {@code ..} name the directory and its
 * parent, {@code /} a subdirectory, and ids that differ only in case are one file where the file system ignores case.
 */
public final class LinkFiles {
    /** Names longer than this end in a hash of the id instead: a file name has at most 255 bytes. */
    private static final int MAX = 200;
    /** What an id was taken as it was, before names were encoded; such files are still read. */
    private static final Pattern LEGACY = Pattern.compile("[A-Za-z0-9._-]{1,200}");

    private LinkFiles() {}

    /**
     * What a link file holds: {@code "traceId spanId traceFlags"}, and on a second line the span's W3C
     * {@code tracestate} when it has one (an OTLP link carries it as its trace_state). Files without the second line
     * (all of those written before it was kept) read as before.
     */
    public static String content(SpanContext span) {
        String ids = span.getTraceId() + " " + span.getSpanId() + " " + span.getTraceFlags().asHex();
        if (span.getTraceState().isEmpty()) {
            return ids;
        }
        // the propagator's own encoding, which its extract reads back (a value may hold spaces, never a line break)
        Map<String, String> headers = new HashMap<>();
        W3CTraceContextPropagator.getInstance().inject(Context.root().with(Span.wrap(span)), headers, Map::put);
        String state = headers.get("tracestate");
        return state == null || state.isBlank() ? ids : ids + "\n" + state;
    }

    /**
     * The span a link file's {@code content} names, or an invalid one when it names none (a damaged file). A file of
     * two fields was written before the flags were kept: its segment is taken as sampled, as it was then. A
     * tracestate line the W3C rules refuse is left out, the link kept.
     */
    public static SpanContext read(String content) {
        String[] lines = content.strip().split("\\R", 2);
        String[] ids = lines[0].strip().split(" ");
        TraceFlags flags = ids.length == 3 && ids[2].matches("[0-9a-f]{2}") ? TraceFlags.fromHex(ids[2], 0) : TraceFlags.getSampled();
        SpanContext span = ids.length != 2 && ids.length != 3 ? SpanContext.getInvalid()
                : SpanContext.createFromRemoteParent(ids[0], ids[1], flags, TraceState.getDefault());
        if (!span.isValid() || lines.length < 2 || lines[1].isBlank()) {
            return span;
        }
        Map<String, String> headers = Map.of("traceparent", "00-" + span.getTraceId() + "-" + span.getSpanId() + "-" + flags.asHex(),
                "tracestate", lines[1].strip());
        SpanContext withState = Span.fromContext(W3CTraceContextPropagator.getInstance().extract(Context.root(), headers, HEADERS))
                .getSpanContext();
        return withState.isValid() ? withState : span;
    }

    private static final TextMapGetter<Map<String, String>> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(Map<String, String> carrier) {
            return carrier.keySet();
        }

        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };

    /**
     * The file name of run {@code runId}'s link: its UTF-8 bytes, those of {@code [a-z0-9_-]} as they are and every
     * other one as {@code %XX} (upper-case hex), so each id has a name of its own, also ignoring case, and none is
     * {@code .}, {@code ..} or hidden; a name over {@value #MAX} characters keeps its start and ends in {@code ~} and
     * the id's SHA-256.
     *
     * @throws ReinException when {@code runId} is null, empty or holds half a surrogate pair (no UTF-8 form)
     */
    public static String name(String runId) {
        check(runId);
        StringBuilder name = new StringBuilder();
        byte[] bytes = runId.getBytes(StandardCharsets.UTF_8);
        for (byte b : bytes) {
            char c = (char) (b & 0xff);
            if (c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
                name.append(c);
            } else {
                name.append('%').append(HexFormat.of().withUpperCase().toHexDigits(b));
            }
        }
        if (name.length() <= MAX) {
            return name.toString();
        }
        int cut = MAX - 65;
        int escape = name.lastIndexOf("%", cut - 1);
        if (escape >= cut - 2) {
            cut = escape; // not inside a %XX
        }
        return name.substring(0, cut) + "~" + sha256(bytes);
    }

    /** The name {@code runId}'s link had before names were encoded, or null when it had none (or one that is not a file's). */
    public static String legacyName(String runId) {
        return runId != null && LEGACY.matcher(runId).matches() && !runId.equals(".") && !runId.equals("..") ? runId : null;
    }

    private static void check(String runId) {
        if (runId == null || runId.isEmpty()) {
            throw new ReinException("SpanLinkStore was given no run id (" + (runId == null ? "null" : "empty")
                    + "): pass the id of the run whose span to keep or find, as RunResult.runId() gives it");
        }
        for (int i = 0; i < runId.length(); i++) {
            char c = runId.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < runId.length() && Character.isLowSurrogate(runId.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new ReinException("SpanLinkStore was given run id '" + shown(runId) + "', which no run has: it holds half"
                        + " a surrogate pair (\\u" + HexFormat.of().toHexDigits(c) + " at index " + i + "), which has no UTF-8"
                        + " form, so no file can be named after it; pass the id as RunResult.runId() gives it");
            }
        }
    }

    /** {@code runId} with half a surrogate pair and control characters as escapes, as a message quotes it. */
    private static String shown(String runId) {
        StringBuilder shown = new StringBuilder();
        for (int i = 0; i < runId.length(); i++) {
            char c = runId.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < runId.length() && Character.isLowSurrogate(runId.charAt(i + 1));
            if (pair) {
                shown.append(c).append(runId.charAt(++i));
            } else if (Character.isSurrogate(c) || Character.isISOControl(c)) {
                shown.append("\\u").append(HexFormat.of().toHexDigits(c));
            } else {
                shown.append(c);
            }
        }
        return shown.toString();
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
