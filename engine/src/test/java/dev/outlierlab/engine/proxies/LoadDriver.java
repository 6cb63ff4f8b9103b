package dev.outlierlab.engine.proxies;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Sends GET requests one after the other to a proxy on 127.0.0.1, one every {@code spacingMillis} (or as soon as
 * the previous one has its answer, if that is later), for {@code durationMillis}, each on a new connection with
 * {@code Connection: close}. Records the status each request got (0 when the connection failed). Sequential on
 * purpose: the proxy handles one request at a time, as the lab's attempts have no overlap.
 */
public final class LoadDriver {
    /** A client request: when it was sent (epoch ms) and the status it got. */
    public record Sent(long atMillis, int status) {}

    private LoadDriver() {}

    /** Runs the load; {@code atStart} runs once the clock starts, {@code tick} before each request. */
    public static List<Sent> run(
            int port, long spacingMillis, long durationMillis, long startMillis, Runnable everyRequest)
            throws InterruptedException {
        List<Sent> sent = new ArrayList<>();
        long end = startMillis + durationMillis;
        long next = startMillis;
        int guard = 0;
        while (next < end && guard++ < 100_000) {
            long wait = next - System.currentTimeMillis();
            if (wait > 0) {
                Thread.sleep(wait);
            }
            everyRequest.run();
            long at = System.currentTimeMillis();
            sent.add(new Sent(at, get(port, "/")));
            next += spacingMillis;
        }
        return sent;
    }

    /** One GET; the status, or 0 when the connection failed. */
    public static int get(int port, String path) {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: lab\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] head = new byte[12];
            int read = 0;
            while (read < head.length) {
                int r = in.read(head, read, head.length - read);
                if (r < 0) {
                    return 0;
                }
                read += r;
            }
            in.readAllBytes();
            return Integer.parseInt(new String(head, 9, 3, StandardCharsets.US_ASCII));
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }
}
