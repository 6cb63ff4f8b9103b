package dev.outlierlab.accesslog;

import dev.outlierlab.config.InputException;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The outcomes of the scan, in time order, in a temporary file of fixed-size binary records (27 bytes each: end
 * time, detector, host, code, outcome, line), so the replay runs them once the hosts and time span are known
 * without reading the text again: the log is read once (standard input too). The file is deleted when closed.
 */
final class OutcomeSpool implements AutoCloseable {
    private static final int RECORD = 27;
    private static final LineOutcome[] OUTCOMES = LineOutcome.values();
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle SHORTS =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private final Path file;
    private final FileChannel channel;
    /**
     * The records are written into and read from an array (a plain store or load each field, where a buffer's put
     * and get check and move its position every time); the channel copies the array in whole blocks.
     */
    private final byte[] records = new byte[RECORD * 4096];

    private final ByteBuffer buffer = ByteBuffer.wrap(records);
    /** Writing: the bytes filled. Reading: the next record's offset, and {@link #filled} the bytes read. */
    private int at;

    private int filled;
    private boolean reading;

    /** One spooled outcome; {@link #read} fills the same instance each time. */
    static final class Row {
        long endEpochNanos;
        int group;
        int host;
        int code;
        LineOutcome outcome;
        long line;
    }

    OutcomeSpool() {
        try {
            file = Files.createTempFile("outlier-lab-replay", ".bin");
            channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            unlinkWhileOpen(file);
        } catch (IOException e) {
            throw new InputException("cannot create a temporary file for the replay (" + e.getMessage() + ")");
        }
    }

    void write(long endEpochNanos, int group, int host, int code, LineOutcome outcome, long line) {
        if (at > records.length - RECORD) {
            flush();
        }
        byte[] r = records;
        int i = at;
        LONGS.set(r, i, endEpochNanos);
        INTS.set(r, i + 8, group);
        INTS.set(r, i + 12, host);
        SHORTS.set(r, i + 16, (short) code);
        r[i + 18] = (byte) outcome.ordinal();
        LONGS.set(r, i + 19, line);
        at = i + RECORD;
    }

    private void flush() {
        try {
            buffer.clear().limit(at);
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            at = 0;
        } catch (IOException e) {
            throw new InputException("cannot write the replay's temporary file " + file + " (" + e.getMessage() + ")");
        }
    }

    /** Ends writing (the first time); reading starts from the first record, as often as asked. */
    void startReading() {
        if (!reading) {
            flush();
        }
        try {
            channel.position(0);
        } catch (IOException e) {
            throw new InputException("cannot read the replay's temporary file " + file + " (" + e.getMessage() + ")");
        }
        at = 0;
        filled = 0;
        reading = true;
    }

    /** Fills {@code row} with the next record; false at the end. */
    boolean read(Row row) {
        if (!reading) {
            throw new IllegalStateException("startReading first");
        }
        if (filled - at < RECORD && !fill()) {
            return false;
        }
        byte[] r = records;
        int i = at;
        row.endEpochNanos = (long) LONGS.get(r, i);
        row.group = (int) INTS.get(r, i + 8);
        row.host = (int) INTS.get(r, i + 12);
        row.code = (short) SHORTS.get(r, i + 16);
        row.outcome = OUTCOMES[r[i + 18]];
        row.line = (long) LONGS.get(r, i + 19);
        at = i + RECORD;
        return true;
    }

    /** Moves the rest of the block to the front and reads on; false when not one whole record is left. */
    private boolean fill() {
        int rest = filled - at;
        System.arraycopy(records, at, records, 0, rest);
        at = 0;
        filled = rest;
        try {
            buffer.clear().position(rest);
            while (filled < RECORD && channel.read(buffer) > 0) {
                filled = buffer.position();
            }
            filled = buffer.position();
        } catch (IOException e) {
            throw new InputException("cannot read the replay's temporary file " + file + " (" + e.getMessage() + ")");
        }
        return filled >= RECORD;
    }

    /**
     * Removes the file's name at once: the open channel keeps the data until it is closed, and the system frees
     * it when the process ends in any way (an interrupt, a kill, an out-of-memory error), so no spool is ever left
     * in the temporary directory (about 1 GB for 40 M lines). Where an open file cannot be deleted, it is deleted
     * when closed, or by the JVM's shutdown hook on an interrupt.
     */
    private static void unlinkWhileOpen(Path file) {
        try {
            Files.delete(file);
        } catch (IOException e) {
            file.toFile().deleteOnExit();
        }
    }

    @Override
    public void close() {
        try {
            channel.close();
            Files.deleteIfExists(file);
        } catch (IOException e) {
            file.toFile().deleteOnExit();
        }
    }
}
