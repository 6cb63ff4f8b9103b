package dev.outlierlab.accesslog;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.LongConsumer;

/**
 * Every input's entries merged into one stream by end time (ties: the input given first, then line order), so
 * several files (rotated logs, or the logs of several proxies) replay on one clock.
 */
public final class MergedLog implements AutoCloseable {
    private static final Comparator<Head> ORDER = Comparator.<Head>comparingLong(h -> h.entry.endEpochNanos())
            .thenComparingInt(h -> h.entry.input())
            .thenComparingLong(h -> h.entry.line());

    private record Head(LogEntry entry, LogSource source) {}

    private final List<LogSource> sources = new ArrayList<>();
    private final PriorityQueue<Head> heads = new PriorityQueue<>(ORDER);
    private final long[] bytesRead = new long[1];
    private final long totalBytes;
    private final LongConsumer progress;
    private long handedOn;
    private LogEntry single;

    /**
     * @param progress called with the bytes read so far every 65,536 entries (for a progress display), or null
     */
    public MergedLog(List<LogInput> inputs, ReadSettings settings, BadLines bad, LongConsumer progress) {
        NameTable names = new NameTable(settings.maxNames());
        long total = 0;
        this.progress = progress;
        try {
            for (int i = 0; i < inputs.size(); i++) {
                LogSource s = new LogSource(inputs.get(i), i, settings, names, bad, bytesRead);
                sources.add(s);
                total += inputs.get(i).size();
                LogEntry first = s.next();
                if (inputs.size() == 1) {
                    single = first;
                } else if (first != null) {
                    heads.add(new Head(first, s));
                }
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        this.totalBytes = total;
    }

    /** The next entry, or null when every input is done. */
    public LogEntry next() {
        if (sources.size() == 1) {
            LogEntry e = single == null ? sources.get(0).next() : single;
            single = null;
            if (e != null && progress != null && (++handedOn & 0xFFFF) == 0) {
                progress.accept(bytesRead[0]);
            }
            return e;
        }
        Head h = heads.poll();
        if (h == null) {
            return null;
        }
        LogEntry following = h.source.next();
        if (following != null) {
            heads.add(new Head(following, h.source));
        }
        if (progress != null && (++handedOn & 0xFFFF) == 0) {
            progress.accept(bytesRead[0]);
        }
        return h.entry;
    }

    /**
     * Hands back an entry {@link #next} returned once the caller is done with it: the next lines are read into
     * it, so a long log allocates no entry per line. An entry not handed back is never changed.
     */
    public void recycle(LogEntry e) {
        sources.get(e.input()).recycle(e);
    }

    /** Bytes of the inputs on disk, for a progress estimate. */
    public long totalBytes() {
        return totalBytes;
    }

    @Override
    public void close() {
        for (LogSource s : sources) {
            s.close();
        }
    }
}
