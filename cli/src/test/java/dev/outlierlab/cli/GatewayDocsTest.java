package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The outputs pasted into docs/gateway.md and the README's gateway section are what the command prints today. */
class GatewayDocsTest {
    private static final String EXAMPLE = "docs/examples/gateway-two-providers.yaml";
    private static final String SIX = "cluster.hosts=[azure, openai, bedrock, vertex, mistral, groq]";

    private static String pasted(String doc, String command) throws IOException {
        String text = Files.readString(Path.of("..", doc));
        String start = "$ " + command + "\n";
        int from = text.indexOf(start);
        assertThat(from).as("%s shows '%s'", doc, command).isNotNegative();
        from += start.length();
        int fence = text.indexOf("\n```", from);
        return text.substring(from, fence) + "\n";
    }

    @Test
    void twoProviders() throws IOException {
        String out = CliRunner.run("run", "../" + EXAMPLE).out();
        assertThat(pasted("docs/gateway.md", "./outlier-lab run " + EXAMPLE)).isEqualTo(out);
        assertThat(out).contains("none: no endpoint was ejected");
    }

    @Test
    void sixProviders() throws IOException {
        String out = CliRunner.run("run", "../" + EXAMPLE, "--set", SIX, "--events", "4").out();
        assertThat(pasted("docs/gateway.md", "./outlier-lab run " + EXAMPLE + " --set \"" + SIX + "\" --events 4"))
                .isEqualTo(out);
        assertThat(out).contains("failed        98 of 180,000 requests");
    }

    @Test
    void readmeExcerptIsFromTheSameRun() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        String out = CliRunner.run("run", "../" + EXAMPLE).out();
        for (String line : new String[] {
            "  failed        20,790 of 180,000 requests as the caller saw them; 20,790 of 180,000 attempts",
            "  - 2 endpoints, peer_set all: no endpoint can lie more than sqrt(1) = 1.000 standard deviations"}) {
            assertThat(out).contains(line);
            assertThat(readme).contains(line);
        }
    }
}
