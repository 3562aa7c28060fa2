package dev.rein.cli;

import dev.rein.testkit.MessagingTools;
import dev.rein.internal.text.Controls;
import dev.rein.internal.text.ShellWords;
import dev.rein.json.Json;
import dev.rein.state.RunStore;
import dev.rein.store.jdbc.JdbcRunStore;
import dev.rein.tool.Tool;
import dev.rein.tool.builtin.BuiltinTools;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where the CLI keeps its state: {@code $REIN_HOME}, or {@code .rein} in the working directory.
 * It holds the SQLite run store ({@code rein.db}), the settings each run was started with (so
 * {@code rein resume} rebuilds the same agent in another process) and the demo outbox.
 */
final class CliHome {
    private final Path directory;

    private CliHome(Path directory) {
        this.directory = directory;
    }

    static CliHome of(Map<String, String> env) {
        String home = env.get(JdbcRunStore.HOME_VARIABLE);
        return new CliHome(home == null || home.isBlank() ? Path.of(".rein") : Path.of(home));
    }

    Path directory() {
        return directory;
    }

    /** Where 'rein index' keeps the document index. */
    Path index() {
        return directory.resolve("index");
    }

    /** The SQLite file of the run store. */
    Path storeFile() {
        return directory.resolve(JdbcRunStore.SQLITE_FILE);
    }

    /**
     * True when a run has been stored here (the store exists); looking never creates it. A home that is a file (or lies
     * under one) and a {@code rein.db} that is a directory are usage errors naming what is in the way: either would
     * otherwise read as a store not yet created, and send the user to start a run.
     */
    boolean hasStore() {
        requireNoFileInTheWay("the run store");
        requireStoreIsNoDirectory();
        return Files.isRegularFile(storeFile());
    }

    /**
     * Refuses a home that is a file, or lies under one, naming it: opening {@code what} ("the run store", "the document
     * index") in it would fail with the file system's words alone.
     */
    void requireNoFileInTheWay(String what) {
        Path absolute = directory.toAbsolutePath();
        String inTheWay = dev.rein.internal.text.FileProblems.fileOnTheWay(absolute.toString());
        if (inTheWay != null) {
            throw new UsageException("cannot open " + what + " in " + absolute + " (" + inTheWay + " is a file, not a directory);"
                    + " set " + JdbcRunStore.HOME_VARIABLE + " to the directory of your runs");
        }
    }

    /** Refuses a {@code rein.db} that is a directory, which SQLite cannot open for a reason it does not name. */
    private void requireStoreIsNoDirectory() {
        if (Files.isDirectory(storeFile())) {
            throw new UsageException("the run store " + storeFile().toAbsolutePath() + " is a directory, not a SQLite database;"
                    + " move it aside to start an empty store there, or set " + JdbcRunStore.HOME_VARIABLE + " to the directory of your runs");
        }
    }

    /**
     * Opens the run store that commands reading or deciding stored runs need; a missing store is
     * a usage error saying so, and is not created (reading must leave no files behind).
     */
    JdbcRunStore existingStore() {
        if (!hasStore()) {
            throw new UsageException(noStoreMessage());
        }
        return store();
    }

    /** Says that there is no run store here and how to make one. */
    String noStoreMessage() {
        return "no run store in " + directory.toAbsolutePath() + " (no " + JdbcRunStore.SQLITE_FILE + ": no run was started here);"
                + " start one with 'rein run GOAL', or set " + JdbcRunStore.HOME_VARIABLE + " to the directory of your runs";
    }

    /** Opens the run store, creating it when missing; an unusable directory is a usage error naming it. */
    JdbcRunStore store() {
        requireStoreIsNoDirectory();
        try {
            Files.createDirectories(directory);
            return JdbcRunStore.sqlite(directory);
        } catch (IOException | RuntimeException e) {
            throw unusableStore(e);
        }
    }

    /**
     * Refuses a store that cannot be written now (a read-only file, a lock another process keeps), for
     * a command about to start or continue a run: said before any model is created or anything runs,
     * where the run would otherwise stop at its first save, or end without being stored.
     */
    void requireWritable(JdbcRunStore store) {
        try {
            store.checkWritable();
        } catch (RuntimeException e) {
            throw unusableStore(e);
        }
    }

