package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code outlier-lab serve} in-process: the printed address serves the lab; a taken port is exit status 2. */
class ServeCommandTest {
    private static final Pattern URL = Pattern.compile("http://127\\.0\\.0\\.1:(\\d+)/");

    /** A started {@code serve}, its command object and captured output. */
    private record Serving(ServeCommand command, CompletableFuture<Integer> exit, StringWriter out, StringWriter err) {}

    private static Serving serve(List<URI> opened, String... args) throws Exception {
        CommandLine cli = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        ServeCommand command = cli.getSubcommands().get("serve").getCommand();
        command.opener = opened::add;
        String[] all = new String[args.length + 1];
        all[0] = "serve";
        System.arraycopy(args, 0, all, 1, args.length);
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> cli.execute(all));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!URL.matcher(out.toString()).find() && !exit.isDone() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        return new Serving(command, exit, out, err);
    }

    @Test
    void portZeroPrintsTheAddressAndServesTheLab() throws Exception {
        // the opener runs on the command's thread after the address is printed
        List<URI> opened = new CopyOnWriteArrayList<>();
        Serving s = serve(opened, "--port", "0", "--open");
        try {
            Matcher m = URL.matcher(s.out().toString());
            assertThat(m.find()).as("printed address in %s", s.out()).isTrue();
            assertThat(Integer.parseInt(m.group(1))).isPositive();
            assertThat(s.out().toString()).contains("Ctrl-C");
            assertThat(s.command().server.address().getAddress().getHostAddress())
                    .isEqualTo("127.0.0.1");
            long openDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (opened.isEmpty() && System.nanoTime() < openDeadline) {
                Thread.sleep(10);
            }
            assertThat(opened).containsExactly(URI.create(m.group()));

            HttpClient client = HttpClient.newHttpClient();
            HttpResponse<String> page = client.send(
                    HttpRequest.newBuilder(URI.create(m.group())).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("outlier-lab");
            HttpResponse<String> run = client.send(
                    HttpRequest.newBuilder(URI.create(m.group() + "api/run"))
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    "{\"outlier_detection\": {\"max_ejection_percent\": 34}}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(run.statusCode()).isEqualTo(200);
            assertThat(run.body()).contains("\"ejections_enforced\":3");
        } finally {
            s.command().stop();
        }
        assertThat(s.exit().get(20, TimeUnit.SECONDS)).isZero();
        assertThat(s.err().toString()).isEmpty();
    }

    @Test
    void aTakenPortIsExitStatus2WithAClearMessage() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            Serving s = serve(new ArrayList<>(), "--port", Integer.toString(taken.getLocalPort()));
            assertThat(s.exit().get(20, TimeUnit.SECONDS)).isEqualTo(2);
            assertThat(s.err().toString())
                    .contains("cannot listen on 127.0.0.1:" + taken.getLocalPort(), "in use", "--port 0")
                    .doesNotContain("Exception", "\tat ");
            assertThat(s.out().toString()).isEmpty();
        }
    }

    @Test
    void badPortOrHostIsExitStatus2() {
        CliRunner.Outcome port = CliRunner.run("serve", "--port", "70000");
        assertThat(port.exit()).isEqualTo(2);
        assertThat(port.err()).contains("--port", "70000", "0 for any free port");
        CliRunner.Outcome notANumber = CliRunner.run("serve", "--port", "eighty");
        assertThat(notANumber.exit()).isEqualTo(2);
        CliRunner.Outcome host = CliRunner.run("serve", "--host", "no-such-host.invalid", "--port", "0");
        assertThat(host.exit()).isEqualTo(2);
        assertThat(host.err()).contains("--host", "no-such-host.invalid");
    }

    @Test
    void helpListsServeAndItsOptions() {
        assertThat(CliRunner.run("--help").out()).contains("serve");
        CliRunner.Outcome help = CliRunner.run("serve", "--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("--host", "127.0.0.1", "--port", "8080", "--open");
    }
}
