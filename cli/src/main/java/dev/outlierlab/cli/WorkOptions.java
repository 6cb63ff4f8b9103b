package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.report.Numbers;
import dev.outlierlab.sim.RunWatcher;
import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.sim.gateway.GatewayScenario;
import dev.outlierlab.sim.gateway.GatewayWorkEstimate;
import dev.outlierlab.tune.SearchBudget;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * How much work a command may do without asking: before simulating, {@code run} and {@code sweep} estimate
 * the work ({@link WorkEstimate}; {@link GatewayWorkEstimate} for the gateway profile, at its own rate) and
 * refuse, with the estimate and how to allow it, anything estimated at over {@link #MAX_SECONDS_WITHOUT_YES} seconds on this machine unless {@code --yes} is given. On an interactive
 * terminal ({@link StandardError}), a run that lasts over a second shows its progress and the time left on
 * standard error (never standard output; nothing when standard error is redirected or captured).
 */
public final class WorkOptions {
    /**
     * Request-equivalents simulated per second, taken low on purpose so that the estimate errs long: on
     * 2026-12-01 at 02:20 UTC a 24 h run of 2,000 requests a second through {@code run} (172.8 million requests)
     * took 9.3 to 9.6 s on the 2-core machine, 18 million a second, while the host was in its slow phase (the
     * README's reference loop at 54 ns, against 28 in its fast phase, when runs take half as long). Before the
     * per-request divisions were removed the same run took 20.9 s.
     */
    static final long UNITS_PER_SECOND = 16_000_000L;
    /**
     * Gateway attempt-equivalents ({@link GatewayWorkEstimate}) simulated per second, taken low on purpose: on
     * 2026-12-01 at 02:21 UTC the two-provider example over 200 h (432 million requests, 1,036.8 million units)
     * took 27.8 s through {@code run}, 37 million units a second, with the host in its slow phase (reference loop
     * at 56 ns).
     */
    static final long GATEWAY_UNITS_PER_SECOND = 20_000_000L;
    /** Work estimated at more seconds than this needs {@code --yes}. */
    static final long MAX_SECONDS_WITHOUT_YES = 60;

    @Option(
            names = "--yes",
            description = "Run even when the work is estimated at over a minute (the estimate is shown otherwise).")
    boolean yes;

    /** Refuses work estimated at over a minute unless {@code --yes} was given. */
    void check(WorkEstimate work, String what) {
        check(work, GatewayWorkEstimate.NONE, what);
    }

    /**
     * The most window buckets a gateway run may keep (processes x endpoints x buckets of the window, 8 bytes
     * each plus the endpoint's own state): about 1.6 GB, refused with a message even with {@code --yes}, since
     * past it the run would end in an out-of-memory error rather than take long.
     */
    static final long MAX_GATEWAY_BUCKETS = 200_000_000L;

    /** Refuses a gateway scenario whose windows would not fit in memory (not a question of time: no --yes). */
    static void checkMemory(GatewayScenario s, String what) {
        GatewayConfig g = s.gateway();
        long endpoints = s.endpoints().size();
        long cells = Durations.saturatingMultiply(
                Durations.saturatingMultiply(g.processes(), endpoints), (long) g.buckets() + 16);
        if (cells > MAX_GATEWAY_BUCKETS) {
            throw new InputException(what + ": the windows would keep " + Numbers.count(cells) + " buckets ("
                    + g.processes() + " processes x " + Numbers.count(endpoints) + " endpoints x "
                    + Numbers.count(g.buckets())
                    + " buckets of the window, plus each endpoint's state), over the limit of "
                    + Numbers.count(MAX_GATEWAY_BUCKETS) + " (about 1.6 GB); use a larger gateway.bucket, a shorter "
                    + "gateway.window, fewer gateway.processes or fewer endpoints");
        }
    }

    /** Refuses Envoy and gateway work together estimated at over a minute unless {@code --yes} was given. */
    void check(WorkEstimate envoy, GatewayWorkEstimate gateway, String what) {
        check(
                envoy,
                gateway,
                what,
                envoy.units() > 0
                        ? "shorten duration, lower traffic.rps or the hosts, lengthen outlier_detection.interval"
                        : "shorten duration, lower traffic.rps, the endpoints or routing.fallbacks");
    }

    /**
     * Refuses work estimated at over a minute unless {@code --yes} was given; {@code shorten} says what the user of
     * this command can change to make it smaller (a tune user sets no duration).
     */
    void check(WorkEstimate envoy, GatewayWorkEstimate gateway, String what, String shorten) {
        double seconds = seconds(envoy) + seconds(gateway);
        if (seconds <= MAX_SECONDS_WITHOUT_YES || yes) {
            return;
        }
        List<String> parts = new ArrayList<>();
        if (envoy.units() > 0) {
            parts.add(Numbers.count(envoy.requests()) + " simulated requests"
                    + (envoy.countedRequests() == envoy.requests()
                            ? " (all counted, not walked, by the event-driven path)"
                            : envoy.countedRequests() > 0
                                    ? " (" + Numbers.count(envoy.countedRequests()) + " of them counted, "
                                            + "not walked, by the event-driven path)"
                                    : "")
                    + ", " + Numbers.count(envoy.faultSteps())
                    + (envoy.countedRequests() == envoy.requests()
                            ? " request-equivalents of the faults' draws and failures, "
                            : " fault steps, ")
                    + Numbers.count(envoy.hostEvaluations())
                    + " host evaluations at ticks and health "
                    + "checks, at " + Numbers.count(UNITS_PER_SECOND / 1_000_000) + " million a second");
        }
        if (gateway.units() > 0) {
            parts.add(Numbers.count(gateway.requests()) + " simulated gateway requests making at most "
                    + Numbers.count(gateway.attempts()) + " attempts, " + Numbers.count(gateway.units())
                    + " attempt-equivalents at " + Numbers.count(GATEWAY_UNITS_PER_SECOND / 1_000_000)
                    + " million a second");
        }
        throw new InputException(
                what + " is estimated at " + duration(seconds) + " of work (" + String.join("; ", parts)
                        + "), over the " + MAX_SECONDS_WITHOUT_YES + " s allowed without asking; " + shorten
                        + ", or add --yes to run it anyway");
    }

    /**
     * The refusal of a search ({@code SearchBudget} decided it): {@code what} the search is, its estimate and what it
     * counted, the allowance, and {@code shorten}, what the user can change in the flags of tune.
     */
    InputException searchRefusal(SearchBudget.Decision d, String what, String shorten) {
        return new InputException(what + " is estimated at " + duration(d.secondsAThread()) + " of CPU a thread ("
                + d.counted() + "), over the " + duration(SearchBudget.MAX_SECONDS_A_THREAD)
                + " allowed without asking; " + shorten + ", or add --yes to run it anyway");
    }

    /**
     * A line on standard error when it is a terminal ({@link StandardError}; never standard output, which may carry
     * JSON, and never when standard error is redirected or captured), erasing a progress line drawn before it.
     */
    static void note(String line) {
        if (StandardError.isTerminal()) {
            System.err.print("\r\033[K" + line + System.lineSeparator());
            System.err.flush();
        }
    }

    /** The estimate in seconds on this machine. */
    static double seconds(WorkEstimate work) {
        return work.units() / (double) UNITS_PER_SECOND;
    }

    /** The gateway estimate in seconds on this machine. */
    static double seconds(GatewayWorkEstimate work) {
        return work.units() / (double) GATEWAY_UNITS_PER_SECOND;
    }

    /** A gateway estimate in the units of {@link #progress}: Envoy request-equivalents taking as long. */
    static long progressUnits(GatewayWorkEstimate work) {
        return (long) Math.min(Long.MAX_VALUE / 4, seconds(work) * UNITS_PER_SECOND);
    }

    /**
     * A watcher that draws progress for {@code total} units of work (a sweep's runs together) on standard
     * error, or watches nothing when standard error is not a terminal.
     */
    static Progress progress(String label, long total) {
        return new Progress(label, total, StandardError.isTerminal() ? System.err : null);
    }

    static String duration(double seconds) {
        if (seconds < 120) {
            return String.format(Locale.ROOT, "%.0f s", Math.ceil(seconds));
        }
        if (seconds < 7200) {
            return String.format(Locale.ROOT, "%.0f min", Math.ceil(seconds / 60));
        }
        return String.format(Locale.ROOT, "%.0f h", Math.ceil(seconds / 3600));
    }

    /**
     * Progress of one or more runs on a terminal: a line on standard error, redrawn at most twice a second
     * once a second has passed, with the share done and the time left at the rate so far; erased at the end.
     */
    static final class Progress {
        private final String label;
        private final long total;
        private final PrintStream terminal;
        private final long startNanos = System.nanoTime();
        private long lastDrawNanos;
        private long doneBefore;
        private boolean drawn;

        Progress(String label, long total, PrintStream terminal) {
            this.label = label;
            this.total = Math.max(1, total);
            this.terminal = terminal;
        }

        /** A watcher for the next run, whose work is {@code runUnits} of the total. */
        RunWatcher next(long runUnits) {
            if (terminal == null) {
                return RunWatcher.NONE;
            }
            long base = doneBefore;
            doneBefore += runUnits;
            return (done, runTotal) -> {
                if (done >= 0 && runTotal > 0) {
                    draw(base + (long) (runUnits * (done / (double) runTotal)));
                }
            };
        }

        private void draw(long done) {
            long now = System.nanoTime();
            if (now - startNanos < 1_000_000_000L || now - lastDrawNanos < 500_000_000L) {
                return;
            }
            lastDrawNanos = now;
            double share = Math.min(1, done / (double) total);
            double elapsed = (now - startNanos) / 1e9;
            String left = share <= 0
                    ? ""
                    : String.format(Locale.ROOT, ", about %.0f s left", Math.ceil(elapsed * (1 - share) / share));
            terminal.print(String.format(Locale.ROOT, "\r%s: %.0f %%%s   ", label, 100 * share, left));
            terminal.flush();
            drawn = true;
        }

        /** Erases the progress line, if one was drawn. */
        void finish() {
            if (drawn) {
                terminal.print("\r\033[K");
                terminal.flush();
            }
        }
    }
}
