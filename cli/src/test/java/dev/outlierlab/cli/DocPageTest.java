package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

/** The doc-test's reading of a page and its matching of output: a changed figure fails, elisions do not. */
class DocPageTest {
    @TempDir
    Path repo;

    @Test
    void readsConsoleBlocksAndFlagsCommandsElsewhere() throws IOException {
        Files.createDirectories(repo.resolve("docs"));
        Files.writeString(
                repo.resolve("docs/page.md"),
                String.join(
                        "\n",
                        "# A page",
                        "",
                        "```console",
                        "$ ./outlier-lab run \\",
                        "    --events 2",
                        "summary",
                        "...",
                        "failed 5 of …",
                        "",
                        "$ ./outlier-lab run --clients 0",
                        "outlier-lab: bad",
                        "[exit status 2]",
                        "$ ./outlier-lab serve --port 18123 &",
                        "```",
                        "",
                        "```text",
                        "$ outlier-lab run",
                        "```",
                        "```yaml",
                        "outlier-lab run is fine in prose-like synopsis",
                        "```",
                        ""));
        DocPage page = DocPage.read(repo, repo.resolve("docs/page.md"));

        assertThat(page.name()).isEqualTo("docs/page.md");
        assertThat(page.blocks()).hasSize(1);
        List<DocPage.Command> commands = page.blocks().get(0).commands();
        assertThat(commands)
                .extracting(DocPage.Command::text)
                .containsExactly(
                        "./outlier-lab run --events 2",
                        "./outlier-lab run --clients 0",
                        "./outlier-lab serve --port 18123 &");
        assertThat(commands.get(0).line()).isEqualTo(4);
        assertThat(commands.get(0).expected()).containsExactly("summary", "...", "failed 5 of …");
        assertThat(commands.get(0).exitStatus()).isZero();
        assertThat(commands.get(1).expected()).containsExactly("outlier-lab: bad");
        assertThat(commands.get(1).exitStatus()).isEqualTo(2);
        assertThat(commands.get(2).background()).isTrue();
        assertThat(page.misplacedCommands()).containsExactly("docs/page.md:17: $ outlier-lab run");
    }

    @Test
    void findsOutlierLabCommandsInShBlocksButForTheListedOnes() throws IOException {
        Files.createDirectories(repo.resolve("docs"));
        Files.writeString(
                repo.resolve("docs/install.md"),
                String.join(
                        "\n",
                        "```sh",
                        "./outlier-lab run      # a comment naming outlier-lab run",
                        "mvn -B verify          # ./outlier-lab is not run here",
                        "java -jar outlier-lab-0.1.0.jar --version && cp x /tmp/before/outlier-lab.jar",
                        "```",
                        "```bash",
                        "time outlier-lab-0.1.0/bin/outlier-lab check a.yaml | head",
                        "```",
                        "```shell",
                        "$ outlier-lab tune --hosts 6",
                        "```",
                        "```sh",
                        "curl -LO https://github.com/outlier-lab/outlier-lab/releases/download/v0.1.0/x.deb",
                        "outlier-lab run",
                        "```",
                        "```text",
                        "outlier-lab run [SCENARIO] [--set KEY=VALUE]...",
                        "```",
                        "```console",
                        "$ ./outlier-lab --version",
                        "```",
                        ""));
        DocPage page = DocPage.read(repo, repo.resolve("docs/install.md"));

        assertThat(page.shellBlocks()).extracting(DocPage.ShellBlock::line).containsExactly(1, 6, 9, 12);
        assertThat(DocCommandsIT.commandsShownNotRun(page))
                .containsExactly(
                        "docs/install.md:2: ./outlier-lab run      # a comment naming outlier-lab run",
                        "docs/install.md:7: time outlier-lab-0.1.0/bin/outlier-lab check a.yaml | head",
                        "docs/install.md:10: $ outlier-lab tune --hosts 6");
    }

    @Test
    void matchingFailsOnAChangedFigureAndAllowsMarkedElisions() {
        List<String> shown = List.of("summary", "...", "failed 5 of …", "end");
        assertThat(DocPage.matches(shown, List.of("summary", "a", "b", "failed 5 of 600 requests", "end")))
                .isTrue();
        assertThat(DocPage.matches(shown, List.of("summary", "failed 5 of 600 requests", "end")))
                .isTrue();
        assertThat(DocPage.matches(shown, List.of("summary", "failed 6 of 600 requests", "end")))
                .isFalse();
        assertThat(DocPage.matches(shown, List.of("summary", "failed 5 of 600 requests", "end", "more")))
                .isFalse();
        assertThat(DocPage.matches(List.of("a  "), List.of("a"))).isTrue();
        assertThat(DocPage.matches(List.of("a"), List.of("b"))).isFalse();
        assertThat(DocPage.lineMatches("x (…) y", "x (1.2 s) y")).isTrue();
        assertThat(DocPage.lineMatches("x (…) y", "x (1.2 s) z")).isFalse();
        assertThat(DocPage.lineMatches("40 s  eject ... -> ejected", "40 s  eject rate 67 % -> ejected"))
                .isTrue();
    }

    @Test
    void findsTheProgramsOfACommandLineOutsideQuotes() {
        assertThat(DocShell.programs("curl -s localhost:1/api -d '{\"a\": \"x|y\"}' | jq -c '.a | .b' && FOO=1 "
                        + "./outlier-lab run; cut -c1-80 \"a;b\" &"))
                .containsExactly("curl", "jq", "./outlier-lab", "cut");
        assertThat(DocShell.programs("./outlier-lab serve --port 18123 &")).containsExactly("./outlier-lab");
    }

    @Test
    void aBlockNeedingAMissingProgramIsSkippedWithTheReason() throws Exception {
        Assumptions.assumeTrue(DocShell.hasBash(), "bash is not installed");
        DocPage.Block missing = new DocPage.Block(
                3,
                List.of(new DocPage.Command(4, "echo '{}' | no-such-program-for-the-doc-test -c .", List.of("{}"), 0)));
        assertThat(DocShell.missingPrograms(repo, missing)).containsExactly("no-such-program-for-the-doc-test");
        Assertions.assertThatThrownBy(() -> DocShell.runBlock(repo, "docs/page.md", missing))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("docs/page.md:3: no-such-program-for-the-doc-test is not installed");
        DocPage.Block present =
                new DocPage.Block(3, List.of(new DocPage.Command(4, "echo '{}' | cat", List.of("{}"), 0)));
        assertThat(DocShell.missingPrograms(repo, present)).isEmpty();
        DocShell.runBlock(repo, "docs/page.md", present);
        DocPage.Block wrong =
                new DocPage.Block(3, List.of(new DocPage.Command(4, "echo '{}' | cat", List.of("[]"), 0)));
        Assertions.assertThatThrownBy(() -> DocShell.runBlock(repo, "docs/page.md", wrong))
                .isInstanceOf(AssertionError.class);
    }
}
