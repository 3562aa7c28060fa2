package dev.rein.cli;

import dev.rein.internal.text.ShellWords;
import dev.rein.json.Json;
import dev.rein.memory.MemoryEntry;
import dev.rein.memory.MemoryScope;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code rein memory list|forget}: the long-term memory that {@code remember} wrote. */
@Command(name = "memory", mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        header = "List or forget long-term memory entries.",
        description = {"Entries are written only by the remember tool (rein run --memory; it needs approval) and are kept"
                + " per tenant and user in the run store. 'forget' deletes an entry and its search terms for good.", ""},
        subcommands = {MemoryCommand.ListEntries.class, MemoryCommand.Forget.class})
final class MemoryCommand implements Callable<Integer> {
    private final CliEnvironment env;

    MemoryCommand(CliEnvironment env) {
        this.env = env;
    }

    @Override
    public Integer call() {
        throw new UsageException("say what to do with the memory: 'rein memory list' or 'rein memory forget ID'");
    }

    /** Whose memory: by default the CLI's own principal. */
    static final class Scope {
        @ExampleValue("acme")
        @Option(names = "--tenant", paramLabel = "NAME", description = "The tenant (default: ${DEFAULT-VALUE}).", defaultValue = "default")
        String tenant;

        @ExampleValue("alice")
        @Option(names = "--user", paramLabel = "NAME", description = "The user (default: ${DEFAULT-VALUE}).", defaultValue = "anonymous")
        String user;

        /** The options that name this scope on a command line, none for the default one (so the listing shows the same entries). */
        String options() {
            return options(tenant, user);
        }

        /** The options that name the scope of {@code tenant} and {@code user}, none for the default one. */
        static String options(String tenant, String user) {
            return ("default".equals(tenant) ? "" : " --tenant " + ShellWords.word(tenant))
                    + ("anonymous".equals(user) ? "" : " --user " + ShellWords.word(user));
        }

        /**
         * The command forgetting {@code entry}, in its own scope (a bare 'rein memory forget ID' looks in the default one),
         * quoted, an id starting with '-' after {@code --}: none when its id or a name holds a control character, which
         * the list shows as an escape a pasted command would keep as typed.
         */
        static String forgetting(MemoryEntry entry) {
            String tenant = entry.scope().tenant();
            String user = entry.scope().user();
            if (!Text.visible(tenant).equals(tenant) || !Text.visible(user).equals(user) || !Text.visible(entry.id()).equals(entry.id())) {
                return "'rein memory forget' given its id and the same --tenant and --user, in quotes,";
            }
            return SuggestedCommand.quoted("rein memory forget" + options(tenant, user) + " "
                    + ShellWords.run(entry.id(), ShellWords.word(entry.id())));
        }

        /**
         * The command listing this scope's entries, quoted: none when a name holds a control character, which the message
         * shows as an escape or a '; ' that a pasted command would keep as typed, another scope's name.
         */
        String listing() {
            if (!Text.visible(tenant).equals(tenant) || !Text.visible(user).equals(user)) {
                return "'rein memory list' given the same --tenant and --user, in quotes";
            }
            return SuggestedCommand.quoted("rein memory list" + options());
        }

        /** A blank name is no one's scope: said by option, with what to give. */
        private static void requireName(String option, String what, String value, String example, String fallback) {
            if (value.isBlank()) {
                throw new UsageException(option + " is " + (value.isEmpty() ? "empty" : "blank") + ": give the " + what + "'s name, e.g. "
                        + option + " " + example + ", or leave " + option + " out for " + what + " '" + fallback + "'");
            }
        }

        MemoryScope scope() {
            requireName("--tenant", "tenant", tenant, "acme", "default");
            requireName("--user", "user", user, "alice", "anonymous");
            // a name the JVM could not decode is another scope's: nothing would be found in it, or the wrong entries
            CommandLineArgs.requireUtf8("--tenant", tenant);
            CommandLineArgs.requireUtf8("--user", user);
            return new MemoryScope(tenant, user);
        }
    }

    private static CliMemory open(CliEnvironment env) {
        CliHome home = CliHome.of(env.env());
        if (!home.hasStore()) {
            throw new UsageException(home.noStoreMessage());
        }
        return new CliMemory(home.directory());
    }

