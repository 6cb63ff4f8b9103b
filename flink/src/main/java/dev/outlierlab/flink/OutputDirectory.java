package dev.outlierlab.flink;

import dev.outlierlab.config.InputException;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * {@code --output-dir}: a directory of a Flink file system ({@code s3://}, {@code hdfs://}, {@code file:///}) or an
 * absolute local path. A relative path is refused: the report is written where {@code main} runs and each
 * detector's file by the worker that replayed it, and on a cluster these have different working directories, so
 * the files would scatter over the machines.
 */
final class OutputDirectory {
    private OutputDirectory() {}

    /** The directory as given, checked; null for none. */
    static String of(String given) {
        if (given == null) {
            return null;
        }
        if (given.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:/.*")) {
            return given;
        }
        boolean absolute;
        try {
            absolute = !given.isEmpty() && Path.of(given).isAbsolute();
        } catch (InvalidPathException e) {
            absolute = false;
        }
        if (!absolute) {
            String shown = given.length() > 40 ? given.substring(0, 40) + "..." : given;
            throw new InputException("--output-dir " + shown + ": expected an absolute path or a file system URI "
                    + "(s3://..., hdfs://...); the report and each detector's file are written on different "
                    + "machines of a cluster, which share no working directory");
        }
        return given;
    }
}
