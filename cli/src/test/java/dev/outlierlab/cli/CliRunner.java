package dev.outlierlab.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.Assertions;

/** Runs the real command in-process and captures what it prints. */
final class CliRunner {
    record Outcome(int exit, String out, String err) {
        JsonNode json() {
            try {
                return new ObjectMapper().readTree(out);
            } catch (Exception e) {
                throw new AssertionError("stdout is not JSON: " + out + "\nstderr: " + err, e);
            }
        }

        /** Bad input: exit 2, nothing on stdout, one message with these fragments, no stack trace. */
        void assertRejected(String... fragments) {
            Assertions.assertThat(exit).as(err).isEqualTo(2);
            Assertions.assertThat(out).isEmpty();
            Assertions.assertThat(err).contains(fragments).doesNotContain("Exception", "\tat ");
            Assertions.assertThat(err.lines().count()).isLessThanOrEqualTo(2);
        }

        /** Events with the given action, as "time_ns host type". */
        List<String> events(String action) {
            List<String> rows = new ArrayList<>();
            for (JsonNode e : json().get("events")) {
                if (e.get("action").asText().equals(action)) {
                    rows.add(e.get("time_ns").asLong() + " " + e.get("host").asText()
                            + (e.get("type").isNull() ? "" : " " + e.get("type").asText()));
                }
            }
            return rows;
        }
    }

    private CliRunner() {}

    static Outcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Outcome(exit, out.toString(), err.toString());
    }
}
