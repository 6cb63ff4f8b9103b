package dev.outlierlab.accesslog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** A stream with no line break ({@code /dev/zero}) is refused after a bounded skip instead of read forever. */
class EndlessLineTest {
    /** Zero bytes without end, counting what was read. */
    private static final class Zeros extends InputStream {
        long read;

        @Override
        public int read() {
            read++;
            return 0;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            Arrays.fill(b, off, off + len, (byte) 0);
            read += len;
            return len;
        }
    }

    @Test
    void anEndlessLineIsRefusedAfterTheSkipLimit() {
        Zeros zeros = new Zeros();
        LogLineReader reader = new LogLineReader(zeros, 1024);
        assertThatThrownBy(reader::next)
                .isInstanceOf(IOException.class)
                .hasMessage("line 1 has no line break within 64 MiB: not a text log");
        assertThat(zeros.read)
                .isBetween(
                        LogLineReader.MAX_SKIPPED_LINE_BYTES, LogLineReader.MAX_SKIPPED_LINE_BYTES + 2 * 1024 * 1024);
    }

    @Test
    void anOverLongLineThatEndsIsOneBadLineAndReadingGoesOn() throws IOException {
        String text = "x".repeat(5000) + "\nshort line\n";
        LogLineReader reader = new LogLineReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), 1024);
        assertThat(reader.next()).isTrue();
        assertThat(reader.tooLong()).isTrue();
        assertThat(reader.next()).isTrue();
        assertThat(reader.tooLong()).isFalse();
        assertThat(new String(reader.buffer(), reader.start(), reader.end() - reader.start(), StandardCharsets.UTF_8))
                .isEqualTo("short line");
        assertThat(reader.lineNumber()).isEqualTo(2);
        assertThat(reader.next()).isFalse();
    }
}
