package dev.rein.examples.web;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The rules of one robots.txt for one crawler (RFC 9309): the group naming the crawler's product
 * token, else the {@code *} group; the longest matching rule wins, Allow on a tie; {@code *} and
 * {@code $} in paths; and the non-standard but common Crawl-delay.
 */
final class RobotsTxt {
    private record Rule(boolean allow, String path, Pattern pattern) {}

    private final List<Rule> rules;
    private final Duration crawlDelay;

    private RobotsTxt(List<Rule> rules, Duration crawlDelay) {
        this.rules = List.copyOf(rules);
        this.crawlDelay = crawlDelay;
    }

    /** Everything allowed (no robots.txt, or a 4xx answer for it). */
    static RobotsTxt allowAll() {
        return new RobotsTxt(List.of(), Duration.ZERO);
    }

    /** Nothing allowed (robots.txt could not be read: a 5xx answer or no answer). */
    static RobotsTxt disallowAll() {
        return new RobotsTxt(List.of(new Rule(false, "/", compile("/"))), Duration.ZERO);
    }

    /** One group: the user agents it names and their rules. */
    private static final class Group {
        final List<String> agents = new ArrayList<>();
        final List<Rule> rules = new ArrayList<>();
        Duration delay;
    }

    static RobotsTxt parse(String text, String productToken) {
        List<Group> groups = new ArrayList<>();
        Group current = null;
        boolean afterAgentLine = false;
        for (String raw : text.lines().toList()) {
            String line = raw.replaceFirst("#.*", "").strip();
            int colon = line.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String key = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).strip();
            if (key.equals("user-agent")) {
                // Consecutive user-agent lines share one group.
                if (current == null || !afterAgentLine) {
                    current = new Group();
                    groups.add(current);
                }
                current.agents.add(value.toLowerCase(Locale.ROOT));
                afterAgentLine = true;
                continue;
            }
            afterAgentLine = false;
            if (current == null) {
                continue;
            }
            switch (key) {
                case "allow", "disallow" -> {
                    if (!value.isEmpty()) {
                        current.rules.add(new Rule(key.equals("allow"), value, compile(value)));
                    }
                }
                case "crawl-delay" -> {
                    try {
                        current.delay = Duration.ofMillis(Math.round(Double.parseDouble(value) * 1000));
                    } catch (NumberFormatException ignored) {
                        // An unreadable delay is ignored, as crawlers commonly do.
                    }
                }
                default -> { }
            }
        }
        String token = productToken.toLowerCase(Locale.ROOT);
        List<Group> matching = groups.stream().filter(g -> g.agents.contains(token)).toList();
        if (matching.isEmpty()) {
            matching = groups.stream().filter(g -> g.agents.contains("*")).toList();
        }
        // Several groups for the same crawler are combined.
        List<Rule> rules = new ArrayList<>();
        Duration delay = Duration.ZERO;
        for (Group g : matching) {
            rules.addAll(g.rules);
            if (g.delay != null && g.delay.compareTo(delay) > 0) {
                delay = g.delay;
            }
        }
        return new RobotsTxt(rules, delay);
    }

    /** True when the crawler may fetch {@code path} (path and query, e.g. {@code /a/b.html?x=1}). */
    boolean allows(String path) {
        Rule best = null;
        for (Rule rule : rules) {
            if (rule.pattern().matcher(path).lookingAt()
                    && (best == null || rule.path().length() > best.path().length()
                    || rule.path().length() == best.path().length() && rule.allow())) {
                best = rule;
            }
        }
        return best == null || best.allow();
    }

    /** The pause the site asks for between requests (zero when it asks for none). */
    Duration crawlDelay() {
        return crawlDelay;
    }

    private static Pattern compile(String path) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '*') {
                regex.append(".*");
            } else if (c == '$' && i == path.length() - 1) {
                regex.append("$");
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString());
    }
}
