package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each opt-in load key, given a bad value, is refused with one message naming the key, the value and the line. */
class LoadKeysBadInputTest {
    @Test
    void eachBadValueNamesItsKeyAndValueAndExitsTwo() {
        CliRunner.run("run", "--set", "cluster.capacity=0")
                .assertRejected("cluster.capacity", "0 is not allowed", "from 1 to 10000000");
        CliRunner.run("run", "--set", "cluster.capacity=abc")
                .assertRejected("cluster.capacity", "\"abc\"", "a mapping of host names");
        CliRunner.run("run", "--set", "cluster.overload_response=404")
                .assertRejected("cluster.overload_response", "404", "from 500 to 599, or timeout");
        CliRunner.run("run", "--set", "cluster.weights=[1,2]")
                .assertRejected("cluster.weights", "2 values", "a list of 6 such numbers");
        CliRunner.run("run", "--set", "traffic.arrivals=bursty")
                .assertRejected("traffic.arrivals", "\"bursty\"", "even or poisson");
        CliRunner.run("run", "--set", "faults[0].kind=zombie").assertRejected("faults[0].kind", "\"zombie\"", "dead");
        CliRunner.run("run", "--set", "traffic.steps[0].at=10s")
                .assertRejected("traffic.steps[0].rps", "nothing", "both at (a time) and rps");
    }

    @Test
    void fileErrorsNameTheLine(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("s.yaml");
        Files.writeString(
                file, String.join("\n", "cluster:", "  hosts: 3", "  capacity: {host-0: 50, host-7: 10}", ""));
        CliRunner.run("run", file.toString())
                .assertRejected("s.yaml:3", "cluster.capacity.host-7", "host names of the cluster");
        Files.writeString(
                file, String.join("\n", "faults:", "  - hosts: all", "    kind: dead", "    error_rate: 50", ""));
        CliRunner.run("run", file.toString()).assertRejected("s.yaml:4", "faults[0].error_rate", "kind: dead");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "duration: 60s",
                        "traffic:",
                        "  steps:",
                        "    - {at: 10s, rps: 5}",
                        "    - {at: 5s, rps: 5}",
                        ""));
        CliRunner.run("run", file.toString())
                .assertRejected("s.yaml:5", "traffic.steps[1].at", "after the step before");
    }

    @Test
    void aSeriesFileThatCannotBeWrittenIsBadInputAndNothingIsPrinted(@TempDir Path dir) {
        CliRunner.Outcome o = CliRunner.run(
                "run", "--series", dir.resolve("missing/signals.csv").toString());
        o.assertRejected("signals.csv: cannot be written");
        assertThat(dir.resolve("missing")).doesNotExist();
    }
}
