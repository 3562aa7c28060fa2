package dev.rein.cli;

/**
 * Who records an approval decision: {@code --as NAME}, else the operating-system user ({@code $USER},
 * {@code $LOGNAME}, then the JVM's {@code user.name}). Recorded with the decision and shown in the trace.
 */
final class DeciderName {
    static final int MAX_LENGTH = 200;

    private DeciderName() {}

    static String of(String as, CliEnvironment env) {
        if (as != null) {
            CommandLineArgs.requireUtf8("--as", as); // else recorded under a name with U+FFFD, which nobody has
            String name = as.strip();
            if (name.isEmpty()) {
                throw new UsageException("--as is empty: give the name the decision is recorded under, e.g. --as alice");
            }
            // characters as the message (and Text.shorten) count them: code points, not UTF-16 units
            if (name.codePointCount(0, name.length()) > MAX_LENGTH || !Text.visible(name).equals(name)) {
                throw new UsageException("--as must be a name of at most " + MAX_LENGTH + " characters without control"
                        + " characters, got '" + Text.shortenVisible(as, 40) + "'"); // a tab shown as a space would hide what is wrong
            }
            return name;
        }
        for (String variable : new String[] {"USER", "LOGNAME"}) {
            String value = env.env().get(variable);
            if (value != null && !value.isBlank()) {
                return value.strip();
            }
        }
        String user = System.getProperty("user.name");
        return user == null || user.isBlank() ? "unknown-user" : user;
    }
}
