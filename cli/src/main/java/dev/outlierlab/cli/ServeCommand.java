package dev.outlierlab.cli;

import dev.outlierlab.web.LabServer;
import java.awt.Desktop;
import java.awt.GraphicsEnvironment;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code outlier-lab serve}: the interactive lab in the browser. Starts {@link LabServer} (loopback only
 * unless told otherwise), prints the page's address and serves until interrupted. A port in use is bad
 * input: one message and exit status 2.
 */
@Command(
        name = "serve",
        mixinStandardHelpOptions = true,
        usageHelpWidth = 110,
        description = {
            "Serve the interactive lab in the browser.",
            "",
            "At http://127.0.0.1:8080/ by default: every control of the original lab and more,"
                    + " one-click presets for its nine comparisons, charts of hosts, failures and success"
                    + " rates, and the decision trace step by step. The Envoy | Gateway switch shows the"
                    + " gateway profile: its controls, the statements of docs/gateway-comparisons.md as"
                    + " presets, a timeline per endpoint and process (ejected, or virtually ejected in"
                    + " shadow), and every decision with its numbers.",
            ""
        },
        footer = {
            "",
            "Examples:",
            "  outlier-lab serve",
            "      http://127.0.0.1:8080/",
            "  outlier-lab serve --port 0 --open",
            "      any free port, opened in the default browser",
            "",
            "The server binds 127.0.0.1 (this machine only) unless --host says otherwise. It"
                    + " has no authentication; each run is bounded (1,000 hosts, 20 million requests, 64"
                    + " KiB per request).",
            "Serves until stopped with Ctrl-C. Exit status 2 if the port is taken or an option is invalid."
        })
public final class ServeCommand implements Callable<Integer> {
    /** Opens a page in a browser; replaced in tests. */
    interface BrowserOpener {
        void open(URI uri) throws IOException;
    }

    @Spec
    CommandSpec spec;

    @Option(
            names = "--host",
            paramLabel = "ADDRESS",
            defaultValue = LabServer.DEFAULT_HOST,
            description =
                    "Address to listen on (default ${DEFAULT-VALUE}: this machine only; 0.0.0.0 for every interface).")
    String host;

    @Option(
            names = "--port",
            paramLabel = "PORT",
            defaultValue = "8080",
            description = "Port to listen on (default ${DEFAULT-VALUE}); 0 picks a free port and prints it.")
    int port;

    @Option(
            names = "--client-connections",
            paramLabel = "N",
            defaultValue = "" + LabServer.DEFAULT_CLIENT_CONNECTIONS,
            description = "Open connections of one client address; more are closed as soon as"
                    + " they are accepted (default ${DEFAULT-VALUE}; " + LabServer.MAX_CONNECTIONS + " in all).")
    int clientConnections;

    @Option(names = "--open", description = "Open the lab in the default browser once it is serving.")
    boolean open;

    BrowserOpener opener = ServeCommand::openInBrowser;
    final CountDownLatch stopped = new CountDownLatch(1);
    volatile LabServer server;

    /** Refuses a port or a connection bound out of its range. */
    private void refuseBadNumbers() {
        if (port < 0 || port > 65_535) {
            throw new ParameterException(
                    spec.commandLine(), "--port: " + port + " is not a port; use 1 to 65535, or 0 for any free port");
        }
        if (clientConnections < 1 || clientConnections > LabServer.MAX_CONNECTIONS) {
            throw new ParameterException(
                    spec.commandLine(),
                    "--client-connections: " + clientConnections + " is not allowed; use 1 to "
                            + LabServer.MAX_CONNECTIONS);
        }
    }

    /** Says where the lab is (and that every interface can reach it), and opens a browser when asked. */
    private void announce(PrintWriter out, PrintWriter err) {
        URI page = browsable(server);
        out.println("outlier-lab: the lab is at " + page + " (Ctrl-C to stop)");
        if (server.address().getAddress().isAnyLocalAddress()) {
            out.println("outlier-lab: listening on every interface at port " + server.port()
                    + "; anyone who can reach it can run simulations");
        }
        out.flush();
        if (open) {
            try {
                opener.open(page);
            } catch (IOException | RuntimeException e) {
                err.println(
                        "outlier-lab: could not open a browser (" + e.getMessage() + "); open " + page + " yourself");
            }
        }
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        refuseBadNumbers();
        if (new InetSocketAddress(host, 0).isUnresolved()) {
            err.println(
                    "outlier-lab: --host: " + host + " is not a known address; use 127.0.0.1 (the default) or 0.0.0.0");
            return Main.EXIT_BAD_INPUT;
        }
        try {
            server = LabServer.start(LabServer.Options.of(host, port).withClientConnections(clientConnections));
        } catch (BindException e) {
            err.println("outlier-lab: cannot listen on " + host + ":" + port + ": " + bindReason(e)
                    + "; choose another port with --port, or --port 0 for any free port");
            return Main.EXIT_BAD_INPUT;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the lab's server on " + host + ":" + port, e);
        }
        Thread hook = new Thread(this::stop, "outlier-lab-serve-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        announce(out, err);
        stopped.await();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The JVM is exiting: the hook has stopped the server already.
        }
        return 0;
    }

    /** Stops serving and lets {@link #call()} return. */
    void stop() {
        LabServer s = server;
        if (s != null) {
            s.close();
        }
        stopped.countDown();
    }

    /** The address to print: a wildcard bind is reached through loopback. */
    private static URI browsable(LabServer server) {
        if (server.address().getAddress().isAnyLocalAddress()) {
            return URI.create("http://127.0.0.1:" + server.port() + "/");
        }
        return server.uri();
    }

    private static String bindReason(BindException e) {
        String m = e.getMessage() == null ? "" : e.getMessage().toLowerCase(Locale.ROOT);
        if (m.contains("in use")) {
            return "the port is in use";
        }
        if (m.contains("permission")) {
            return "permission denied (ports below 1024 need privileges)";
        }
        if (m.contains("assign")) {
            return "the address is not one of this machine's";
        }
        return e.getMessage();
    }

    private static void openInBrowser(URI uri) throws IOException {
        if (GraphicsEnvironment.isHeadless()
                || !Desktop.isDesktopSupported()
                || !Desktop.getDesktop().isSupported(Desktop.Action.BROWSE)) {
            String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
            String[] command = os.contains("mac")
                    ? new String[] {"open", uri.toString()}
                    : os.contains("win")
                            ? new String[] {"rundll32", "url.dll,FileProtocolHandler", uri.toString()}
                            : new String[] {"xdg-open", uri.toString()};
            // The opener's own chatter (xdg-open's "no method available", a browser's warnings) is not ours to print.
            new ProcessBuilder(command)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            return;
        }
        Desktop.getDesktop().browse(uri);
    }
}
