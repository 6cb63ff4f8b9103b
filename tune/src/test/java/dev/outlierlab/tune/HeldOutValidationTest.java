package dev.outlierlab.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.tune.HeldOutScenarios.HeldOut;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Held-out validation: each cluster of a matrix (every registered target; 2, 3, 6, 20, 50 and 200 hosts; 1, 5 and 50
 * callers; Envoy 1.26, 1.31 and 1.40) is tuned on a reduced built-in suite, and the recommendation is then run on
 * scenarios the search never scored ({@link HeldOutScenarios}) beside detection off, the target's defaults and a
 * brute-force sweep of the settings the search can express ({@link HeldOutCell#GRID} of them at most, strided). The
 * properties: wherever a swept setting that meets the user's default constraint (it ejects nothing in the mild
 * held-out conditions nor in the built-in should-not-eject scenarios) removes at least half of the avoidable failures
 * of a host failing 35 % or more, the recommendation does too, and where none does and the recommendation removes less
 * than half as well, the output says so; a dead host is out within 10 s wherever some such setting takes it out that
 * fast, and where none does the output says so; the "breaks when" figures hold on a seed they were not measured on.
 * The cells that break one are {@link #KNOWN_GAPS}, exactly: the test fails when one is fixed (remove it here) as when
 * a new one appears.
 */
class HeldOutValidationTest {
    private static final EnvoyVersion V126 = new EnvoyVersion(1, 26);
    private static final EnvoyVersion V131 = new EnvoyVersion(1, 31);
    private static final EnvoyVersion V140 = new EnvoyVersion(1, 40);

    /**
     * The matrix: every size and caller count on Envoy's cluster, each other target at a small and a larger size. The
     * rate per host is 20 up to 6 hosts, 10 at 20, 5 at 50 and 2 at 200 (so the test stays quick; at 2 a host gets 20
     * requests in a 10 s interval, under every default volume): at 50 callers a caller sends 0.4 requests a second to
     * each of 6 hosts, too few for any volume rule.
     */
    static final List<HeldOutCell> MATRIX = List.of(
            cell("envoy", 2, 40, 1, V140),
            cell("envoy", 3, 60, 5, V126),
            cell("envoy", 6, 120, 1, V131),
            cell("envoy", 6, 120, 50, V140),
            cell("envoy", 20, 200, 5, V140),
            cell("envoy", 50, 250, 1, V140),
            cell("envoy", 200, 400, 1, V140),
            cell("istio", 6, 120, 5, V140),
            cell("istio", 50, 250, 1, V140),
            cell("envoy-gateway", 20, 200, 1, V140),
            cell("kuma", 3, 60, 1, V140),
            cell("grpc", 2, 40, 1, V140),
            cell("grpc", 20, 200, 5, V140),
            cell("gateway", 3, 60, 1, V140),
            cell("gateway", 20, 200, 5, V140),
            cell("nginx", 6, 120, 1, V140),
            cell("haproxy", 3, 60, 1, V140),
            cell("caddy", 20, 200, 1, V140));

    /**
     * The properties the matrix breaks today, each as {@link HeldOutCell.Found#gaps()} words it (docs/tune.md, "Held-out
     * validation"): none. nginx's {@code max_fails=0} never takes a refusing server out, and no setting that does
     * within 10 s keeps its benefit and its constraints; "What no setting can catch here" says so and why, which the
     * test checks. The "breaks when" figures state how often they break (the gateway's 30 % outage: in 1 of 20 runs),
     * which held-out seeds confirm.
     */
    static final Set<String> KNOWN_GAPS = Set.of();

    private static HeldOutCell cell(String target, int hosts, long rps, int callers, EnvoyVersion v) {
        return new HeldOutCell(Target.byFlag(target), hosts, rps, callers, v);
    }

    @Test
    void theMatrixCoversEveryTargetSizeCallerCountAndRelease() {
        Set<String> flags = new HashSet<>();
        Set<Integer> sizes = new HashSet<>();
        Set<Integer> callers = new HashSet<>();
        Set<EnvoyVersion> versions = new HashSet<>();
        for (HeldOutCell c : MATRIX) {
            flags.add(c.target().flag());
            sizes.add(c.hosts());
            callers.add(c.callers());
            versions.add(c.version());
        }
        assertThat(flags)
                .containsExactlyInAnyOrderElementsOf(
                        Target.all().stream().map(Target::flag).toList());
        assertThat(sizes).containsExactlyInAnyOrder(2, 3, 6, 20, 50, 200);
        assertThat(callers).containsExactlyInAnyOrder(1, 5, 50);
        assertThat(versions).contains(V126, V131, V140);
    }

    @Test
    void noHeldOutScenarioIsOneTheSearchScores() {
        for (HeldOutCell c : MATRIX) {
            TuneRequest req = c.request();
            List<SuiteScenario> scored =
                    new ArrayList<>(new DefaultSuite(c.hosts(), req.rps(), req.clients(), 0).scenarios());
            scored.addAll(BreakingPoints.probes(req));
            for (HeldOut h : HeldOutScenarios.of(c.hosts(), req.rps(), req.clients())) {
                Scenario mine = h.scenario().scenario();
                for (SuiteScenario s : scored) {
                    assertThat(h.name()).isNotEqualTo(s.name());
                    boolean sameShape = s.scenario().faults().equals(mine.faults())
                            && s.scenario().load().equals(mine.load())
                            && s.scenario().durationNanos() == mine.durationNanos();
                    assertThat(sameShape)
                            .as(c.label() + " " + h.name() + " against " + s.name())
                            .isFalse();
                }
            }
        }
    }

    @Test
    void recommendationsHoldOnScenariosTheSearchNeverScored() throws IOException {
        TuneRuns runner = new TuneRuns(2);
        List<String> lines = new ArrayList<>();
        List<String> detail = new ArrayList<>();
        lines.add(String.format(
                Locale.ROOT,
                "%-32s %5s %8s %7s %7s %6s %6s %11s %-17s %s",
                "cluster",
                "off",
                "defaults",
                "tuned",
                "sweep",
                "grid",
                "dead",
                "false 30/50",
                "+fail/1k 10/30/50/n",
                "breaks when (outage, noise, caught)"));
        Set<String> gaps = new TreeSet<>();
        for (HeldOutCell c : MATRIX) {
            long t0 = System.nanoTime();
            HeldOutCell.Found f = c.evaluate(runner);
            gaps.addAll(f.gaps());
            lines.add(summary(f));
            for (int i = 0; i < f.held().size(); i++) {
                ScenarioScore t = f.tuned().get(i);
                detail.add(String.format(
                        Locale.ROOT,
                        "%-32s %-18s off %5.1f%%  defaults %5s  tuned %5s  sweep %5s  detect %6s  false %3.0f",
                        c.label(),
                        f.held().get(i).name(),
                        t.failedPercentDuringFault(true),
                        HeldOutCell.pct(f.defaults().get(i).removedPercent()),
                        HeldOutCell.pct(t.removedPercent()),
                        HeldOutCell.pct(f.gridBest()[i]),
                        HeldOutCell.secs(t.detectSeconds()),
                        t.falseEjections()));
            }
            String took = c.label() + ": " + f.result().recommended().setting().label() + " ("
                    + (System.nanoTime() - t0) / 1_000_000 + " ms)";
            detail.add(took);
            f.breaks().forEach(b -> detail.add("  breaks when, " + b.words()));
            f.stated().forEach(l -> detail.add("  cannot: " + l));
            f.result().cannotCatch().stream()
                    .filter(l -> l.startsWith("one-host-"))
                    .forEach(l -> detail.add("  cannot: " + l));
            System.out.println(lines.get(lines.size() - 1) + "\n" + took);
        }
        lines.add("");
        lines.addAll(detail);
        lines.add("");
        lines.addAll(gaps);
        Path out = Path.of("target", "held-out-validation.txt");
        Files.createDirectories(out.getParent());
        Files.write(out, lines, StandardCharsets.UTF_8);
        lines.forEach(System.out::println);
        assertThat(gaps).containsExactlyInAnyOrderElementsOf(KNOWN_GAPS);
    }

    /**
     * One cell in a line: detection off's failed share during the fault (held-35-bursts), the least share removed over
     * the should-eject held-out scenarios by the defaults, the recommendation and the sweep's best ("-" where no swept
     * setting is quiet in the mild conditions), the settings swept
     * (of the space), when the dead host (502s) is out, the false ejections in the 30 % and 50 % shared outages, the
     * failed requests per 1,000 the recommendation adds over detection off in the 10 %, 30 % and 50 % outages and the
     * noisy pool (0 where it fails no more), and the "breaks when" figures.
     */
    private static String summary(HeldOutCell.Found f) {
        double def = Double.POSITIVE_INFINITY;
        double tuned = Double.POSITIVE_INFINITY;
        double sweep = Double.POSITIVE_INFINITY;
        double dead = Double.NaN;
        double falses30 = 0;
        double falses50 = 0;
        List<String> added = new ArrayList<>();
        for (int i = 0; i < f.held().size(); i++) {
            HeldOut h = f.held().get(i);
            if (h.depthPercent() >= 35) {
                def = least(def, f.defaults().get(i).removedPercent());
                tuned = least(tuned, f.tuned().get(i).removedPercent());
                sweep = least(sweep, f.gridBest()[i]);
            }
            if (h.name().equals("held-dead-502")) {
                dead = f.tuned().get(i).detectSeconds();
            }
            if (h.name().equals("held-shared-30")) {
                falses30 = f.tuned().get(i).falseEjections();
            }
            if (h.name().equals("held-shared-50")) {
                falses50 = f.tuned().get(i).falseEjections();
            }
            if (h.depthPercent() == 0) {
                // the callers' cost where nothing should go: failed requests beyond detection off per 1,000
                added.add(String.format(
                        Locale.ROOT, "%.0f", Math.max(0, f.tuned().get(i).addedFailuresPerThousand())));
            }
        }
        BreakingPoints b = f.result().breaks();
        return String.format(
                Locale.ROOT,
                "%-32s %4.1f%% %8s %7s %7s %6s %6s %11s %-17s %s",
                f.cell().label(),
                f.tuned().get(0).failedPercentDuringFault(true),
                HeldOutCell.pct(def),
                HeldOutCell.pct(tuned),
                HeldOutCell.pct(sweep),
                f.swept() + "/" + f.space(),
                HeldOutCell.secs(dead),
                String.format(Locale.ROOT, "%.0f/%.0f", falses30, falses50),
                String.join("/", added),
                (b.sharedOutagePercent() < 0
                                ? "none"
                                : b.sharedOutagePercent() + "% " + runs(b.outageRuns(), b.sharedOutagePercent()))
                        + ", "
                        + (b.noisePpm() < 0
                                ? "none"
                                : b.noisePpm() / 10_000.0 + "% " + runs(b.noiseRuns(), b.noisePpm()))
                        + ", "
                        + (b.caughtPercent() < 0
                                ? "none"
                                : b.caughtPercent() + "% " + runs(b.partialRuns(), b.caughtPercent())));
    }

    /** A figure's runs, e.g. {@code 1/20}. */
    private static String runs(List<ProbeTally> tallies, long level) {
        ProbeTally t = ProbeTally.at(tallies, level);
        return t.hits() + "/" + t.runs();
    }

    /**
     * The lesser of the two, a scenario without avoidable failures (NaN: nginx retries a refused connection on the
     * next server) or where no swept setting is quiet (negative infinity) left out.
     */
    private static double least(double sofar, double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? sofar : Math.min(sofar, v);
    }
}