    /**
     * {@link #requireWritable(JdbcRunStore)} of the store here, for a command that starts a run. A store not yet made
     * is not made here, as a run refused after this check (its API key missing) must leave nothing behind: the
     * directory it would go in is checked instead.
     */
    void requireWritable() {
        requireStoreIsNoDirectory();
        if (Files.isRegularFile(storeFile())) {
            try (JdbcRunStore store = store()) {
                requireWritable(store);
            }
            return;
        }
        Path absolute = directory.toAbsolutePath().normalize();
        Path existing = absolute;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null || !Files.isDirectory(existing) || !Files.isWritable(existing)) {
            String why = existing == null ? "no parent directory exists"
                    : !Files.isDirectory(existing) ? existing + " is a file, not a directory" : existing + " is not writable";
            throw new UsageException("cannot open the run store in " + absolute + " (" + why + "); set "
                    + JdbcRunStore.HOME_VARIABLE + " to a writable directory");
        }
    }

    /**
     * The usage error for a store that cannot be opened or written, with what to do: a file that is
     * not a database is moved aside, a newer Rein's store is left to it, a lock is waited out, a
     * read-only store is made writable; otherwise the directory is the problem.
     */
    UsageException unusableStore(Exception e) {
        // a file system exception's message is often the bare path, which the message names already
        String message = e instanceof IOException io ? dev.rein.internal.text.FileProblems.why(io) : String.valueOf(e.getMessage());
        // the database's own words: the store's message around them names the URL and says what this message says
        String cause = "(" + Errors.oneLine(e.getCause() instanceof java.sql.SQLException sql ? sql.getMessage() : message) + ")";
        if (message.contains("SQLITE_NOTADB") || message.contains("SQLITE_CORRUPT")) {
            return new UsageException(storeFile().toAbsolutePath() + " is not a SQLite database, or a damaged one " + cause
                    + "; move it aside to start an empty store there, or set " + JdbcRunStore.HOME_VARIABLE + " to the directory of your runs");
        }
        if (message.contains("newer than this Rein understands")) {
            // the directory is fine: the store belongs to a later Rein, so a writable directory is no remedy
            return new UsageException("the run store " + storeFile().toAbsolutePath() + " was written by a newer Rein " + cause
                    + "; use that Rein for it, or set " + JdbcRunStore.HOME_VARIABLE + " to another directory");
        }
        if (message.contains("SQLITE_BUSY") || message.contains("SQLITE_LOCKED")) {
            return new UsageException("the run store " + storeFile().toAbsolutePath() + " is locked by another process " + cause
                    + "; try again when that process is done");
        }
        if (message.contains("SQLITE_READONLY") && !message.contains("SQLITE_READONLY_DIRECTORY")) {
            // the file (or the file system) cannot be written; a directory this user cannot write is named below
            return new UsageException("the run store " + storeFile().toAbsolutePath() + " cannot be written (read-only for this user,"
                    + " or on a read-only file system) " + cause + "; make it and its directory writable for this user, or set "
                    + JdbcRunStore.HOME_VARIABLE + " to the directory of a store you can write");
        }
        if (message.contains("SQLITE_FULL")) {
            return new UsageException("the disk holding the run store " + storeFile().toAbsolutePath() + " is full " + cause
                    + "; free some space and try again");
        }
        return new UsageException("cannot open the run store in " + directory.toAbsolutePath() + " " + cause + "; set "
                + JdbcRunStore.HOME_VARIABLE + " to a writable directory");
    }

    /** Every tool the CLI can give an agent: the built-ins and the demo messaging tools. */
    ToolCatalog tools() {
        List<Tool> all = new ArrayList<>(BuiltinTools.named(List.of(BuiltinTools.CALCULATE, BuiltinTools.CURRENT_TIME)));
        all.addAll(MessagingTools.outbox(directory.resolve("outbox.jsonl")));
        CliMemory memory = new CliMemory(directory);
        all.addAll(dev.rein.memory.MemoryTools.of(memory, memory::run, memory::idempotency).all());
        // opened per search, so that a later 'rein index' is seen and no index stays open
        all.add(dev.rein.retrieval.SearchDocumentsTool.of((query, limit) ->
                dev.rein.retrieval.lucene.LuceneRetriever.open(index()).search(query, limit)));
        return new ToolCatalog(all);
    }

    /** Records how a run was started, written atomically before it starts. */
    void saveSettings(String runId, RunSettings settings) {
        Path file = settingsFile(runId);
        try {
            Files.createDirectories(file.getParent());
            Path temp = Files.createTempFile(file.getParent(), runId, ".tmp");
            Files.writeString(temp, Json.pretty(settings), StandardCharsets.UTF_8);
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UsageException("cannot write " + file + " (" + dev.rein.internal.text.FileProblems.why(e) + "); set "
                    + JdbcRunStore.HOME_VARIABLE + " to a writable directory");
        }
    }

    /** How {@code runId} was started by this CLI. */
    RunSettings settings(String runId) {
        Path file = settingsFile(runId);
        if (!Files.isRegularFile(file)) {
            throw new UsageException("run " + runId + " was not started by 'rein run' in " + directory.toAbsolutePath()
                    + "; list the runs with 'rein runs'");
        }
        try {
            return Json.mapper().readValue(Files.readString(file, StandardCharsets.UTF_8), RunSettings.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            // Jackson's own message ends in "[Source: REDACTED ...]", which reads as a masked secret: say where instead.
            com.fasterxml.jackson.core.JsonLocation at = e.getLocation();
            String where = at == null || at.getLineNr() < 1 ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
            throw new UsageException("cannot read " + file + ", the settings run " + runId + " was started with: "
                    + Errors.oneLine(e.getOriginalMessage()) + where + "; put back the file 'rein run' wrote, or start the task"
                    + " again with 'rein run'");
        } catch (IOException e) {
            throw new UsageException("cannot read " + file + ": " + Errors.oneLine(dev.rein.internal.text.FileProblems.why(e)));
        }
    }

    /**
     * Whether {@code runId} was started by 'rein run' here (its settings were kept), not stored by an
     * application. An id 'rein run' never makes is an application's (Agent.Builder.runIds names runs
     * freely) or none at all: the store says which.
     */
    boolean startedByRun(String runId) {
        return isCliRunId(runId) && Files.exists(settingsFile(runId));
    }

    /**
     * That the run store has no run {@code runId}: the id, the store it is not in and how to list the
     * runs, in the library's words, so every command says it alike.
     */
    UsageException noSuchRun(String runId) {
        // escaped here, before the message is made one line: a line break typed in the id is shown, not turned into "; "
        return new UsageException(dev.rein.internal.text.MissingRun.message(false, Text.visible(runId),
                "the run store " + storeFile().toAbsolutePath(), "'rein runs'"));
    }

    /**
     * The id of the stored run RUN names, as typed: the id itself when a run has it, else the one run whose id, with control
     * characters in it, 'rein runs' shows as typed ({@code run_1\x1b[2Jold}: an older Rein saved runs under such ids, and
     * the escaped form is the only one a person can copy from the listing). An id stored exactly as typed wins; when
     * another run is shown the same way, one line on {@code err} says how to give that one ($'...' in bash). Several runs
     * shown the same way and none stored as typed is a usage error listing each in that form. Returned as typed when no
     * run matches: the command then says there is no such run. Looked up in {@code store}, the one the command opened
     * for its own work, so that a command opens the store once.
     */
    String storedRunId(JdbcRunStore store, String typed, java.io.PrintStream err, String command) {
        if (typed == null || dev.rein.internal.text.RunIds.unstorable(typed) != null) {
            return typed;
        }
        boolean exact = store.load(typed).isPresent();
        // only a typed escape can be a shown id's: most ids are looked up once, without listing the store
        List<String> shownSo = typed.contains("\\") ? store.list().stream().map(dev.rein.state.RunSummary::runId)
                .filter(id -> !id.equals(typed) && Text.visible(id).equals(typed)).distinct().toList() : List.of();
        if (exact) {
            if (!shownSo.isEmpty()) {
                err.println(command + ": run " + Text.visible(typed) + " is shown, stored under that id as typed; 'rein runs'"
                        + " shows another run's id the same way, with control characters in it: give that one as it is, "
                        + command + " " + shellIdAsItIs(shownSo.getFirst()));
            }
            return typed;
        }
        if (shownSo.size() > 1) {
            throw new UsageException("'" + Text.visible(typed) + "' is how 'rein runs' shows the ids of " + shownSo.size()
                    + " runs, which hold control characters; give the one you mean as it is: " + shownSo.stream()
                    .map(id -> command + " " + shellIdAsItIs(id)).collect(java.util.stream.Collectors.joining(" or ")));
        }
        return shownSo.isEmpty() ? typed : shownSo.getFirst();
    }

    /**
     * Refuses a run saved by an older Rein under an id with a control character, which the library reads but cannot
     * resume (so no decision on it can be carried out either), in the command's terms rather than the library's.
     */
    static void requireContinuable(String runId, String command) {
        String problem = runId == null ? null : dev.rein.internal.text.RunIds.problem(runId);
        if (problem != null) {
            throw new UsageException("run " + Text.visible(runId) + " cannot be decided or continued: its id " + problem.replaceFirst("^it ", "")
                    + " (an older Rein saved runs under such ids); " + SuggestedCommand.forRun("rein show", runId) + " shows it, "
                    + SuggestedCommand.forRun("rein cancel", runId) + " ends it, and a new run with 'rein run GOAL' can take up its goal");
        }
    }

    /**
     * {@code runId} as a command a message suggests carries it, to be pasted into a shell: the form 'rein runs' shows
     * (control and invisible characters as escapes, {@code run_1\x1b[2Jold}, which names the run again: {@link
     * #storedRunId}), quoted where a POSIX shell needs it (an escape's backslash in single quotes, since a shell strips it
     * unquoted and the command would name another run; a space in double quotes), after {@code --} when it starts with '-'
     * (picocli would take {@code rein show -r1} for an unknown option). One rule with rein-core's own messages:
     * {@link dev.rein.internal.text.RunIds#shellWord}.
     */
    static String shellId(String runId) {
        return dev.rein.internal.text.RunIds.shellWord(runId);
    }

    /**
     * {@code id} itself, not the form 'rein runs' shows ({@link #shellId}), as a shell gives it back: for when the shown
     * form names another run too. In plain single quotes, which POSIX sh reads as well as bash and zsh
     * ({@code '} as {@code '\''}), when it holds nothing to escape; else in bash's $'...', every character a shell or
     * terminal would read as an escape written as one: a control or invisible format character can be typed no other way
     * (sh has none), and must not reach the terminal raw. After {@code --} when it starts with '-' ({@link ShellWords#run}).
     */
    static String shellIdAsItIs(String id) {
        return ShellWords.run(id, quotedAsItIs(id));
    }

    private static String quotedAsItIs(String id) {
        if (id.codePoints().noneMatch(Controls::isControl)) {
            return ShellWords.singleQuoted(id);
        }
        StringBuilder sb = new StringBuilder("$'");
        id.codePoints().forEach(c -> {
            if (c == '\\' || c == '\'') {
                sb.append('\\').appendCodePoint(c);
            } else if (Controls.isControl(c)) { // what 'rein runs' shows escaped too
                sb.append(c <= 0xff ? String.format(java.util.Locale.ROOT, "\\x%02x", c)
                        : c <= 0xffff ? String.format(java.util.Locale.ROOT, "\\u%04x", c)
                        : String.format(java.util.Locale.ROOT, "\\U%08x", c));
            } else {
                sb.appendCodePoint(c);
            }
        });
        return sb.append('\'').toString();
    }

    /** The folders of the home whose every file Rein keeps: the runs' settings, the index, the span links, tool outputs. */
    private static final List<String> KEPT_FOLDERS = List.of("runs", "index", "otel-links", "outputs");

    /**
     * Whether {@code file} is one Rein keeps here, and how to say so: the run store (with SQLite's companions, rein.db-wal
     * and the like), a file of a folder it keeps ({@link #KEPT_FOLDERS}) or the demo outbox, by any path or link to it, a
     * hard link too (on a file system that ignores case, REIN.DB is rein.db). An output file named after one (--trace,
     * --report) would destroy it: 'rein run --trace .rein/rein.db' emptied the store, every stored run lost.
     *
     * @return null when Rein does not keep it; else what it is, "a file rein keeps in HOME" or, for a name not yet taken
     *     in a kept folder, "inside runs, a folder rein keeps in HOME"
     */
    String kept(Path file) {
        String home = " rein keeps in " + directory.toAbsolutePath();
        for (Path spelled : spellings(file)) {
            for (Path root : spellings(directory)) {
                Path inside = insideIgnoringCase(root, spelled);
                if (inside == null) {
                    continue;
                }
                String first = inside.getName(0).toString().toLowerCase(Locale.ROOT);
                if (KEPT_FOLDERS.contains(first)) {
                    return inside.getNameCount() > 1 && !Files.exists(spelled) ? "inside " + first + ", a folder" + home : "a file" + home;
                }
                if (inside.getNameCount() == 1 && keptAtTop(first)) {
                    return "a file" + home;
                }
            }
        }
        return Files.isRegularFile(file) && hardLinked(file) ? "a file" + home : null;
    }

    private static boolean keptAtTop(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.equals(JdbcRunStore.SQLITE_FILE) || lower.startsWith(JdbcRunStore.SQLITE_FILE + "-") || lower.equals("outbox.jsonl");
    }

    /**
     * {@code path} relative to {@code root} when it lies below it, names compared ignoring case; else null. On a file
     * system that ignores case (macOS, Windows) a name not yet taken is not resolved to the spelling on disk, so
     * '--trace .rein/REIN.DB' before the store existed made the file the store then opened as its database; on one that
     * keeps case apart such a name is refused too, which costs nothing: the home is Rein's.
     */
    private static Path insideIgnoringCase(Path root, Path path) {
        int depth = root.getNameCount();
        if (path.getNameCount() <= depth || !String.valueOf(root.getRoot()).equalsIgnoreCase(String.valueOf(path.getRoot()))) {
            return null;
        }
        for (int i = 0; i < depth; i++) {
            if (!root.getName(i).toString().equalsIgnoreCase(path.getName(i).toString())) {
                return null;
            }
        }
        return path.subpath(depth, path.getNameCount());
    }

    /** Whether existing {@code file}, named outside the home, is one of the home's files under another name (a hard link). */
    private boolean hardLinked(Path file) {
        List<Path> candidates = new java.util.ArrayList<>();
        try (var top = Files.list(directory)) {
            top.filter(p -> keptAtTop(p.getFileName().toString())).forEach(candidates::add);
        } catch (IOException | RuntimeException e) {
            return false; // no home yet: nothing of Rein's to destroy
        }
        if (linkCount(file) != 1) { // a file with one name is none of the kept folders' (walked only when it may be)
            for (String folder : KEPT_FOLDERS) {
                Path kept = directory.resolve(folder);
                if (Files.isDirectory(kept)) {
                    try (var files = Files.walk(kept)) {
                        files.filter(Files::isRegularFile).forEach(candidates::add);
                    } catch (IOException | RuntimeException e) {
                        // a folder that cannot be read is compared no further
                    }
                }
            }
        }
        for (Path candidate : candidates) {
            try {
                if (Files.isSameFile(file, candidate)) {
                    return true;
                }
            } catch (IOException e) {
                // gone meanwhile, or unreadable: not this one
            }
        }
        return false;
    }

    /** The number of names {@code file} has, or -1 where the file system does not say. */
    private static int linkCount(Path file) {
        try {
            return ((Number) Files.getAttribute(file, "unix:nlink")).intValue();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * {@code path} as written, made absolute, and through the links it goes through (the deepest folder of it that exists,
     * resolved, with the rest added): two spellings of one file are found to be one.
     */
    static List<Path> spellings(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        Path existing = absolute;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return List.of(absolute);
        }
        try {
            Path real = existing.toRealPath().resolve(existing.relativize(absolute)).normalize();
            return real.equals(absolute) ? List.of(absolute) : List.of(absolute, real);
        } catch (IOException e) {
            return List.of(absolute); // what cannot be resolved is compared as written
        }
    }

    private static boolean isCliRunId(String runId) {
        // also what keeps a settings file inside runs/: no separators, no '..'
        return runId.matches("[A-Za-z0-9_-]{1,100}");
    }

    private Path settingsFile(String runId) {
        if (!isCliRunId(runId)) {
            throw new UsageException("'" + Text.visible(runId) + "' is not a run id; list the runs with 'rein runs'");
        }
        return directory.resolve("runs").resolve(runId + ".json");
    }
}
