package dev.outlierlab.flink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** CPU time of processes and of their threads, as Linux's {@code /proc} counts it, for {@link ClusterBenchmark}. */
final class ProcessCpu {
    /** Clock ticks per second of {@code /proc}'s figures (Linux's USER_HZ). */
    static final long TICKS = 100;

    private ProcessCpu() {}

    /**
     * utime + stime of each of the JVMs, in clock ticks: the whole process's, its JIT compiler threads' ({@code C1
     * CompilerThre}, {@code C2 CompilerThre}) and its garbage collector's ({@code GC Thread#N}, {@code G1 ...}, and
     * the {@code VM Thread}, which runs the serial collector's pauses). Each thread's figures from {@code
     * /proc/PID/task/TID/stat}, so a compiler thread the JVM ended between two readings leaves its time in the
     * process's total only.
     */
    static long[][] ticksOf(List<StandaloneCluster.Jvm> jvms) throws IOException {
        long[][] out = new long[jvms.size()][];
        for (int i = 0; i < out.length; i++) {
            long pid = jvms.get(i).process().pid();
            long[] f = stat(pid);
            long jit = 0;
            long gc = 0;
            try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
                for (Path task : (Iterable<Path>) tasks::iterator) {
                    String t;
                    try {
                        t = Files.readString(task.resolve("stat"));
                    } catch (IOException gone) {
                        continue; // the thread ended since the listing
                    }
                    String comm = t.substring(t.indexOf('(') + 1, t.lastIndexOf(')'));
                    String[] g = t.substring(t.lastIndexOf(')') + 2).split(" ");
                    long ticks = Long.parseLong(g[11]) + Long.parseLong(g[12]);
                    if (comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler")) {
                        jit += ticks;
                    } else if (comm.startsWith("GC Thread") || comm.startsWith("G1 ") || comm.equals("VM Thread")) {
                        gc += ticks;
                    }
                }
            }
            out[i] = new long[] {f[0] + f[1], jit, gc};
        }
        return out;
    }

    /** cutime + cstime of this JVM: the CPU of every child it has waited for, in clock ticks. */
    static long children() throws IOException {
        long[] f = stat(ProcessHandle.current().pid());
        return f[2] + f[3];
    }

    /** utime, stime, cutime, cstime of {@code /proc/PID/stat} (its fields 14 to 17). */
    static long[] stat(long pid) throws IOException {
        String s = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] f = s.substring(s.lastIndexOf(')') + 2).split(" ");
        return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12]), Long.parseLong(f[13]), Long.parseLong(f[14])};
    }
}
