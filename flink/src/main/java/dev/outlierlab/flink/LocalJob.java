package dev.outlierlab.flink;

import java.io.PrintWriter;

/**
 * The entry of {@code --engine flink}: the command's own JVM starts this one ({@code FlinkLauncher} of the cli),
 * which runs the job on Flink's local MiniCluster and ends with the command's exit status. It ends with its
 * parent too: should the command's JVM be killed without its shutdown hook running (which ends this JVM), this
 * one halts as soon as it sees its parent gone, so that no job JVM is left running a core.
 */
public final class LocalJob {
    private LocalJob() {}

    public static void main(String[] args) {
        ProcessHandle.current()
                .parent()
                .ifPresent(parent ->
                        parent.onExit().thenRun(() -> Runtime.getRuntime().halt(143)));
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        int status = FlinkMain.execute(args, out, err, Parallelism.LOCAL);
        out.flush();
        err.flush();
        System.exit(status);
    }
}
