package dev.outlierlab.flink;

import dev.outlierlab.accesslog.BadLines;
import dev.outlierlab.accesslog.LogEntry;
import dev.outlierlab.accesslog.LogInput;
import dev.outlierlab.accesslog.MergedLog;
import dev.outlierlab.accesslog.ReadSettings;
import dev.outlierlab.config.InputException;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
 * filters, every bad line counted), so a file's outcomes come out in the order {@code replay} reads them, in
 * chunks per detector ({@link OutcomeChunk}), followed by one tally of what the file's read counted and skipped. Files are not split: a log's reorder window
 * and line numbers are the file's.
 */
final class AccessLogFormat implements BulkFormat<OutcomeChunk, FileSourceSplit> {
    /** Chunks handed to Flink at a time. */
    private static final int BATCH = 4;

    private final ReadRecipe recipe;
    /** By {@link #key} of each file's path: its input number and the name the report gives it. */
    private final Map<String, FleetInputs.Input> inputs;

    AccessLogFormat(ReadRecipe recipe, List<FleetInputs.Input> inputs) {
        this.recipe = recipe;
        this.inputs = new HashMap<>();
        for (FleetInputs.Input i : inputs) {
            this.inputs.put(key(i.path()), i);
        }
    }

    /** A file's identity whatever way a file system spells its path (with or without the scheme). */
    static String key(Path p) {
        URI u = p.toUri();
        return (u.getAuthority() == null ? "" : u.getAuthority()) + u.getPath();
    }

    @Override
    public Reader<OutcomeChunk> createReader(Configuration config, FileSourceSplit split) throws IOException {
        return new LogReader(split, 0);
    }

    @Override
    public Reader<OutcomeChunk> restoreReader(Configuration config, FileSourceSplit split) throws IOException {
        long skip = split.getReaderPosition()
                .map(CheckpointedPosition::getRecordsAfterOffset)
                .orElse(0L);
        return new LogReader(split, skip);
    }

    @Override
    public boolean isSplittable() {
        return false;
    }

    @Override
    public TypeInformation<OutcomeChunk> getProducedType() {
        return TypeInformation.of(OutcomeChunk.class);
    }

    private final class LogReader implements Reader<OutcomeChunk> {
        private final FleetInputs.Input input;
        private final FSDataInputStream stream;
        private final ReadSettings settings;
        /** The file's reader, opened by the first {@link #next} (opening reads the first line). */
        private MergedLog log;

        private final BadLines bad;
        /** The input's part of the plan, made from its chunks as they go: no step of the job reads them twice. */
        private FleetPlan plan = new FleetPlan();
        /** The open chunk of each detector of this input. */
        private final Map<String, Building> open = new LinkedHashMap<>();

        private final ArrayDeque<OutcomeChunk> ready = new ArrayDeque<>();
        private long emitted;
        private boolean done;
        private String cluster;
        private String instance;
        private Building current;

        LogReader(FileSourceSplit split, long skip) throws IOException {
            input = inputs.get(key(split.path()));
            if (input == null) {
                throw new IllegalStateException("a file the job was not given: " + split.path());
            }
            ReadSettings settings = recipe.settings();
            bad = recipe.badLines();
            try {
                stream = split.path().getFileSystem().open(split.path());
            } catch (IOException e) {
                throw JobFailure.notRetried(
                        new InputException(input.name() + ": cannot be read (" + e.getMessage() + ")"));
            }
            this.settings = settings;
            for (long i = 0; i < skip; i++) {
                next();
            }
        }

