package dev.outlierlab.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The GitHub Action's script (release/action/check.sh, the step action.yml runs) against the release archive built
 * here, given as a local file instead of a download: it unpacks it, checks the configs, writes SARIF and hands
 * check's exit status to the action's last step through GITHUB_OUTPUT.
 */
class ActionScriptIT {
    private Path folder;

    @BeforeEach
    void folder() throws IOException {
        folder = Files.createTempDirectory("outlier-lab-action");
    }

    @AfterEach
    void cleanUp() throws IOException {
        Shell.delete(folder);
    }

    private Shell.Result action(String files, String args) throws IOException, InterruptedException {
        return Shell.run(
                List.of(
                        "bash",
                        ReleaseFiles.REPO.resolve("release/action/check.sh").toString()),
                ReleaseFiles.REPO,
                Map.of(
                        "OUTLIER_LAB_FILES",
                        files,
                        "OUTLIER_LAB_ARGS",
                        args,
                        "OUTLIER_LAB_ARCHIVE",
                        ReleaseFiles.archive().toString(),
                        "OUTLIER_LAB_SARIF",
                        folder.resolve("findings.sarif").toString(),
                        "GITHUB_OUTPUT",
                        folder.resolve("output").toString(),
                        "RUNNER_TEMP",
                        folder.toString()),
                false,
                600);
    }

    @Test
    void theActionRunsTheArchivesCheckAndWritesSarif() throws IOException, InterruptedException {
        Shell.Result clean = action("docs/examples/search-cluster.yaml", "--rps 600");
        assertThat(clean.exit()).as(clean.describe()).isZero();
        assertThat(clean.out()).contains("outlier-lab " + ReleaseFiles.VERSION, "warning cap-admits-no-host (line 22)");
        assertThat(Files.readAllLines(folder.resolve("output")))
                .containsExactly("sarif=" + folder.resolve("findings.sarif"), "status=0");
        assertThat(folder.resolve("findings.sarif"))
                .content()
                .contains("\"ruleId\" : \"cap-admits-no-host\"", "\"uri\" : \"docs/examples/search-cluster.yaml\"");
    }

    @Test
    void errorsAreTheLastStepsToFailOnAndAnUnreadableFileStopsAtOnce() throws IOException, InterruptedException {
        // the example cluster with every detector's enforcement at 0: an error (no-detector-enforced)
        Path neverEjects = folder.resolve("never-ejects.yaml");
        Files.writeString(
                neverEjects,
                Files.readString(ReleaseFiles.REPO.resolve("docs/examples/search-cluster.yaml"))
                        .replace(
                                "  consecutive_5xx: 5\n",
                                "  consecutive_5xx: 5\n  enforcing_consecutive_5xx: 0\n"
                                        + "  enforcing_success_rate: 0\n  enforcing_consecutive_gateway_failure: 0\n"
                                        + "  enforcing_failure_percentage: 0\n"));
        Shell.Result errors = action(neverEjects + "\ndocs/examples/search-cluster.yaml", "");
        assertThat(errors.exit())
                .as("the upload still runs: %s", errors.describe())
                .isZero();
        assertThat(errors.out()).contains("error   no-detector-enforced (line 22)");
        assertThat(Files.readAllLines(folder.resolve("output"))).contains("status=1");
        assertThat(folder.resolve("findings.sarif"))
                .content()
                .contains(
                        "\"level\" : \"error\"",
                        "\"ruleId\" : \"no-detector-enforced\"",
                        "docs/examples/search-cluster.yaml");

        Shell.Result missing = action("no-such-config.yaml", "");
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("no-such-config.yaml");
    }

    @Test
    void theActionRunsThisScript() throws IOException {
        String action = Files.readString(ReleaseFiles.REPO.resolve("action.yml"));
        assertThat(action)
                .contains(
                        "using: composite",
                        "\"$GITHUB_ACTION_PATH/release/action/check.sh\"",
                        "uses: github/codeql-action/upload-sarif@v3",
                        "OUTLIER_LAB_ARCHIVE: ${{ inputs.archive }}");
        assertThat(ReleaseFiles.REPO.resolve("release/action/check.sh")).isExecutable();
    }
}
