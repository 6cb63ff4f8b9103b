package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The outputs pasted into docs/check.md and the README are what the command prints today. */
class CheckDocsTest {
    private static String pasted(String doc, String command) throws IOException {
        String text = Files.readString(Path.of("..", doc));
        String start = "$ " + command + "\n";
        int from = text.indexOf(start);
        assertThat(from).as("%s shows '%s'", doc, command).isNotNegative();
        from += start.length();
        int to = text.indexOf("\n$ ", from);
        int fence = text.indexOf("\n```", from);
        return text.substring(from, to < 0 || fence < to ? fence : to) + "\n";
    }

    private static String printed(String... args) {
        String[] relative = args.clone();
        relative[1] = "../" + args[1];
        return CliRunner.run(relative).out().replace("../docs/", "docs/");
    }

    @Test
    void envoyExample() throws IOException {
        String out = printed("check", "docs/examples/search-cluster.yaml", "--rps", "600");
        assertThat(pasted("docs/check.md", "outlier-lab check docs/examples/search-cluster.yaml --rps 600")).isEqualTo(out);
        assertThat(pasted("README.md", "./outlier-lab check docs/examples/search-cluster.yaml --rps 600")).isEqualTo(out);
    }

    @Test
    void istioExample() throws IOException {
        String out = printed("check", "docs/examples/reviews-destination-rule.yaml", "--hosts", "6");
        assertThat(pasted("docs/check.md", "outlier-lab check docs/examples/reviews-destination-rule.yaml --hosts 6"))
                .isEqualTo(out);
    }

    @Test
    void kumaExample() throws IOException {
        String out = CliRunner.run("check", "../check/src/test/resources/corpus/kuma/meshcircuitbreaker-outbound.input.yaml",
                "--hosts", "6").out().replace("../check/", "check/");
        assertThat(pasted("docs/check.md",
                "outlier-lab check check/src/test/resources/corpus/kuma/meshcircuitbreaker-outbound.input.yaml --hosts 6"))
                .isEqualTo(out);
    }
}