        /**
         * The next chunk: a full one, or at the end each detector's last one and then the tally; null after. Bad
         * input (a log that cannot be read to its end) fails the job without restarts: a second read gives the
         * same error, and so does any other failure of the reading (the project's code, as deterministic). Past
         * {@code --max-bad-lines} the read stops, as {@code replay}'s does, and its tally says so.
         */
        private OutcomeChunk next() {
            while (ready.isEmpty() && !done) {
                LogEntry e;
                boolean stopped = false;
                try {
                    if (log == null) {
                        log = new MergedLog(
                                List.of(new LogInput(input.name(), null, new BufferedInputStream(stream, 1 << 20))),
                                settings,
                                bad,
                                null);
                    }
                    e = log.next();
                } catch (BadLines.LimitReached limit) {
                    e = null;
                    stopped = true;
                } catch (RuntimeException failed) {
                    throw JobFailure.notRetried(failed);
                }
                if (e == null) {
                    done = true;
                    for (Building b : open.values()) {
                        if (b.count > 0) {
                            ready.add(planned(b.chunk()));
                        }
                    }
                    OutcomeChunk tally = new OutcomeChunk();
                    tally.input = input.index();
                    tally.tally = Serial.write(new Tally(bad.counts(), stopped));
                    tally.plan = Serial.write(plan);
                    ready.add(tally);
                    break;
                }
                if (current == null
                        || !e.cluster().equals(cluster)
                        || !e.instance().equals(instance)) {
                    cluster = e.cluster();
                    instance = e.instance();
                    String group = OutcomeChunk.group(cluster, instance);
                    current = open.computeIfAbsent(group, g -> new Building(g, input.index()));
                }
                current.add(e);
                log.recycle(e);
                if (current.count == OutcomeChunk.MAX) {
                    ready.add(planned(current.chunk()));
                }
            }
            OutcomeChunk c = ready.poll();
            if (c != null) {
                emitted++;
            }
            return c;
        }

        /**
         * The chunk, added to the input's part of the plan. Nothing is thrown here (a failure travels in the plan,
         * for the command to report).
         */
        private OutcomeChunk planned(OutcomeChunk c) {
            if (plan.refusal == null) {
                try {
                    plan.add(c);
                } catch (RuntimeException e) {
                    plan = FleetPlan.refused(e);
                }
            }
            return c;
        }

        @Override
        public RecordIterator<OutcomeChunk> readBatch() {
            long at = emitted;
            OutcomeChunk[] batch = new OutcomeChunk[BATCH];
            int n = 0;
            while (n < batch.length) {
                OutcomeChunk c = next();
                if (c == null) {
                    break;
                }
                batch[n++] = c;
            }
            if (n == 0) {
                return null;
            }
            ArrayResultIterator<OutcomeChunk> it = new ArrayResultIterator<>();
            it.set(batch, n, CheckpointedPosition.NO_OFFSET, at);
            return it;
        }

        @Override
        public void close() throws IOException {
            if (log != null) {
                log.close();
            }
            stream.close();
        }
    }

    /** A detector's chunk being filled. */
    private static final class Building {
        final String group;
        final long key;
        final int input;
        final Map<String, Integer> hostIndex = new HashMap<>();
        final List<String> hosts = new ArrayList<>();
        final byte[] data = new byte[OutcomeChunk.MAX * OutcomeChunk.BYTES];
        long first;
        int count;

        Building(String group, int input) {
            this.group = group;
            this.key = OutcomeChunk.hash(group);
            this.input = input;
        }

        void add(LogEntry e) {
            if (count == 0) {
                first = e.endEpochNanos();
            }
            Integer h = hostIndex.get(e.host());
            if (h == null) {
                h = hosts.size();
                hosts.add(e.host());
                hostIndex.put(e.host(), h);
            }
            OutcomeChunk.pack(
                    data, count, e.endEpochNanos(), h, e.code(), e.outcome().ordinal(), e.line());
            count++;
        }

        OutcomeChunk chunk() {
            OutcomeChunk c = new OutcomeChunk();
            c.group = group;
            c.key = key;
            c.input = input;
            c.firstEpochNanos = first;
            c.count = count;
            c.hosts = hosts.toArray(String[]::new);
            c.data = Arrays.copyOf(data, count * OutcomeChunk.BYTES);
            hostIndex.clear();
            hosts.clear();
            count = 0;
            return c;
        }
    }
}
