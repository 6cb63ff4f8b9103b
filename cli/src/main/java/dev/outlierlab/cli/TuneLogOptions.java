package dev.outlierlab.cli;

import dev.outlierlab.accesslog.BadLines;
import dev.outlierlab.accesslog.LogFormat;
import dev.outlierlab.accesslog.LogInput;
import dev.outlierlab.accesslog.LogLineReader;
import dev.outlierlab.accesslog.LogTraffic;
import dev.outlierlab.accesslog.ReadSettings;
import dev.outlierlab.accesslog.TrafficFacts;
import dev.outlierlab.config.InputException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code tune --from-log FILE}: the access logs the cluster's traffic is taken from, read as replay reads them. */
public final class TuneLogOptions {
    @Option(
            names = "--from-log",
            paramLabel = "FILE",
            description = "An access log (the formats replay reads; repeatable, one file per proxy as replay takes"
                    + " them): gives the rate (lines over their time span), the hosts (upstream hosts seen) and the"
                    + " callers (proxy instances) where flags do not, and the healthy pool's base error rate, the"
                    + " noise of the suite's healthy hosts.")
    List<Path> fromLogs;

    @Mixin
    LogFormatOptions logFormat;

    @Mixin
    LogReadOptions logRead;

    /** Whether {@code --from-log} was given. */
    boolean isUsed() {
        return fromLogs != null;
    }

    /** What the access logs say of the cluster's traffic. */
    TrafficFacts facts(Path from) {
        List<LogInput> inputs = new ArrayList<>();
        boolean stdin = from != null && from.toString().equals(InputFiles.STDIN);
        for (Path log : fromLogs) {
            if (log.toString().equals(InputFiles.STDIN) && stdin) {
                throw new InputException("--from-log -: standard input is named twice; it can be read only once");
            }
            stdin |= log.toString().equals(InputFiles.STDIN);
            inputs.add(LogInput.of(log.toString(), System.in));
        }
        LogFormat fmt = logFormat.resolve(inputs);
        // one proxy per file, as replay reads them: each file's proxy is one caller
        ReadSettings settings = new ReadSettings(
                fmt,
                logRead.reorderWindowNanos(),
                null,
                inputs.size() > 1 && logFormat.instanceField == null,
                null,
                LogLineReader.DEFAULT_MAX_LINE_BYTES,
                ReadSettings.DEFAULT_MAX_NAMES);
        LogTraffic log;
        try {
            log = LogTraffic.read(inputs, settings, logRead.badLineCount(), logRead.isPercentage());
        } catch (BadLines.LimitReached e) {
            logRead.checkBadLines(e.lines());
            throw e;
        }
        logRead.checkBadLines(log.lines());
        return TrafficFacts.of(log, names());
    }

    /** The logs as named, joined by commas. */
    String names() {
        return String.join(", ", fromLogs.stream().map(Path::toString).toList());
    }
}
