package dev.rein.mcp.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import dev.rein.json.Json;
import dev.rein.mcp.McpConfig;
import dev.rein.mcp.McpConfigException;
import dev.rein.mcp.McpServerConfig;
import dev.rein.provider.ProviderConfig;
import dev.rein.tool.Risk;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads the {@code mcpServers} JSON format strictly: every mistake is one message naming the server and key. */
public final class ConfigParser {
    private static final Set<String> KEYS = Set.of("type", "command", "args", "env", "cwd", "url", "headers",
            "risk", "allow", "deny", "scope", "timeout_seconds", "trust", "prefix", "disabled");
    /** Keys other clients write that Rein reads past, each with a warning saying what Rein does instead. */
    private static final Set<String> FOREIGN = Set.of("autoApprove", "alwaysAllow", "description", "timeout", "envFile");
    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?}");
    /**
     * The name of a variable that holds a credential (API_KEY, GITHUB_TOKEN, DB_PASSWORD, CLIENT_SECRET, AUTH,
     * GITLAB_PAT, ...); PAT only as a word of its own, so not PATH.
     */
    private static final Pattern CREDENTIAL_NAME = Pattern.compile("(?i)key|token|secret|passw|pwd|credential|auth|cookie"
            + "|(?<![a-z])pat(?![a-z])");
    /** Letters and digits of any script (a server may be called '天気', as other clients allow), not spaces or invisible characters. */
    private static final Pattern NAME = Pattern.compile("[\\p{L}\\p{M}\\p{N}_.-]{1,64}");
    /** A header value of an authentication scheme and its credential. */
    private static final Pattern CREDENTIAL = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*\\s+(\\S+)\\s*");
    private static final Pattern PREFIX = Pattern.compile("[A-Za-z0-9_-]{1,32}");
    /** How Jackson words a key written twice in one object. */
    private static final Pattern DUPLICATE = Pattern.compile("Duplicate field '(.*)'", Pattern.DOTALL);
    private static final BigDecimal MAX_TIMEOUT_SECONDS = BigDecimal.valueOf(3600);
    /** The longest {@code timeout_seconds} a servers file takes, for advice that names a value it would take. */
    static final java.time.Duration MAX_TIMEOUT = java.time.Duration.ofSeconds(MAX_TIMEOUT_SECONDS.longValueExact());

    private final String origin;
    private final Function<String, String> variables;
    private final List<String> warnings = new ArrayList<>();

    private ConfigParser(String origin, Function<String, String> variables) {
        this.origin = origin;
        this.variables = variables;
    }

    /** @param variables the value of a {@code ${NAME}}, or null when it is not set */
    public static McpConfig parse(String json, String origin, Function<String, String> variables) {
        return new ConfigParser(origin, variables).parse(json);
    }

    private McpConfig parse(String json) {
        JsonNode root;
        try {
            // Strict: a parser keeps the last of two equal keys, so a second entry of a server (or a
            // second "deny") would silently replace the first.
            root = Json.mapper().reader().with(StreamReadFeature.STRICT_DUPLICATE_DETECTION).readTree(json);
        } catch (JsonProcessingException e) {
            String where = "(line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
            Matcher duplicate = DUPLICATE.matcher(String.valueOf(e.getOriginalMessage()));
            if (duplicate.matches()) {
                throw new McpConfigException(origin + " has the key \"" + duplicate.group(1) + "\" twice in one object " + where
                        + "; only one would count, so write each server and each key once");
            }
            // Json.problem: Jackson's message can name a position inside it ("[Source: REDACTED ...; line: 1, column: 16]")
            throw new McpConfigException(origin + " is not valid JSON: " + Json.problem(e) + "; correct it there (JSON allows no"
                    + " comments or trailing commas, and takes strings in double quotes), e.g. {\"mcpServers\": {\"NAME\":"
                    + " {\"command\": \"...\", \"args\": [\"...\"]}}}.");
        }
        JsonNode servers = root == null ? null : root.get("mcpServers");
        if (servers == null || !servers.isObject()) {
            throw new McpConfigException(origin + " has no \"mcpServers\" object; write {\"mcpServers\": {\"NAME\": {\"command\": \"...\"}}}");
        }
        List<McpServerConfig> result = new ArrayList<>();
        for (Map.Entry<String, JsonNode> entry : servers.properties()) {
            String name = entry.getKey();
            if (!NAME.matcher(name).matches()) {
                throw new McpConfigException(origin + ": server name '" + name + "' is invalid; use 1-64 letters (of any script), digits, '_', '-' or '.'");
            }
            if (!entry.getValue().isObject()) {
                throw error(name, "must be an object with \"command\" or \"url\"");
            }
            // Strictly a boolean: "disabled": "false" must not leave a server out, nor "yes" start one.
            if (bool(name, entry.getValue(), "disabled")) {
                continue;
            }
            result.add(server(name, entry.getValue()));
        }
        return new McpConfig(result, warnings);
    }

    private McpServerConfig server(String name, JsonNode node) {
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            String key = field.getKey();
            if (FOREIGN.contains(key)) {
                warnings.add("MCP server '" + name + "': key \"" + key + "\" is ignored by Rein" + switch (key) {
                    case "timeout" -> "; the limit of one call is \"timeout_seconds\" (default 30)";
                    case "envFile" -> "; put the variables the server needs in \"env\" (values may be ${VAR})";
                    case "description" -> "";
                    default -> " (approvals come from the tool's risk and the approval policy; see docs/mcp.md)";
                });
            } else if (!KEYS.contains(key)) {
                throw error(name, "has an unknown key \"" + key + "\"; the known keys are " + String.join(", ", KEYS.stream().sorted().toList()));
            }
        }
        Map<String, String> secrets = new LinkedHashMap<>();
        McpServerConfig.Transport transport = transport(name, node, secrets);
        Risk risk = null;
        Map<String, Risk> toolRisk = new LinkedHashMap<>();
        JsonNode riskNode = node.get("risk");
        if (riskNode != null && riskNode.isObject()) {
            riskNode.properties().forEach(e -> toolRisk.put(e.getKey(), risk(name, "risk." + e.getKey(), e.getValue())));
        } else if (riskNode != null) {
            risk = risk(name, "risk", riskNode);
        }
        Set<String> allow = names(name, node, "allow");
        if (node.has("allow") && allow.isEmpty()) {
            // The record reads an empty allow set as "no allow list"; [] would offer every tool instead of none.
            throw error(name, "has an empty \"allow\" list, which would offer none of its tools; list the tools to offer,"
                    + " or set \"disabled\": true to leave the server out");
        }
        return new McpServerConfig(name, transport, risk, toolRisk, allow, names(name, node, "deny"),
                scope(name, node), timeout(name, node), bool(name, node, "trust"), prefix(name, node), secrets);
    }

    private McpServerConfig.Transport transport(String name, JsonNode node, Map<String, String> secrets) {
        String type = text(name, node, "type");
        boolean hasCommand = node.has("command");
        boolean hasUrl = node.has("url");
        if (hasCommand == hasUrl) {
            throw error(name, hasCommand ? "has both \"command\" and \"url\"; give one"
                    : "needs \"command\" (a local server) or \"url\" (a streamable HTTP server)");
        }
        if (type != null && !Set.of("stdio", "http", "streamable-http", "streamableHttp").contains(type)) {
            throw error(name, "has \"type\": \"" + type + "\"; Rein supports \"stdio\" and \"http\" (streamable HTTP)"
                    + ("sse".equals(type) ? "; the older SSE transport is not supported, use the server's streamable HTTP endpoint" : ""));
        }
        // A type that contradicts the entry is a mistake in one of them; neither is silently preferred.
        if ("stdio".equals(type) && hasUrl) {
            throw error(name, "has \"type\": \"stdio\" but \"url\"; a stdio server needs \"command\", a URL needs"
                    + " \"type\": \"http\" (or no \"type\")");
        }
        if (type != null && !"stdio".equals(type) && hasCommand) {
            throw error(name, "has \"type\": \"" + type + "\" but \"command\"; a streamable HTTP server needs \"url\","
                    + " a local server \"type\": \"stdio\" (or no \"type\")");
        }
        if (hasCommand) {
            String command = expand(name, "command", text(name, node, "command"), null);
            if (command.isBlank()) {
                throw error(name, "has an empty \"command\"");
            }
            List<String> args = new ArrayList<>();
            Map<String, String> substituted = new LinkedHashMap<>();
            for (String arg : strings(name, node, "args")) {
                args.add(expand(name, "args", arg, substituted));
            }
            // An argument may carry a key ("--api-key", "${API_KEY}") or a path ("${HOME}/work"), which must not be
            // masked in every result: the variable's name tells them apart.
            substituted.forEach((variable, value) -> {
                if (CREDENTIAL_NAME.matcher(variable).find()) {
                    secrets.put(variable, value);
                }
            });
            literalCredentials(name, args, secrets);
            Map<String, String> env = map(name, node, "env", secrets, false);
            String cwd = text(name, node, "cwd");
            return new McpServerConfig.Stdio(command, args, env, cwd == null ? null : Path.of(expand(name, "cwd", cwd, null)));
        }
        // A variable in the URL is a token as much as one in a header (some servers take ?api_key=...).
        // Messages quote the URL as written, so a ${VAR}'s value never shows in them.
        String written = text(name, node, "url");
        String url = expand(name, "url", written, secrets);
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw error(name, "has an invalid \"url\": \"" + written + "\"; write an http:// or https:// URL with a host,"
                    + " with spaces and other special characters percent-encoded");
        }
        if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
            throw error(name, "has \"url\": \"" + written + "\"; it must start with http:// or https://");
        }
        if (uri.getHost() == null) {
            throw error(name, "has \"url\": \"" + written + "\"; it needs a host, as in http://localhost:3000/mcp"
                    + ProviderConfig.hostAdvice(url));
        }
        return new McpServerConfig.Http(uri, map(name, node, "headers", secrets, true));
    }

    /**
     * Registers the credentials READMEs have written into args as they are: the value after a flag
     * naming one ({@code "--api-key", "sk-..."}, {@code "--auth-token=..."}; not a flag naming a
     * file, path or directory) and the password of a URL ({@code postgresql://user:pw@host/db}).
     */
    private static void literalCredentials(String server, List<String> args, Map<String, String> secrets) {
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            String value = null;
            Matcher password = URL_PASSWORD.matcher(arg);
            if (password.find()) {
                value = password.group(1);
            } else if (arg.startsWith("-") && arg.contains("=")) {
                value = credentialName(arg.substring(0, arg.indexOf('='))) ? arg.substring(arg.indexOf('=') + 1) : null;
            } else if (arg.startsWith("-") && credentialName(arg) && i + 1 < args.size() && !args.get(i + 1).startsWith("-")) {
                value = args.get(++i);
            }
            if (value != null && plausibleCredential(value) && !secrets.containsValue(value)) {
                secrets.put("mcp." + server + ".args." + i, value);
            }
        }
    }

    /**
     * Whether a value written as it is under a name that marks a credential may be one: not a
     * number, a yes/no or a path ("--max-tokens", "4000" or "MAX_TOKENS": "4096" would otherwise
     * mask every 4000 in every result).
     */
    private static boolean plausibleCredential(String value) {
        return value.length() >= 6 && !NOT_A_CREDENTIAL.matcher(value).matches();
    }

    private static final Pattern NOT_A_CREDENTIAL = Pattern.compile("(?i)[-+]?[0-9][0-9_.,]*|true|false|yes|no|on|off|[/~.].*");

    /** Whether a flag or variable names a credential, not something about one ("--key-file", "AUTH_MODE"). */
    private static boolean credentialName(String name) {
        return CREDENTIAL_NAME.matcher(name).find() && !ABOUT_A_CREDENTIAL.matcher(name).find();
    }

    /**
     * A name ending so says where a credential is kept or how it is used, not the credential
     * ("--key-file", "TOKEN_URL", "AUTH_MODE", "GIT_AUTHOR_NAME"): its written value is shown.
     */
    private static final Pattern ABOUT_A_CREDENTIAL = Pattern.compile("(?i)(file|path|dir|mode|type|method|url|uri|host|name|author)$");
    /** The password of a URL's user info. */
    private static final Pattern URL_PASSWORD = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*://[^/@:\\s]*:([^/@\\s]+)@");

    private Map<String, String> map(String server, JsonNode node, String key, Map<String, String> secrets, boolean allSecret) {
        JsonNode value = node.get(key);
        Map<String, String> result = new LinkedHashMap<>();
        if (value == null) {
            return result;
        }
        if (!value.isObject()) {
            throw error(server, "\"" + key + "\" must be an object of strings");
        }
        for (Map.Entry<String, JsonNode> e : value.properties()) {
            if (!e.getValue().isTextual()) {
                throw error(server, "\"" + key + "." + e.getKey() + "\" must be a string");
            }
            String expanded = expand(server, key + "." + e.getKey(), e.getValue().asText(), secrets);
            if (allSecret) {
                checkHeader(server, e.getKey(), expanded);
            } else if (e.getKey().isEmpty() || e.getKey().contains("=") || e.getKey().indexOf('\0') >= 0) {
                throw error(server, "\"" + key + "\" has the name \"" + e.getKey() + "\", which no environment variable can have (it is"
                        + " empty or holds '='); correct the name");
            }
            result.put(e.getKey(), expanded);
            if (allSecret && expanded.length() >= 4) {
                secrets.put("mcp." + server + "." + key + "." + e.getKey(), expanded);
                // "Bearer TOKEN", "Basic ...": a server quoting the credential quotes it without its scheme.
                Matcher credential = CREDENTIAL.matcher(expanded);
                if (credential.matches() && credential.group(1).length() >= 4) {
                    secrets.put("mcp." + server + "." + key + "." + e.getKey() + ".credential", credential.group(1));
                }
            } else if (credentialName(e.getKey()) && plausibleCredential(expanded) && !secrets.containsValue(expanded)) {
                // Servers' READMEs write the token into env as it is ("GITHUB_PERSONAL_ACCESS_TOKEN": "<token>"): the
                // variable's name marks it as one substituted from ${VAR} is; a path such as MEMORY_FILE_PATH stays shown.
                secrets.put("mcp." + server + "." + key + "." + e.getKey(), expanded);
            } else if (!allSecret) {
                // DATABASE_URL=postgresql://user:PASSWORD@host/db: the password, as in args.
                Matcher password = URL_PASSWORD.matcher(expanded);
                if (password.find() && plausibleCredential(password.group(1)) && !secrets.containsValue(password.group(1))) {
                    secrets.put("mcp." + server + "." + key + "." + e.getKey() + ".password", password.group(1));
                }
            }
        }
        return result;
    }

    /** Header names the JDK's HTTP client sets itself and refuses from a caller. */
    private static final Set<String> CLIENT_HEADERS = Set.of("connection", "content-length", "expect", "host", "upgrade");
    /** Header names the streamable HTTP transport gives values of its own. */
    private static final Set<String> PROTOCOL_HEADERS = Set.of("accept", "content-type", "mcp-session-id", "mcp-protocol-version",
            "last-event-id");
    /** An HTTP header name: a token (RFC 9110, 5.6.2). */
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

    /**
     * Refuses a header no request can carry as written, which would otherwise fail every request
     * in the HTTP client with an error naming its own classes. The value is never quoted: every
     * header value counts as a secret.
     */
    private void checkHeader(String server, String name, String value) {
        if (!HEADER_NAME.matcher(name).matches()) {
            throw error(server, "\"headers\" has the name \"" + name + "\", which is not a valid HTTP header name (letters, digits"
                    + " and !#$%&'*+.^_`|~- only, no spaces or ':'); correct the name");
        }
        if (CLIENT_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
            throw error(server, "\"headers." + name + "\" is set by the HTTP client itself; remove it");
        }
        // Configured headers replace the client's own, which the transport needs as they are (an Accept
        // without text/event-stream is answered 406, a fixed session id replaces the session's).
        if (PROTOCOL_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
            throw error(server, "\"headers." + name + "\" is set by Rein itself, as the MCP transport requires; remove it");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7F) {
                throw error(server, "\"headers." + name + "\" holds a line break or another control character (character " + (i + 1)
                        + " of its value, after ${...} are replaced), which an HTTP header cannot carry; check the value (a token"
                        + " read from a file often ends in a line break)");
            }
            if (c > 0xFF) {
                throw error(server, "\"headers." + name + "\" holds a character beyond Latin-1 (character " + (i + 1) + " of its"
                        + " value, after ${...} are replaced: a letter of another script, or a typographic quote pasted with it),"
                        + " which an HTTP header cannot carry; check the value");
            }
        }
    }

    /** Replaces {@code ${NAME}}; the values it puts in become secrets when {@code secrets} is given. */
    private String expand(String server, String key, String value, Map<String, String> secrets) {
        Matcher m = VARIABLE.matcher(value);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            String set = variables.apply(m.group(1));
            String replacement = set == null || set.isEmpty() ? m.group(2) : set;
            if (replacement == null) {
                // An empty value counts as unset (as ${NAME:-default} in a shell), but the user did set it.
                throw error(server, "\"" + key + "\" uses ${" + m.group(1) + "}, which is " + (set == null ? "not set" : "set but empty")
                        + "; set the environment variable " + m.group(1) + (set == null ? "" : " to a value") + " or give a default as ${"
                        + m.group(1) + ":-value}");
            }
            if (secrets != null && m.group(2) == null && replacement.length() >= 4) {
                secrets.put(m.group(1), replacement);
            }
            m.appendReplacement(sb, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    private Risk risk(String server, String key, JsonNode value) {
        String text = value.isTextual() ? value.asText().toLowerCase(Locale.ROOT) : "";
        return switch (text) {
            case "read" -> Risk.READ;
            case "write" -> Risk.WRITE;
            case "irreversible" -> Risk.IRREVERSIBLE;
            default -> throw error(server, "\"" + key + "\" is " + value + "; use \"read\", \"write\" or \"irreversible\","
                    + " or an object of tool name to one of those");
        };
    }

    private Set<String> names(String server, JsonNode node, String key) {
        return new LinkedHashSet<>(strings(server, node, key));
    }

    private List<String> strings(String server, JsonNode node, String key) {
        JsonNode value = node.get(key);
        List<String> result = new ArrayList<>();
        if (value == null) {
            return result;
        }
        if (!value.isArray()) {
            throw error(server, "\"" + key + "\" must be an array of strings");
        }
        for (JsonNode item : value) {
            if (!item.isTextual()) {
                throw error(server, "\"" + key + "\" must be an array of strings, but contains " + item);
            }
            result.add(item.asText());
        }
        return result;
    }

    private String scope(String server, JsonNode node) {
        String scope = text(server, node, "scope");
        if (scope != null && scope.isBlank()) {
            throw error(server, "has an empty \"scope\"; remove it or name the scope the run's principal must hold");
        }
        return scope;
    }

    private Duration timeout(String server, JsonNode node) {
        JsonNode value = node.get("timeout_seconds");
        if (value == null) {
            return null;
        }
        // 1e400 reads as an infinite double, which has no decimal value (and would be shown as "Infinity").
        boolean infinite = value.isFloatingPointNumber() && !Double.isFinite(value.doubleValue());
        if (!value.isNumber() || infinite || value.decimalValue().signum() <= 0 || value.decimalValue().compareTo(MAX_TIMEOUT_SECONDS) > 0) {
            throw error(server, "\"timeout_seconds\" is " + (infinite ? "a number too large to read" : value)
                    + "; give a number of seconds above 0 and at most 3600");
        }
        return Duration.ofMillis(Math.max(1, value.decimalValue().movePointRight(3).longValue()));
    }

    private String prefix(String server, JsonNode node) {
        String prefix = text(server, node, "prefix");
        if (prefix != null && !PREFIX.matcher(prefix).matches()) {
            throw error(server, "\"prefix\" is '" + prefix + "'; use 1-32 ASCII letters, digits, '_' or '-', e.g. \"" + suggestedPrefix(server) + "\"");
        }
        return prefix;
    }

    /**
     * A prefix to suggest for {@code server}: its name in the characters a tool name may hold, or
     * "mcp_" for a name without a letter or digit among them (such as '天気').
     */
    public static String suggestedPrefix(String server) {
        String ascii = server.replaceAll("[^A-Za-z0-9]", "_");
        return (ascii.matches(".*[A-Za-z0-9].*") ? ascii.length() > 31 ? ascii.substring(0, 31) : ascii : "mcp") + "_";
    }

    private boolean bool(String server, JsonNode node, String key) {
        JsonNode value = node.get(key);
        if (value != null && !value.isBoolean()) {
            throw error(server, "\"" + key + "\" must be true or false, was " + value);
        }
        return value != null && value.asBoolean();
    }

    private String text(String server, JsonNode node, String key) {
        JsonNode value = node.get(key);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            throw error(server, "\"" + key + "\" must be a string, was " + value);
        }
        return value.asText();
    }

    private McpConfigException error(String server, String what) {
        return new McpConfigException(origin + ": MCP server '" + server + "' " + what);
    }
}
