package dev.rein.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU and heap allocation of the client side of this JVM, from the thread MXBean: CPU summed over
 * the live threads (virtual threads are counted on their carriers), allocation from the JVM-wide
 * total; the fake server's threads are subtracted from both.
 */
final class Meter {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** @param switches voluntary context switches of the client's threads (a thread blocked and was woken later) */
    record Sample(long wallNanos, long cpuNanos, long allocatedBytes, long switches) {
        Sample minus(Sample before) {
            return new Sample(wallNanos - before.wallNanos, cpuNanos - before.cpuNanos, allocatedBytes - before.allocatedBytes,
                    switches - before.switches);
        }
    }

    private Meter() {}

    static Sample sample() {
        long[] ids = THREADS.getAllThreadIds();
        ThreadInfo[] infos = THREADS.getThreadInfo(ids);
        long cpu = 0;
        long serverAllocated = 0;
        for (int i = 0; i < ids.length; i++) {
            if (infos[i] == null) {
                continue;
            }
            if (BenchServer.serverThread(infos[i].getThreadName())) {
                serverAllocated += Math.max(0, THREADS.getThreadAllocatedBytes(ids[i]));
            } else {
                cpu += Math.max(0, THREADS.getThreadCpuTime(ids[i]));
            }
        }
        return new Sample(System.nanoTime(), cpu, THREADS.getTotalThreadAllocatedBytes() - serverAllocated, clientSwitches());
    }

    /**
     * Voluntary context switches summed over the process's threads but the fake server's, from
     * Linux's {@code /proc/self/task/*\/status} (0 elsewhere). Each is a thread that blocked and
     * had to be woken: the hand-offs between threads that CPU time alone does not show. Threads
     * that ended during a batch drop out of the sum, so read it as a lower bound.
     */
    private static long clientSwitches() {
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return 0;
        }
        long total = 0;
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
            for (Path task : dir) {
                total += switches(task);
            }
        } catch (IOException e) {
            return 0;
        }
        return total;
    }

    private static long switches(Path task) {
        try {
            String comm = Files.readString(task.resolve("comm")).trim();
            if (comm.startsWith("bench-server") || comm.startsWith("HTTP-Dispatcher")) {
                return 0;
            }
            for (String line : Files.readAllLines(task.resolve("status"))) {
                if (line.startsWith("voluntary_ctxt_switches:")) {
                    return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            // the thread ended while it was read
        }
        return 0;
    }
}
