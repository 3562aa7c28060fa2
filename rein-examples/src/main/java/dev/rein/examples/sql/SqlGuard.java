package dev.rein.examples.sql;

import dev.rein.tool.ErrorClass;
import dev.rein.tool.ToolInterceptor;
import dev.rein.tool.ToolOutcome;
import dev.rein.tool.ToolResult;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An executor stage in front of {@code run_sql}: only one read statement (SELECT, or WITH ...
 * SELECT) per call gets through. Anything else is refused as permission denied before a
 * connection is opened. It is the first of two layers: the connection itself is read-only, so a
 * statement this check misjudges still cannot write.
 */
final class SqlGuard implements ToolInterceptor {
    private static final Pattern WRITES = Pattern.compile(
            "\\b(insert|update|delete|replace|upsert|merge|drop|create|alter|attach|detach|pragma|vacuum|reindex|analyze)\\b");

    @Override
    public ToolOutcome intercept(dev.rein.tool.ToolInvocation invocation, Chain chain) throws InterruptedException {
        if (!invocation.tool().name().equals(SqlTool.RUN_SQL)) {
            return chain.proceed(invocation);
        }
        Optional<String> problem = problem(invocation.call().arguments().path("query").asText());
        if (problem.isEmpty()) {
            return chain.proceed(invocation);
        }
        return ToolOutcome.of(ToolResult.error(invocation.call(), ErrorClass.PERMISSION_DENIED, "Permission denied: " + problem.get()
                + ". This database is read-only for you; the statement was not run."));
    }

    /** Why {@code sql} may not run, or empty when it is a single read statement. */
    static Optional<String> problem(String sql) {
        String code = codeOnly(sql).strip();
        if (code.endsWith(";")) {
            code = code.substring(0, code.length() - 1).strip();
        }
        if (code.isEmpty()) {
            return Optional.of("the query is empty");
        }
        if (code.contains(";")) {
            return Optional.of("only one statement per call is allowed");
        }
        String lower = code.toLowerCase(Locale.ROOT);
        if (!lower.startsWith("select") && !lower.startsWith("with")) {
            return Optional.of("only SELECT queries are allowed, not '" + lower.split("\\s+", 2)[0].toUpperCase(Locale.ROOT) + "'");
        }
        var write = WRITES.matcher(lower);
        if (write.find()) {
            return Optional.of("only SELECT queries are allowed; '" + write.group(1).toUpperCase(Locale.ROOT) + "' changes the database");
        }
        return Optional.empty();
    }

    /** {@code sql} with comments removed and the contents of string literals and quoted names blanked. */
    static String codeOnly(String sql) {
        StringBuilder out = new StringBuilder(sql.length());
        int i = 0;
        while (i < sql.length()) {
            char c = sql.charAt(i);
            if (c == '-' && sql.startsWith("--", i)) {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? sql.length() : end;
            } else if (c == '/' && sql.startsWith("/*", i)) {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? sql.length() : end + 2;
                out.append(' ');
            } else if (c == '\'' || c == '"' || c == '`' || c == '[') {
                char close = c == '[' ? ']' : c;
                int end = sql.indexOf(close, i + 1);
                out.append(c).append(close);
                i = end < 0 ? sql.length() : end + 1;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }
}
