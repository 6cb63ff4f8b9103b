package dev.outlierlab.flink;

import dev.outlierlab.cli.Main;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command's exit status, output and errors: local {@code replay}, or the job on the test's MiniCluster. */
record Runs(int status, String out, String err) {
    /** A small {@code tune} of the documented example suite (6 hosts at 600 rps) on {@code seeds} seeds, as JSON. */
    static List<String> smallTune(int seeds) {
        String suite = Path.of("../docs/examples/tune-suite.yaml")
                .toAbsolutePath()
                .normalize()
                .toString();
        return List.of(
                "tune", "--hosts", "6", "--rps", "600", "--suite", suite, "--seeds", "" + seeds, "--format", "json");
    }

    static Runs local(List<String> args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Main.execute(args.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        return new Runs(status, out.toString(), err.toString());
    }

    static Runs flink(List<String> args, int parallelism) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of("--engine", "flink", "--parallelism", Integer.toString(parallelism)));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status =
                FlinkMain.execute(all.toArray(String[]::new), new PrintWriter(out, true), new PrintWriter(err, true));
        return new Runs(status, out.toString(), err.toString());
    }
}
