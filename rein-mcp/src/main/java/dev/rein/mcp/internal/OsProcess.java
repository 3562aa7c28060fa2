package dev.rein.mcp.internal;

import dev.rein.mcp.McpServerConfig;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A stdio server as an operating-system process. It gets only a small set of inherited
 * environment variables (what a shell tool needs to run) plus the configured ones, so the
 * agent's own keys never reach a server by accident. Ending it ends its descendants first:
 * {@code npx} and shell wrappers start the real server as a child.
 */
public final class OsProcess implements ServerProcess {
    private static final Set<String> INHERITED = Set.of("PATH", "HOME", "USER", "LOGNAME", "SHELL", "TERM", "LANG",
            "LC_ALL", "LC_CTYPE", "TMPDIR", "TMP", "TEMP", "TZ", "NODE_PATH", "NODE_EXTRA_CA_CERTS",
            "npm_config_cache", "NPM_CONFIG_CACHE", "XDG_CACHE_HOME", "XDG_CONFIG_HOME",
            "SYSTEMROOT", "SystemRoot", "APPDATA", "LOCALAPPDATA", "USERPROFILE", "PATHEXT", "COMSPEC", "ProgramFiles");
    /**
     * How long a server may take to exit on its own once its input is closed, before SIGTERM: as
     * long as the official SDKs' clients allow, so one that flushes its state on the way out is not
     * cut short.
     */
    private static final long STDIN_GRACE_MILLIS = 2000;
    private static final long GRACE_MILLIS = 2000;

    /** Whether processes can be read in /proc (Linux). */
    private static final boolean PROC = Files.isDirectory(Path.of("/proc/self"));

    private final Process process;

    private OsProcess(Process process) {
        this.process = process;
    }

    /** The launcher for real processes. */
    public static ServerProcess.Launcher launcher() {
        return OsProcess::start;
    }

    static ServerProcess start(McpServerConfig.Stdio stdio) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(stdio.command());
        command.addAll(stdio.args());
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(name -> !INHERITED.contains(name) && !name.startsWith("LC_"));
        env.putAll(stdio.env());
        String missing = missingDirectory(stdio);
        if (missing != null) {
            // Else the JDK's "Cannot run program "node" (in directory ...): No such file or directory" reads as node missing.
            throw new IOException(missing);
        }
        if (stdio.directory() != null) {
            builder.directory(stdio.directory().toFile());
        }
        return new OsProcess(builder.start());
    }

    /** Why a server cannot start in its configured working directory, or null when that directory exists. */
    static String missingDirectory(McpServerConfig.Stdio stdio) {
        return stdio.directory() == null || Files.isDirectory(stdio.directory()) ? null
                : "its working directory (\"cwd\") " + stdio.directory() + " does not exist or is not a directory; create it or correct \"cwd\"";
    }

    @Override
    public OutputStream stdin() {
        return process.getOutputStream();
    }

    @Override
    public InputStream stdout() {
        return process.getInputStream();
    }

    @Override
    public InputStream stderr() {
        return process.getErrorStream();
    }

    @Override
    public CompletableFuture<Integer> onExit() {
        return process.onExit().thenApply(Process::exitValue);
    }

    /**
     * Whether {@code process} has ended: gone, or (on Linux) a zombie, which has exited and only waits
     * for its parent to reap it. A server's child whose server exited first has another parent (PID 1
     * or a subreaper), which alone can reap it; {@link ProcessHandle#isAlive()} takes it for alive
     * until then.
     */
    static boolean ended(ProcessHandle process) {
        if (!process.isAlive()) {
            return true;
        }
        if (!PROC) {
            return false; // not Linux: isAlive() is all there is
        }
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            // "PID (COMMAND) STATE ...": the command may hold spaces and parentheses, the state follows the last ')'
            int end = stat.lastIndexOf(')');
            char state = end >= 0 && end + 2 < stat.length() ? stat.charAt(end + 2) : '?';
            return state == 'Z' || state == 'X';
        } catch (java.nio.file.NoSuchFileException e) {
            return true; // reaped since isAlive()
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /**
     * As the MCP specification asks: close stdin, wait for it to exit, then SIGTERM, then SIGKILL.
     * Its descendants get SIGTERM, then SIGKILL after the grace period, also when it exited on its own.
     */
    @Override
    public void destroy() {
        // Taken now as well as after the wait: once the server has exited, its children are another process's
        // and are found only through this list.
        Set<ProcessHandle> descendants = new LinkedHashSet<>(process.descendants().toList());
        // On a thread of its own: closing waits for a write in progress, which a server that stopped
        // reading its input holds until it exits, so it must not hold up the signals below.
        Thread.ofVirtual().name("rein-mcp-close-stdin").start(() -> {
            try {
                process.getOutputStream().close();
            } catch (IOException e) {
                // already closed by a crash: nothing to flush
            }
        });
        boolean exited = false;
        try {
            exited = process.waitFor(STDIN_GRACE_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // Those started while the server had its time to exit, and those of the children known before.
        descendants.addAll(process.descendants().toList());
        for (ProcessHandle child : List.copyOf(descendants)) {
            child.descendants().forEach(descendants::add);
        }
        descendants.removeIf(OsProcess::ended);
        descendants.forEach(ProcessHandle::destroy);
        if (!exited) {
            process.destroy();
        }
        try {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GRACE_MILLIS);
            if (!exited && !process.waitFor(GRACE_MILLIS, TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(GRACE_MILLIS, TimeUnit.MILLISECONDS);
            }
            // Polled, not ProcessHandle.onExit(): for a process that is not the JVM's child that polls every 300 ms and
            // more, and takes a zombie for a live process, so a child that ended at SIGTERM at once held closing until its
            // new parent (PID 1, which on some hosts reaps only about once a second) reaped it.
            for (ProcessHandle child : descendants) {
                while (!ended(child) && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
                if (!ended(child)) {
                    child.destroyForcibly();
                }
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            descendants.forEach(ProcessHandle::destroyForcibly);
            Thread.currentThread().interrupt();
        }
    }
}
