package dev.rein.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;

/**
 * CPU and heap allocation of the client side of this JVM, from the thread MXBean: CPU summed over
 * the live threads (virtual threads are counted on their carriers), allocation from the JVM-wide
 * total; the fake server's threads are subtracted from both.
 */
final class Meter {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    record Sample(long wallNanos, long cpuNanos, long allocatedBytes) {
        Sample minus(Sample before) {
            return new Sample(wallNanos - before.wallNanos, cpuNanos - before.cpuNanos, allocatedBytes - before.allocatedBytes);
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
        return new Sample(System.nanoTime(), cpu, THREADS.getTotalThreadAllocatedBytes() - serverAllocated);
    }
}
