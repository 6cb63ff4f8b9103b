package dev.outlierlab.config.envoy;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Reads the test corpus from the classpath. */
public final class Corpus {
    private Corpus() {}

    public static String text(String resource) {
        try (InputStream in = Corpus.class.getResourceAsStream("/" + resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no test resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static EnvoyConfig envoy(String resource) {
        return EnvoyConfigReader.read(text(resource), resource);
    }
}
