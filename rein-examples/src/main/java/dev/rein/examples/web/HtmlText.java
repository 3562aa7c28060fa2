package dev.rein.examples.web;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The readable text, the title and the links of an HTML page, without scripts, styles or
 * comments. Deliberately simple: the example's pages are simple, and what matters here is what
 * happens to the text afterwards (it reaches the model as untrusted data).
 */
final class HtmlText {
    private static final Pattern DROP = Pattern.compile("(?is)<(script|style)\\b.*?</\\1\\s*>|<!--.*?-->");
    private static final Pattern TITLE = Pattern.compile("(?is)<title[^>]*>(.*?)</title\\s*>");
    private static final Pattern LINK = Pattern.compile("(?is)<a\\b[^>]*?href\\s*=\\s*(\"([^\"]*)\"|'([^']*)')[^>]*>(.*?)</a\\s*>");
    private static final Pattern BREAK = Pattern.compile("(?i)<\\s*(br|/p|/li|/h[1-6]|/div|/tr|li|p|h[1-6])\\b[^>]*>");
    private static final Pattern TAG = Pattern.compile("<[^>]*>");

    /** A link on the page: the absolute URL (without fragment) and its text. */
    record Link(String url, String text) {}

    /** What was read from a page. */
    record Page(String title, String text, List<Link> links) {}

    private HtmlText() {}

    static Page read(String html, URI base) {
        String clean = DROP.matcher(html).replaceAll(" ");
        Matcher title = TITLE.matcher(clean);
        String pageTitle = title.find() ? text(title.group(1)) : "";
        List<Link> links = new ArrayList<>();
        Matcher a = LINK.matcher(clean);
        while (a.find()) {
            String href = a.group(2) != null ? a.group(2) : a.group(3);
            absolute(base, decode(href.strip())).ifPresent(url -> links.add(new Link(url, text(a.group(4)))));
        }
        String body = TITLE.matcher(clean).replaceAll(" ");
        body = BREAK.matcher(body).replaceAll("\n");
        String text = decode(TAG.matcher(body).replaceAll(" "));
        text = text.lines().map(l -> l.replaceAll("[ \\t\\x0B\\f\\r]+", " ").strip()).filter(l -> !l.isEmpty())
                .reduce((x, y) -> x + "\n" + y).orElse("");
        return new Page(pageTitle, text, List.copyOf(links));
    }

    private static java.util.Optional<String> absolute(URI base, String href) {
        try {
            URI resolved = base.resolve(href);
            if (resolved.getScheme() == null || resolved.getHost() == null) {
                return java.util.Optional.empty();
            }
            String url = resolved.toString();
            int fragment = url.indexOf('#');
            return java.util.Optional.of(fragment < 0 ? url : url.substring(0, fragment));
        } catch (IllegalArgumentException e) {
            return java.util.Optional.empty();
        }
    }

    private static String text(String html) {
        return decode(TAG.matcher(html).replaceAll(" ")).replaceAll("\\s+", " ").strip();
    }

    private static String decode(String s) {
        return s.replace("&nbsp;", " ").replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
                .replace("&#39;", "'").replace("&amp;", "&");
    }
}