    /** Reads or changes the memory, a store that cannot be opened being a usage error that says what to do. */
    private static <T> T using(CliEnvironment env, java.util.function.Supplier<T> action) {
        try {
            return action.get();
        } catch (dev.rein.state.StoreException e) {
            throw CliHome.of(env.env()).unusableStore(e);
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, header = "List the entries of one tenant and user, newest first.")
    static final class ListEntries implements Callable<Integer> {
        private final CliEnvironment env;

        @picocli.CommandLine.Mixin
        Scope scope = new Scope();

        @Option(names = "--json", description = "One JSON object with an 'entries' array.")
        boolean json;

        ListEntries(CliEnvironment env) {
            this.env = env;
        }

        @Override
        public Integer call() {
            MemoryScope memoryScope = scope.scope();
            CliHome home = CliHome.of(env.env());
            List<MemoryEntry> entries;
            if (home.hasStore()) {
                entries = using(env, () -> new CliMemory(home.directory()).list(memoryScope,
                        unlisted -> env.err().println("rein memory list: " + Text.visible(unlisted))));
            } else {
                // Listing is reading, as for 'rein runs': an empty list, and no store created just to find it empty.
                entries = List.of();
                env.err().println("rein memory list: " + home.noStoreMessage());
            }
            // expired entries are listed until forgotten (they may hold personal data), but marked: recall skips them
            java.time.Instant now = java.time.Instant.now();
            if (json) {
                env.out().println(Json.write(Map.of("entries", entries.stream().map(e -> json(e, now)).toList())));
                return 0;
            }
            if (entries.isEmpty()) {
                env.out().println("no memory entries for " + Text.visible(scope.user) + " in tenant " + Text.visible(scope.tenant));
            }
            for (MemoryEntry e : entries) {
                env.out().println(Text.visible(e.id()) + "  " + e.createdAt() + "  by " + Text.visible(e.createdBy()) + "  from "
                        + Text.visible(e.source().describe()) + (e.expiresAt() == null ? ""
                        : expired(e, now) ? "  expired " + e.expiresAt() + " (no longer recalled; "
                        + Scope.forgetting(e) + " deletes it)" : "  expires " + e.expiresAt()));
                env.out().println("    " + Text.visible(e.text()));
            }
            return 0;
        }

        /** As a recall decides: an entry is recalled until the instant it expires, not at it. */
        private static boolean expired(MemoryEntry e, java.time.Instant now) {
            return e.expiresAt() != null && !now.isBefore(e.expiresAt());
        }

        private static Map<String, Object> json(MemoryEntry e, java.time.Instant now) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", e.id());
            m.put("tenant", e.scope().tenant());
            m.put("user", e.scope().user());
            m.put("text", e.text());
            m.put("source", e.source().source());
            m.put("source_run", e.source().runId());
            m.put("source_observation", e.source().observation());
            m.put("created_by", e.createdBy());
            m.put("created_at", e.createdAt().toString());
            m.put("expires_at", e.expiresAt() == null ? null : e.expiresAt().toString());
            m.put("expired", expired(e, now));
            return m;
        }
    }

    @Command(name = "forget", mixinStandardHelpOptions = true, header = "Delete one entry for good (the row and its search terms).")
    static final class Forget implements Callable<Integer> {
        private final CliEnvironment env;

        @picocli.CommandLine.Mixin
        Scope scope = new Scope();

        @ExampleValue("mem_8d2e4f6a1b3c5d7e9f0a")
        @Parameters(index = "0", paramLabel = "ID", description = "The entry id (mem_..., see 'rein memory list').")
        String id;

        Forget(CliEnvironment env) {
            this.env = env;
        }

        @Override
        public Integer call() {
            if (id.isBlank()) {
                // "there is no memory entry  for ..." hid the empty id in a double space
                throw new UsageException("the ID is " + (id.isEmpty() ? "empty" : "blank") + ": give the id of the entry to forget,"
                        + " e.g. rein memory forget mem_8d2e4f6a1b3c5d7e9f0a (see 'rein memory list' for the ids)");
            }
            MemoryScope memoryScope = scope.scope();
            if (!using(env, () -> open(env).forget(memoryScope, id))) {
                throw new UsageException("there is no memory entry " + id + " for " + scope.user + " in tenant " + scope.tenant
                        + "; list them with " + scope.listing());
            }
            env.out().println("forgot " + Text.visible(id));
            return 0;
        }
    }
}
