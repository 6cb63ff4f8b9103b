package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The malformed and ambiguous heads of the fourth hardening round, sent to a real {@code outlier-lab serve}
 * process on loopback: each is answered 400 (RFC 9112: a bare CR, a CR or space or NUL in a header name, two
 * {@code Host} headers, two {@code Origin} headers, a chunk size past 2^63), and the server still answers a
 * probe after each. Before the server ran on Jetty, the bare CR stopped the server for everyone.
 */
class ServeProcessMalformedHeadTest {
    private static final Pattern ADDRESS = Pattern.compile("the lab is at http://127\\.0\\.0\\.1:(\\d+)/");

    @Test
    void everyMalformedHeadIsA400AndTheServerGoesOnAnswering() throws Exception {
        List<String> command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1",
                "-cp",
                System.getProperty("java.class.path"),
                Main.class.getName(),
                "serve",
                "--port",
                "0");
        Process p = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            assertThat(line).as("serve's first line").isNotNull();
            Matcher m = ADDRESS.matcher(line);
            assertThat(m.find()).as(line).isTrue();
            int port = Integer.parseInt(m.group(1));
            String host = "Host: 127.0.0.1:" + port + "\r\n";
            List<String> heads = List.of(
                    "GET / HTTP/1.1\r\n" + host + "X-A: a\rb\r\n\r\n",
                    "GET / HTTP/1.1\r\n" + host + "X\rA: b\r\n\r\n",
                    "GET / HTTP/1.1\r\n" + host + "Host: evil.example\r\n\r\n",
                    "GET / HTTP/1.1\r\n" + host + "Origin: http://127.0.0.1:" + port
                            + "\r\nOrigin: http://evil.example\r\n\r\n",
                    "GET / HTTP/1.1\r\n" + host + "X A: b\r\n\r\n",
                    "GET / HTTP/1.1\r\n" + host + "X\0A: b\r\n\r\n",
                    "POST /api/run HTTP/1.1\r\n" + host + "Content-Type: application/json\r\n"
                            + "Transfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\n{}\r\n0\r\n\r\n");
            for (String head : heads) {
                assertThat(send(port, head))
                        .as(head.replace("\r", "\\r").replace("\n", "\\n").replace("\0", "\\0"))
                        .startsWith("HTTP/1.1 400 ");
                assertThat(send(port, "GET / HTTP/1.1\r\n" + host + "Connection: close\r\n\r\n"))
                        .as("the probe after it")
                        .startsWith("HTTP/1.1 200 ");
            }
        } finally {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    private static String send(int port, String request) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            s.setSoTimeout(5000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            try {
                s.getInputStream().transferTo(got);
            } catch (SocketTimeoutException e) {
                // what came is the answer
            }
            return got.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
