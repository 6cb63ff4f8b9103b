package dev.outlierlab.accesslog;

import dev.outlierlab.config.InputException;
import dev.outlierlab.engine.Durations;
import java.io.IOException;

/**
 * The entries of one input in the order their streams ended. Envoy writes a line when a stream ends, so a log
 * is nearly in end-time order; lines from different worker threads can be a little out of order, so entries are
 * held in a heap until the latest end time seen is a reorder window past them. A line that ends earlier than one
 * already handed on is a bad line. Memory is bounded by the lines of one window, never by the log's length.
 */
final class LogSource implements AutoCloseable {
    private static final int MAX_HELD = 4_000_000;

    private final LogInput input;
    private final int index;
    private final ReadSettings settings;
    private final NameTable names;
    private final BadLines bad;
    private final LogLineReader reader;
    private final ParsedLine parsed = new ParsedLine();
    private final ReorderBuffer held = new ReorderBuffer();
    /** Entries handed back ({@link #recycle}), reused for the next lines: a few suffice, as the reader takes one at a time. */
    private final LogEntry[] spare = new LogEntry[16];

    private int free;
    private long latestEnd = Long.MIN_VALUE;
    private long lastHandedOn = Long.MIN_VALUE;
    private boolean eof;

    LogSource(LogInput input, int index, ReadSettings settings, NameTable names, BadLines bad, long[] bytesRead) {
        this.input = input;
        this.index = index;
        this.settings = settings;
        this.names = names;
        this.bad = bad;
        this.reader = new LogLineReader(input.open(bytesRead), settings.maxLineBytes());
    }

    /** The next entry in end-time order, or null at the end. */
    LogEntry next() {
        while (!eof
                && (held.isEmpty() || held.peek().endEpochNanos() > latestEnd - settings.reorderWindowNanos())
                && held.size() < MAX_HELD) {
            readOne();
        }
        LogEntry e = held.poll();
        if (e != null) {
            lastHandedOn = e.endEpochNanos();
        }
        return e;
    }

    private void readOne() {
        try {
            while (reader.next()) {
                LogEntry e = parse();
                if (e != null) {
                    if (e.endEpochNanos() < lastHandedOn) {
                        bad.bad(
                                index,
                                input.name(),
                                e.line(),
                                "ends " + seconds(lastHandedOn - e.endEpochNanos())
                                        + " before a line already replayed, more than the reorder window ("
                                        + seconds(settings.reorderWindowNanos()) + "); widen it with --reorder-window");
                        recycle(e);
                        continue;
                    }
                    held.add(e);
                    latestEnd = Math.max(latestEnd, e.endEpochNanos());
                    return;
                }
            }
            eof = true;
        } catch (IOException e) {
            // the line being read when it failed: the next one, unless the reader was already skipping an
            // over-long line, which it has counted
            long line = reader.tooLong() ? reader.lineNumber() : reader.lineNumber() + 1;
            throw new InputException(input.name() + ":" + line + ": cannot be read (" + e.getMessage() + ")");
        }
    }

    /** The entry of the current line, or null when it is blank, bad or reaches no detector (counted). */
    private LogEntry parse() {
        long line = reader.lineNumber();
        if (reader.tooLong()) {
            bad.line();
            bad.bad(index, input.name(), line, "longer than " + reader.maxLineBytes() + " bytes");
            return null;
        }
        byte[] b = reader.buffer();
        int s = reader.start();
        int e = reader.end();
        if (isBlank(b, s, e)) {
            return null;
        }
        bad.line();
        ParsedLine p = parsed;
        if (!settings.format().parse(b, s, e, p)) {
            bad.bad(index, input.name(), line, p.error());
            return null;
        }
        if (!p.hasStart) {
            bad.bad(index, input.name(), line, "no START_TIME");
            return null;
        }
        String cluster = "";
        if (p.clusterStart >= 0 && !(p.clusterEnd - p.clusterStart == 1 && p.bytes[p.clusterStart] == '-')) {
            cluster = names.intern(p.bytes, p.clusterStart, p.clusterEnd);
            if (cluster == null) {
                bad.bad(index, input.name(), line, "more than " + settings.maxNames() + " distinct names");
                return null;
            }
        }
        if (settings.cluster() != null
                && p.clusterStart >= 0
                && !settings.cluster().equals(cluster)) {
            bad.countOtherCluster();
            return null;
        }
        LineOutcome outcome = OutcomeMapping.map(p.hasHost(), p.code, p.flags);
        if (!outcome.reported()) {
            bad.notReported(outcome, p.flags);
            return null;
        }
        int hostName = names.id(p.bytes, p.hostStart, p.hostEnd);
        String host = hostName < 0 ? null : names.name(hostName);
        if (host == null) {
            bad.bad(index, input.name(), line, "more than " + settings.maxNames() + " distinct names");
            return null;
        }
        if (settings.hosts() != null && !settings.hosts().contains(host)) {
            bad.bad(index, input.name(), line, "upstream host \"" + host + "\" is not a host of the cluster");
            return null;
        }
        String instance = "";
        if (settings.instancePerFile()) {
            instance = input.name();
        } else if (p.instanceStart >= 0) {
            instance = names.intern(p.bytes, p.instanceStart, p.instanceEnd);
            if (instance == null) {
                bad.bad(index, input.name(), line, "more than " + settings.maxNames() + " distinct names");
                return null;
            }
        }
        LogEntry entry = free == 0 ? new LogEntry() : spare[--free];
        spare[free] = null;
        return entry.set(p.endEpochNanos(), cluster, instance, host, p.code, outcome, index, line, hostName);
    }

    /** Takes back an entry that {@link #next} returned and its reader is done with; a later line is read into it. */
    void recycle(LogEntry e) {
        if (free < spare.length) {
            spare[free++] = e;
        }
    }

    private static boolean isBlank(byte[] b, int s, int e) {
        for (int i = s; i < e; i++) {
            if (b[i] != ' ' && b[i] != '\t') {
                return false;
            }
        }
        return true;
    }

    private static String seconds(long nanos) {
        return Durations.format(nanos);
    }

    @Override
    public void close() {
        try {
            reader.close();
        } catch (IOException e) {
            // closing a file that was read to the end cannot lose anything
        }
    }
}
