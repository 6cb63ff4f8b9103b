package dev.outlierlab.flink;

import dev.outlierlab.cli.Main;
import dev.outlierlab.cli.ReplayCommand;
import dev.outlierlab.cli.SweepCommand;
import dev.outlierlab.cli.TuneCommand;
import dev.outlierlab.config.InputException;
import java.io.PrintWriter;
import java.util.Arrays;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.Option;

/**
 * The job jar's entry point, for {@code flink run outlier-lab-flink.jar replay LOGS... [replay's options]
 * [--output-dir DIR [--detector-event-logs]]} (or {@code sweep [sweep's options]}, {@code tune [tune's options]})
 * on a cluster, in application mode (where {@code main} runs in the JobManager), and, through {@link LocalJob},
 * for {@code outlier-lab replay}, {@code sweep} and {@code tune} with {@code --engine flink} on the local
 * MiniCluster. The options are the command's own (the same command class), its work run by
 * {@link FleetReplayJob}, {@link FleetSweepJob} or {@link FleetTuneJob}, or, for {@code replay kafka://BROKER/TOPIC}
 * ({@link KafkaTopic}), by {@link LiveReplayJob} in streaming execution; bad input is one message and exit status
 * 2, as for the command, and a job that failed on the cluster (a lost worker beyond its restarts) is one message
 * and exit status 1.
 *
 * <p>{@code main} never ends the JVM: on a cluster it may be the JobManager's (application mode), where
 * {@code System.exit} would end the application as "closed externally" instead of SUCCEEDED. A failed command
 * throws instead, which Flink's client reports and exits non-zero on, and which fails the application.
 */
public final class FlinkMain {
    /** Exit status of a job that failed on the cluster: not bad input, not a bug of the tool. */
    public static final int EXIT_JOB_FAILED = 1;

    private FlinkMain() {}

    /** The options only the job has. */
    static final class OutputOptions {
        @Option(
                names = "--output-dir",
                paramLabel = "DIR",
                description = {
                    "Write the report to DIR/report.txt (or .json), last, and each detector's decisions",
                    "to DIR/detectors/NNNNNN.txt (an absolute path, or any Flink file system: s3://, hdfs://, ...)."
                })
        String output;

        @Option(
                names = "--detector-event-logs",
                description = "With --output-dir: also each detector's decisions as Envoy's outlier event log.")
        boolean eventLogs;
    }

    /** The command failed; its message is already on standard error. */
    static final class CommandFailed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CommandFailed(int status) {
            super("outlier-lab ended with exit status " + status + " (the message above says why)", null, false, false);
        }
    }

    public static void main(String[] args) {
        int status = execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        if (status != 0) {
            throw new CommandFailed(status);
        }
    }

    /** Runs the command ARGS as the job and returns the exit status. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        return execute(args, out, err, Parallelism.CLUSTER);
    }

    /** As {@link #execute(String[], PrintWriter, PrintWriter)}, with the bound of {@code --parallelism}. */
    static int execute(String[] args, PrintWriter out, PrintWriter err, Parallelism bound) {
        String[] rest = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
        if (args.length > 0 && args[0].equals("sweep")) {
            return run(new CommandLine(new SweepCommand().runningOn(new FleetSweepJob(bound))), rest, out, err);
        }
        if (args.length > 0 && args[0].equals("tune")) {
            return run(
                    new CommandLine(new TuneCommand().runningOn(p -> new FleetTuneJob(bound.check(p)))),
                    rest,
                    out,
                    err);
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
        // the options are parsed first, so that the job knows --output-dir before it is built
        boolean live = Arrays.stream(rest).anyMatch(KafkaTopic::names);
        cli.setExecutionStrategy(parsed -> {
            Integer parallelism = parsed.matchedOptionValue("--parallelism", null);
            if (live && output.output != null) {
                throw new InputException(
                        "--output-dir: not with a Kafka topic; the decisions are printed as they are made");
            }
            replay.runningOn(
                    live
                            ? new LiveReplayJob(out, err, bound)
                            : new FleetReplayJob(output.output, output.eventLogs, bound, parallelism));
            return new CommandLine.RunLast().execute(parsed);
        });
        return run(cli, rest, out, err);
    }

    private static int run(CommandLine cli, String[] args, PrintWriter out, PrintWriter err) {
        cli.setOut(out);
        cli.setErr(err);
        Main.withErrorHandling(cli);
        IExecutionExceptionHandler command = cli.getExecutionExceptionHandler();
        cli.setExecutionExceptionHandler((ex, line, parsed) -> {
            if (ex instanceof JobFailure.Failed failed) {
                line.getErr().println("outlier-lab: " + failed.getMessage());
                return EXIT_JOB_FAILED;
            }
            return command.handleExecutionException(ex, line, parsed);
        });
        return cli.execute(args);
    }
}
