package dev.outlierlab.flink;

import dev.outlierlab.accesslog.BadLines;
import dev.outlierlab.accesslog.LogEntry;
import dev.outlierlab.accesslog.LogInput;
import dev.outlierlab.accesslog.MergedLog;
import dev.outlierlab.accesslog.ReadSettings;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.file.src.FileSourceSplit;
import org.apache.flink.connector.file.src.reader.BulkFormat;
import org.apache.flink.connector.file.src.util.ArrayResultIterator;
import org.apache.flink.connector.file.src.util.CheckpointedPosition;
import org.apache.flink.core.fs.FSDataInputStream;
import org.apache.flink.core.fs.Path;

/**
 * The FileSource's format of access logs: each file is read whole by one reader with the project's own reader
 * ({@link MergedLog} over the file: the format, gzip by its magic bytes, the reorder window, the cluster and host
 * filters, every bad line counted), so a file's outcomes come out in the order {@code replay} reads them, followed
 * by one tally record of what the file's read counted and skipped. Files are not split: a log's reorder window
 * and line numbers are the file's.
 */
final class AccessLogFormat implements BulkFormat<LogRecord, FileSourceSplit> {
    private static final int BATCH = 2048;
    private final ReadRecipe recipe;
    /** By {@link #key} of each file's path: its input number and the name the report gives it. */
    private final Map<String, FleetInputs.Input> inputs;

    AccessLogFormat(ReadRecipe recipe, List<FleetInputs.Input> inputs) {
        this.recipe = recipe;
        this.inputs = new java.util.HashMap<>();
        for (FleetInputs.Input i : inputs) {
            this.inputs.put(key(i.path()), i);
        }
    }

    /** A file's identity whatever way a file system spells its path (with or without the scheme). */
    static String key(Path p) {
        java.net.URI u = p.toUri();
        return (u.getAuthority() == null ? "" : u.getAuthority()) + u.getPath();
    }

    @Override
    public Reader<LogRecord> createReader(Configuration config, FileSourceSplit split) throws IOException {
        return new LogReader(split, 0);
    }

    @Override
    public Reader<LogRecord> restoreReader(Configuration config, FileSourceSplit split) throws IOException {
        long skip = split.getReaderPosition().map(CheckpointedPosition::getRecordsAfterOffset).orElse(0L);
        return new LogReader(split, skip);
    }

    @Override
    public boolean isSplittable() {
        return false;
    }

    @Override
    public TypeInformation<LogRecord> getProducedType() {
        return TypeInformation.of(LogRecord.class);
    }

    private final class LogReader implements Reader<LogRecord> {
        private final FleetInputs.Input input;
        private final FSDataInputStream stream;
        private final MergedLog log;
        private final BadLines bad = new BadLines();
        private long emitted;
        private boolean done;

        LogReader(FileSourceSplit split, long skip) throws IOException {
            input = inputs.get(key(split.path()));
            if (input == null) {
                throw new IllegalStateException("a file the job was not given: " + split.path());
            }
            ReadSettings settings = recipe.settings();
            try {
                stream = split.path().getFileSystem().open(split.path());
            } catch (IOException e) {
                throw new dev.outlierlab.config.InputException(input.name() + ": cannot be read (" + e.getMessage() + ")");
            }
            log = new MergedLog(List.of(new LogInput(input.name(), null, new BufferedInputStream(stream, 1 << 20))),
                    settings, bad, null);
            for (long i = 0; i < skip; i++) {
                next();
            }
        }

        private LogRecord next() {
            if (done) {
                return null;
            }
            LogEntry e = log.next();
            LogRecord r = new LogRecord();
            emitted++;
            if (e == null) {
                done = true;
                r.input = input.index();
                r.tally = Serial.write(bad.counts());
                return r;
            }
            r.group = LogRecord.key(e.cluster(), e.instance());
            r.cluster = e.cluster();
            r.instance = e.instance();
            r.host = e.host();
            r.endEpochNanos = e.endEpochNanos();
            r.code = e.code();
            r.outcome = e.outcome().ordinal();
            r.input = input.index();
            r.line = e.line();
            log.recycle(e);
            return r;
        }

        @Override
        public RecordIterator<LogRecord> readBatch() {
            if (done) {
                return null;
            }
            long at = emitted;
            LogRecord[] batch = new LogRecord[BATCH];
            int n = 0;
            while (n < BATCH) {
                LogRecord r = next();
                if (r == null) {
                    break;
                }
                batch[n++] = r;
            }
            ArrayResultIterator<LogRecord> it = new ArrayResultIterator<>();
            it.set(batch, n, CheckpointedPosition.NO_OFFSET, at);
            return it;
        }

        @Override
        public void close() throws IOException {
            log.close();
            stream.close();
        }
    }
}
