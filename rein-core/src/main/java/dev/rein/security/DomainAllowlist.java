package dev.rein.security;

import dev.rein.tool.ToolOutcome;

import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.ReinException;
import dev.rein.tool.ErrorClass;
import dev.rein.tool.PermissionDeniedException;
import dev.rein.tool.ToolInterceptor;
import dev.rein.tool.ToolInvocation;
import dev.rein.tool.ToolResult;
import java.net.IDN;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The hosts a network-reaching tool may contact. An entry is a host name ({@code example.com},
 * that host only) or a wildcard ({@code *.example.com}: its subdomains, not the bare domain). An entry
 * that could match no host ({@code *}, {@code *.}, an empty label, a {@code *} elsewhere, characters no
 * host name has) is refused with a {@link ReinException}: there is no entry that allows every host.
 * So is a wildcard over numbers ({@code *.0.1}), which would match IP addresses: list each address.
 * Only http and https URLs pass; URLs with user info and IP literals are refused unless the
 * literal is listed. Host names are compared in lowercase ASCII (IDN), without a trailing dot; the
 * full stops IDNA reads as dots ({@code 。 ． ｡}) are dots, in entries and URLs alike.
 *
 * <p>Use it twice: before the call, {@link #guard(String, String)} refuses a model-proposed URL
 * outside the list; inside the handler, {@link #verify(URI)} checks every URL the tool is about to
 * fetch, redirects included (disable automatic redirects in the HTTP client and follow them by
 * hand, verifying each).
 */
public final class DomainAllowlist {
    private final Set<String> exact = new LinkedHashSet<>();
    private final Set<String> suffixes = new LinkedHashSet<>();

    private DomainAllowlist(List<String> entries) {
        if (entries == null) {
            throw new ReinException("DomainAllowlist.of(...) was given null: pass the hosts, e.g. \"example.com\", \"*.example.com\"");
        }
        for (String entry : entries) {
            if (entry == null) {
                throw new ReinException("DomainAllowlist.of(...) was given a null host: pass host names such as \"example.com\" or"
                        + " \"*.example.com\"");
            }
            String e = dots(entry.strip()).toLowerCase(Locale.ROOT);
            if (e.isEmpty() || e.contains("/") || e.contains(":") && !e.startsWith("[")) {
                throw new ReinException("domain allowlist entry '" + entry + "' is not a host name; write 'example.com' or '*.example.com'");
            }
            boolean wildcard = e.startsWith("*.");
            String problem = entryProblem(wildcard ? e.substring(2) : e, wildcard);
            if (problem != null) {
                // such an entry would match no host at all: accepted, the allowlist refused what its author meant to allow
                throw new ReinException("domain allowlist entry '" + entry + "' " + problem + "; write a host name such as"
                        + " 'example.com' (that host only) or '*.example.com' (its subdomains, not example.com itself),"
                        + " and list every host to allow: there is no entry that allows all hosts");
            }
            if (wildcard) {
                suffixes.add("." + normalise(e.substring(2)));
            } else {
                exact.add(normalise(e));
            }
        }
        if (exact.isEmpty() && suffixes.isEmpty()) {
            throw new ReinException("a domain allowlist needs at least one host");
        }
    }

    public static DomainAllowlist of(String... hosts) {
        return new DomainAllowlist(hosts == null ? null : java.util.Arrays.asList(hosts));
    }

    public static DomainAllowlist of(List<String> hosts) {
        return new DomainAllowlist(hosts);
    }

    /** Why {@code url} may not be contacted, or empty when it may. */
    public Optional<String> check(String url) {
        requireGiven(url, "check", "the URL to check");
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            return Optional.of("'" + url + "' is not a valid URL");
        }
        return check(uri);
    }

    /** Why {@code uri} may not be contacted, or empty when it may. */
    public Optional<String> check(URI uri) {
        requireGiven(uri, "check", "the URL to check");
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            return Optional.of("only http and https URLs are allowed, not '" + uri + "'");
        }
        if (uri.getRawUserInfo() != null) {
            return Optional.of("URLs with user info are not allowed");
        }
        String host = uri.getHost();
        String authority = uri.getRawAuthority();
        if (host == null && authority != null && !authority.chars().allMatch(c -> c < 128)) {
            // java.net.URI leaves a host with non-ASCII letters (例え.jp) unparsed, as a "registry-based"
            // authority; read its host here, strictly (letters, digits, hyphens per label), so it is
            // compared in its IDN form like the entries instead of being refused as having no host.
            if (authority.contains("@")) {
                return Optional.of("URLs with user info are not allowed");
            }
            host = authority.replaceFirst(":[0-9]*$", "");
            try {
                IDN.toASCII(host, IDN.USE_STD3_ASCII_RULES);
            } catch (IllegalArgumentException e) {
                return Optional.of("host '" + host + "' is not a valid host name");
            }
        }
        if (host == null || host.isBlank()) {
            return Optional.of("'" + uri + "' has no host");
        }
        String h;
        try {
            h = normalise(host);
        } catch (IllegalArgumentException e) {
            return Optional.of("host '" + host + "' is not a valid host name");
        }
        if (exact.contains(h) || suffixes.stream().anyMatch(h::endsWith)) {
            return Optional.empty();
        }
        return Optional.of("host '" + h + "' is not on the allowlist " + describe());
    }

    /**
     * For handlers: throws when {@code uri} may not be contacted. The executor turns the exception
     * into a permission-denied result that is never retried.
     */
    public void verify(URI uri) throws PermissionDeniedException {
        requireGiven(uri, "verify", "the URL the tool is about to fetch");
        Optional<String> problem = check(uri);
        if (problem.isPresent()) {
            throw new PermissionDeniedException(problem.get());
        }
    }

    /**
     * An executor stage that refuses a call of {@code toolName} whose {@code urlArgument} is not
     * allowed, before the handler runs. Add it with {@code Agent.builder().toolInterceptor(...)}.
     */
    public ToolInterceptor guard(String toolName, String urlArgument) {
        return new Guard(this, toolName, urlArgument); // which refuses a null name
    }

    /**
     * The stage {@link #guard} makes. An agent built with a guard whose {@code toolName} is none of
     * its tools is refused, since a misspelt name would check no URL at all.
     */
    public record Guard(DomainAllowlist allowlist, String toolName, String urlArgument) implements ToolInterceptor {
        /** @throws ReinException when a part is null (one met only at the first call otherwise, or a guard that checks nothing) */
        public Guard {
            if (allowlist == null) {
                throw new ReinException("a DomainAllowlist.Guard was given no allowlist (null): make it with"
                        + " DomainAllowlist.of(\"example.com\").guard(toolName, urlArgument)");
            }
            requireGiven(toolName, "guard", "the name of the tool whose calls to check");
            requireGiven(urlArgument, "guard", "the name of the argument that holds the URL");
        }

        @Override
        public ToolOutcome intercept(ToolInvocation invocation, Chain chain) throws InterruptedException {
            if (!invocation.tool().name().equals(toolName)) {
                return chain.proceed(invocation);
            }
            JsonNode url = invocation.call().arguments().get(urlArgument);
            Optional<String> problem = url == null || !url.isTextual()
                    ? Optional.of("argument '" + urlArgument + "' must be a URL string") : allowlist.check(url.asText());
            if (problem.isEmpty()) {
                return chain.proceed(invocation);
            }
            return ToolOutcome.of(ToolResult.error(invocation.call(), ErrorClass.PERMISSION_DENIED, "Permission denied: " + problem.get()
                    + ". The tool was not called. Use a URL on an allowed host."));
        }
    }

    /** Refuses a null argument of a public method, saying what to pass. */
    private static void requireGiven(Object value, String method, String what) {
        if (value == null) {
            throw new ReinException("DomainAllowlist." + method + "(...) was given null: pass " + what);
        }
    }

    /** The entries, for messages. */
    public String describe() {
        Set<String> all = new LinkedHashSet<>(exact);
        suffixes.forEach(s -> all.add("*" + s));
        return all.toString();
    }

    /**
     * The full stops IDNA takes for dots (RFC 3490 3.1: U+3002, U+FF0E, U+FF61, as a Japanese input
     * method types them) written as '.', so that a trailing one is a trailing dot and "*。" a wildcard.
     */
    private static String dots(String host) {
        return host.replace('\u3002', '.').replace('\uFF0E', '.').replace('\uFF61', '.');
    }

    /**
     * Why {@code host} (an entry, lower-cased, without its leading "*.") can name no host, or null when it can: a
     * '*' that is not a leading "*.", an empty label, or a label with characters no host name has (letters, digits
     * and inner hyphens only, per label, in its IDN form), or a wildcard over a domain ending in a number. A
     * bracketed IP literal is taken as it is.
     */
    private static String entryProblem(String host, boolean wildcard) {
        String h = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        if (h.contains("*")) {
            return "has a '*' that is not a leading '*.': a wildcard is '*.' followed by a domain";
        }
        if (h.isEmpty()) {
            return "names no domain";
        }
        if (h.startsWith("[")) {
            return h.endsWith("]") ? null : "opens an IP literal with '[' that it does not close";
        }
        if (h.startsWith(".") || h.endsWith(".") || h.contains("..")) {
            return "has an empty label (two dots together, or a dot at the start)";
        }
        if (wildcard && h.substring(h.lastIndexOf('.') + 1).chars().allMatch(c -> c >= '0' && c <= '9')) {
            // no top-level domain is a number: '*.0.1' would match IP addresses (10.0.0.1), which pass only when listed
            return "is a wildcard over numbers, which would match IP addresses: list each IP address to allow";
        }
        try {
            IDN.toASCII(h, IDN.USE_STD3_ASCII_RULES);
            return null;
        } catch (IllegalArgumentException e) {
            return "is not a host name (" + e.getMessage() + ")";
        }
    }

    private static String normalise(String host) {
        String h = dots(host).toLowerCase(Locale.ROOT);
        if (h.endsWith(".")) {
            h = h.substring(0, h.length() - 1);
        }
        if (h.startsWith("[")) {
            return h;
        }
        return IDN.toASCII(h, IDN.ALLOW_UNASSIGNED).toLowerCase(Locale.ROOT);
    }
}
