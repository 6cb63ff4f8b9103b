package dev.outlierlab.flink;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.api.common.JobID;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A tune's runs as Flink jobs on the MiniCluster give the local tune's result, byte for byte, at parallelism 1 and
 * 2: every run of the search (baselines, screening on two seeds, the finalists on the third) made by the job.
 */
class FleetTuneTest {
    @RegisterExtension
    static final MiniClusterExtension CLUSTER = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    private static final Pattern JOB = Pattern.compile("outlier-lab tune: (\\d+) runs");

    @Test
    void aSmallTuneIsTheLocalTuneAtParallelismOneAndTwo(@InjectMiniCluster MiniCluster cluster) throws Exception {
        List<String> args = Runs.smallTune(3);
        Runs local = Runs.local(args);
        assertThat(local.status()).as(local.err()).isZero();
        // the search's own count (the breaking points' conditions have "runs" of their own)
        long localRuns = new ObjectMapper()
                .readTree(local.out())
                .path("search")
                .path("runs")
                .asLong();
        // coarse to fine, runs shared where provably the same: more than the baselines (detection off and the
        // correct action on 3 seeds of 2 scenarios), fewer than every candidate on every seed
        assertThat(localRuns).isGreaterThan(2 * 2 * 3).isLessThan(106 * 2 * 3);
        assertThat(local.out()).contains("\"recommended\"");
        for (int parallelism : new int[] {1, 2}) {
            Set<JobID> before = ids(cluster);
            Runs job = Runs.flink(args, parallelism);
            assertThat(job.status()).as(job.err()).isZero();
            assertThat(job.out()).as("parallelism " + parallelism).isEqualTo(local.out());
            List<Long> jobs = new ArrayList<>();
            for (JobStatusMessage m : cluster.listJobs().get()) {
                Matcher name = JOB.matcher(m.getJobName());
                if (!before.contains(m.getJobId()) && name.matches()) {
                    jobs.add(Long.parseLong(name.group(1)));
                }
            }
            // a job per step of the search (baselines, screening, the finalists' third seed, ...) made every run
            assertThat(jobs).as("parallelism " + parallelism).hasSizeGreaterThanOrEqualTo(3);
            assertThat(jobs.stream().mapToLong(Long::longValue).sum()).isEqualTo(localRuns);
        }
    }

    @Test
    void aBadParallelismIsOneMessage() {
        Runs job = Runs.flink(List.of("tune", "--hosts", "6", "--rps", "600"), 0);
        assertThat(job.status()).isEqualTo(2);
        assertThat(job.err()).isEqualTo("outlier-lab: --parallelism 0: expected 1 to 32,768 (Flink's bound)\n");
        Runs local = Runs.local(List.of("tune", "--hosts", "6", "--rps", "600", "--parallelism", "2"));
        assertThat(local.status()).isEqualTo(2);
        assertThat(local.err()).isEqualTo("outlier-lab: --parallelism 2: only with --engine flink\n");
    }

    private static Set<JobID> ids(MiniCluster cluster) throws Exception {
        Set<JobID> ids = new HashSet<>();
        for (JobStatusMessage m : cluster.listJobs().get()) {
            ids.add(m.getJobId());
        }
        return ids;
    }
}
