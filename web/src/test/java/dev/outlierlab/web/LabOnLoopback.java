package dev.outlierlab.web;

import java.net.http.HttpClient;
import java.time.Duration;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real lab server on a free loopback port and the JDK's HTTP client, started before a test class's first test and
 * closed after its last: {@code @RegisterExtension static final LabOnLoopback LAB = new LabOnLoopback();}.
 */
final class LabOnLoopback implements BeforeAllCallback, AfterAllCallback {
    private LabServer server;
    private HttpClient client;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        server = LabServer.start(0);
        client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        server.close();
    }

    LabServer server() {
        return server;
    }

    HttpClient client() {
        return client;
    }
}
