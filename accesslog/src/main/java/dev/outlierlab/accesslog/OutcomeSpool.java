package dev.outlierlab.accesslog;

import dev.outlierlab.config.InputException;
import java.io.IOException;
import java.nio.ByteBuffer;
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
    private static final Outcome[] OUTCOMES = Outcome.values();
    private final Path file;
    private final FileChannel channel;
    /** Direct, so that writing and reading the file copies the records once, not through a temporary buffer. */
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(RECORD * 4096);
    private boolean reading;

    /** One spooled outcome; {@link #read} fills the same instance each time. */
    static final class Row {
        long endEpochNanos;
        int group;
        int host;
        int code;
        Outcome outcome;
        long line;
    }

    OutcomeSpool() {
        try {
            file = Files.createTempFile("outlier-lab-replay", ".bin");
            channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new InputException("cannot create a temporary file for the replay (" + e.getMessage() + ")");
        }
    }

    void write(long endEpochNanos, int group, int host, int code, Outcome outcome, long line) {
        if (buffer.remaining() < RECORD) {
            flush();
        }
        buffer.putLong(endEpochNanos).putInt(group).putInt(host).putShort((short) code)
                .put((byte) outcome.ordinal()).putLong(line);
    }

    private void flush() {
        try {
            buffer.flip();
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            buffer.clear();
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
        buffer.limit(0);
        reading = true;
    }

    /** Fills {@code row} with the next record; false at the end. */
    boolean read(Row row) {
        if (!reading) {
            throw new IllegalStateException("startReading first");
        }
        if (buffer.remaining() < RECORD) {
            try {
                buffer.compact();
                while (buffer.position() < RECORD && channel.read(buffer) > 0) {
                    // fill at least one record
                }
                buffer.flip();
            } catch (IOException e) {
                throw new InputException("cannot read the replay's temporary file " + file + " (" + e.getMessage() + ")");
            }
            if (buffer.remaining() < RECORD) {
                return false;
            }
        }
        row.endEpochNanos = buffer.getLong();
        row.group = buffer.getInt();
        row.host = buffer.getInt();
        row.code = buffer.getShort();
        row.outcome = OUTCOMES[buffer.get()];
        row.line = buffer.getLong();
        return true;
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
