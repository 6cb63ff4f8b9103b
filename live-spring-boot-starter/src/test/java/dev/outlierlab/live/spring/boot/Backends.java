package dev.outlierlab.live.spring.boot;

import dev.outlierlab.live.httpclient.LoopbackUpstream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.springframework.test.context.DynamicPropertyRegistry;

/** Three real loopback backends a, b, c (c answers 503 to everything), registered as simple-discovery instances. */
final class Backends implements AutoCloseable {
    final LoopbackUpstream a;
    final LoopbackUpstream b;
    final LoopbackUpstream c;

    Backends() {
        try {
            a = LoopbackUpstream.start("a");
            b = LoopbackUpstream.start("b");
            c = LoopbackUpstream.start("c").failing(100, 503);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    List<LoopbackUpstream> all() {
        return List.of(a, b, c);
    }

    /** Registers the three as the instances of each service. */
    void register(DynamicPropertyRegistry registry, String... services) {
        for (String service : services) {
            List<LoopbackUpstream> list = new ArrayList<>(all());
            for (int i = 0; i < list.size(); i++) {
                String uri = list.get(i).uri().toString();
                registry.add(
                        "spring.cloud.discovery.client.simple.instances." + service + "[" + i + "].uri",
                        () -> uri.endsWith("/") ? uri.substring(0, uri.length() - 1) : uri);
            }
        }
    }

    @Override
    public void close() {
        all().forEach(LoopbackUpstream::close);
    }
}
