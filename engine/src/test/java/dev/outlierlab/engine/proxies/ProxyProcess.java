package dev.outlierlab.engine.proxies;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A proxy server started for one scenario: its own directory, its own configuration, its own ports on
 * 127.0.0.1, its output in a file; stopped (and waited for) at close. Never the system's service.
 */
public final class ProxyProcess implements AutoCloseable {
    private final Process process;
    private final Path output;

    private ProxyProcess(Process process, Path output) {
        this.process = process;
        this.output = output;
    }

    /** Whether the binary exists and can be run. */
    public static boolean available(String binary) {
        return new File(binary).canExecute();
    }

    /** Starts {@code command} in {@code dir} and waits (at most 10 s) until {@code port} accepts connections. */
    public static ProxyProcess start(List<String> command, Path dir, int port)
            throws IOException, InterruptedException {
        return start(command, dir, port, Map.of());
    }

    /** As {@link #start(List, Path, int)}, with these environment variables set for the process. */
    public static ProxyProcess start(List<String> command, Path dir, int port, Map<String, String> env)
            throws IOException, InterruptedException {
        Path out = dir.resolve("process.out");
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectError(dir.resolve("process.err").toFile())
                .redirectOutput(out.toFile());
        builder.environment().putAll(env);
        Process p = builder.start();
        ProxyProcess proxy = new ProxyProcess(p, out);
        long deadline = System.currentTimeMillis() + 10_000;
        while (System.currentTimeMillis() < deadline) {
            if (!p.isAlive()) {
                throw new IOException("exited with " + p.exitValue() + ": " + Files.readString(out)
                        + Files.readString(dir.resolve("process.err")));
            }
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                return proxy;
            } catch (IOException notYet) {
                Thread.sleep(20);
            }
        }
        proxy.close();
        throw new IOException("did not listen on " + port + " within 10 s: " + Files.readString(out)
                + Files.readString(dir.resolve("process.err")));
    }

    public String output() throws IOException {
        return Files.readString(output);
    }

    /** Stops the process (TERM, then KILL after 5 s) and waits for it. */
    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
