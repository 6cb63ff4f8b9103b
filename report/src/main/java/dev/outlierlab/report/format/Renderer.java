package dev.outlierlab.report.format;

import java.io.IOException;

/**
 * Writes a command's result in one output format. A renderer that builds its output as one string implements
 * {@link Text}; a report too large to hold at once (check's text over many clusters) writes as it goes.
 *
 * @param <R> the result it renders
 */
@FunctionalInterface
public interface Renderer<R> {
    /** Writes {@code result} to {@code out}. */
    void render(R result, Appendable out) throws IOException;

    /** A renderer that returns its whole output as one string. */
    @FunctionalInterface
    interface Text<R> extends Renderer<R> {
        /** The output for {@code result}. */
        String text(R result);

        @Override
        default void render(R result, Appendable out) throws IOException {
            out.append(text(result));
        }
    }
}
