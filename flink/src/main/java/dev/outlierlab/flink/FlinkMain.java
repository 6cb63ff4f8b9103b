package dev.outlierlab.flink;

import dev.outlierlab.cli.Main;
import dev.outlierlab.cli.ReplayCommand;
import dev.outlierlab.cli.SweepCommand;
import dev.outlierlab.cli.TuneCommand;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The job jar's entry point, for {@code flink run outlier-lab-flink.jar replay LOGS... [replay's options]
 * [--output-dir DIR [--detector-event-logs]]} (or {@code sweep [sweep's options]}, {@code tune [tune's options]})
 * on a cluster, and for {@code outlier-lab replay}, {@code sweep} and {@code tune} with {@code --engine flink},
 * which start it on the local MiniCluster. The options are the command's own (the same command class), its work
 * run by {@link FleetReplayJob}, {@link FleetSweepJob} or {@link FleetTuneJob}; bad input is one message and exit
 * status 2, as for the command.
 */
public final class FlinkMain {
    private FlinkMain() {
    }

    /** The options only the job has. */
    static final class OutputOptions {
        @Option(names = "--output-dir", paramLabel = "DIR",
                description = {"Write the report to DIR/report.txt (or .json), last, and each detector's decisions",
                    "to DIR/detectors/NNNNNN.txt (any Flink file system: s3://, hdfs://, ...)."})
        String output;

        @Option(names = "--detector-event-logs",
                description = "With --output-dir: also each detector's decisions as Envoy's outlier event log.")
        boolean eventLogs;
    }

    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs {@code replay ARGS} as the job and returns the exit status. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        if (args.length > 0 && args[0].equals("sweep")) {
            CommandLine sweep = new CommandLine(new SweepCommand().runningOn(new FleetSweepJob()));
            sweep.setOut(out);
            sweep.setErr(err);
            Main.withErrorHandling(sweep);
            return sweep.execute(java.util.Arrays.copyOfRange(args, 1, args.length));
        }
        if (args.length > 0 && args[0].equals("tune")) {
            CommandLine tune = new CommandLine(new TuneCommand().runningOn(FleetTuneJob.engine()));
            tune.setOut(out);
            tune.setErr(err);
            Main.withErrorHandling(tune);
            return tune.execute(java.util.Arrays.copyOfRange(args, 1, args.length));
        }
        if (args.length == 0 || !args[0].equals("replay")) {
            err.println("outlier-lab flink: expected 'replay', 'sweep' or 'tune' and that command's arguments, e.g. "
                    + "replay s3://bucket/logs/ --log-format envoy --output-dir s3://bucket/report");
            return Main.EXIT_BAD_INPUT;
        }
        OutputOptions output = new OutputOptions();
        ReplayCommand replay = new ReplayCommand();
        CommandLine cli = new CommandLine(replay);
        cli.addMixin("output", output);
        cli.setOut(out);
        cli.setErr(err);
        Main.withErrorHandling(cli);
        String[] rest = java.util.Arrays.copyOfRange(args, 1, args.length);
        // the options are parsed first, so that the job knows --output before it is built
        cli.setExecutionStrategy(parsed -> {
            if (output.eventLogs && output.output == null) {
                throw new dev.outlierlab.config.InputException("--detector-event-logs: only with --output-dir DIR");
            }
            replay.runningOn(new FleetReplayJob(output.output, output.eventLogs));
            return new CommandLine.RunLast().execute(parsed);
        });
        return cli.execute(rest);
    }
}
