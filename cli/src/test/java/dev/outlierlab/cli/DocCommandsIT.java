package dev.outlierlab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every command shown in the README and in {@code docs/} runs, as written, and prints what the page shows.
 *
 * <p>A page shows a command in a fenced block tagged {@code console}: a line {@code $ ./outlier-lab ...} (or any
 * shell command, {@code curl} included), then the output it prints (standard output and error together). See
 * {@link DocPage} for the expected-output syntax. Each command runs through the real launcher, with bash, in a
 * scratch folder that links to every top-level entry of the repository, so that files a command writes stay out
 * of the checkout. It runs as an integration test, after the CLI's jar is packaged.
 *
 * <p>A block tagged {@code sh}, {@code bash} or {@code shell} is shown, not run, so it may hold no outlier-lab
 * command (a synopsis goes in a {@code text} block), but for the blocks {@link #SHOWN_NOT_RUN} lists with their
 * reason: each page fails on any other.
 */
class DocCommandsIT {
    private static final Path REPO = Path.of("").toAbsolutePath().getParent();

    /**
     * The only {@code sh} blocks that may show an outlier-lab command: a block of this page that contains this
     * text, for this reason. Any other block with an outlier-lab command fails: it belongs in a console block.
     */
    record ShownNotRun(String page, String marker, String reason) {}

    static final List<ShownNotRun> SHOWN_NOT_RUN = List.of(
            new ShownNotRun(
                    "docs/install.md",
                    "https://github.com/outlier-lab/outlier-lab/releases/download/",
                    "installs a published release, which this test has none of to download; the release module's"
                            + " tests build the same files and run the same steps on them"),
            new ShownNotRun(
                    "docs/install.md",
                    "mvn -B -Prelease package",
                    "builds the release files with Maven and then a Docker image; the release module's tests"
                            + " build the files, and no test machine has Docker"),
            new ShownNotRun(
                    "docs/benchmarks.md",
                    "/usr/bin/time ",
                    "a measurement: its output is the table of times below it, and this test does not time"
                            + " commands (tune's output is checked on docs/tune.md)"),
            new ShownNotRun(
                    "docs/flink.md",
                    "--engine flink",
                    "a job on Flink's MiniCluster with the Flink job jar, which the launcher builds on first use"
                            + " and this module's tests run before: the flink module's FlinkPageIT runs it, once"
                            + " the jars are packaged, beside the page's commands for a real cluster"));
    private static Path scratch;

    @BeforeAll
    static void prepare() throws IOException, InterruptedException {
        assumeTrue(DocShell.hasBash(), "bash is not installed: the documented commands cannot run");
        scratch = DocShell.scratchFolder(REPO);
        // The first use of the launcher makes its class-data archives (tune's on the first tune) and says so; do that
        // before any page.
        DocShell.Result warmUp =
                DocShell.run(scratch, "./outlier-lab --version && ./outlier-lab tune --help >/dev/null", 300);
        assertThat(warmUp.exitStatus())
                .as("./outlier-lab --version: %s", warmUp.output())
                .isZero();
    }

    @AfterAll
    static void cleanUp() throws IOException {
        if (scratch != null) {
            DocShell.delete(scratch);
        }
    }

    @TestFactory
    Stream<DynamicNode> everyDocumentedCommand() throws IOException {
        List<DynamicNode> pages = new ArrayList<>();
        String only = System.getProperty("doc.only", "");
        for (Path page : DocPage.pages(REPO)) {
            DocPage doc = DocPage.read(REPO, page);
            if (!only.isEmpty() && Arrays.stream(only.split(",")).noneMatch(doc.name()::contains)) {
                continue; // -Ddoc.only=docs/check.md (or docs/run.md,docs/tune.md) runs pages while they are written
            }
            List<DynamicNode> tests = new ArrayList<>();
            tests.add(DynamicTest.dynamicTest(
                    doc.name() + ": commands are in console blocks",
                    () -> assertThat(doc.misplacedCommands())
                            .as("commands outside a console block (the doc-test"
                                    + " runs only those in ```console blocks)")
                            .isEmpty()));
            tests.add(DynamicTest.dynamicTest(
                    doc.name() + ": no outlier-lab command in an sh block",
                    () -> assertThat(commandsShownNotRun(doc))
                            .as("outlier-lab commands in ```sh, ```bash or ```shell blocks, which the doc-test"
                                    + " does not run: put them in a ```console block with the output they print,"
                                    + " or a synopsis in a ```text block")
                            .isEmpty()));
            for (DocPage.Block block : doc.blocks()) {
                tests.add(DynamicTest.dynamicTest(
                        doc.name() + ":" + block.line() + " " + block.summary(),
                        () -> DocShell.runBlock(scratch, doc.name(), block)));
            }
            pages.add(DynamicContainer.dynamicContainer(doc.name(), tests));
        }
        assertThat(pages).as("pages under %s", REPO).isNotEmpty();
        return pages.stream();
    }

    /** The page's lines in sh blocks that run outlier-lab, but for the blocks of {@link #SHOWN_NOT_RUN}. */
    static List<String> commandsShownNotRun(DocPage doc) {
        List<String> found = new ArrayList<>();
        for (DocPage.ShellBlock block : doc.shellBlocks()) {
            boolean exempt =
                    SHOWN_NOT_RUN.stream().anyMatch(e -> e.page().equals(doc.name()) && block.contains(e.marker()));
            if (!exempt) {
                for (int line : block.outlierLabLines()) {
                    found.add(doc.name() + ":" + line + ": "
                            + block.lines().get(line - block.line() - 1).strip());
                }
            }
        }
        return found;
    }
}
