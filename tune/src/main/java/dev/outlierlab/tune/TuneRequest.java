package dev.outlierlab.tune;

import dev.outlierlab.config.InputException;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.sim.scenario.HealthCheckSpec;
import java.util.List;

/**
 * What {@code tune} is asked: the cluster (hosts, rate, callers), the target and its Envoy release, the current
 * settings and where they came from, the suite, how many seeds screen candidates and how many score the finalists,
 * and the most hosts that may be out at once.
 *
 * @param name          the cluster's name, used in the files written
 * @param source        where the current settings came from ({@code --from}'s file), or null for Envoy's defaults
 * @param screenSeeds   seeds per candidate while screening (1 to {@code seeds})
 * @param seeds         seeds per finalist
 * @param baseErrorPpm  the healthy pool's error rate in parts per million (from an access log), 0 when unknown
 * @param threads       threads to run the simulations on
 * @param currentProfile the profile the current settings run under: {@link RunProfile#ENVOY} for Envoy's targets,
 *                      gRPC's or the gateway's own settings for theirs
 * @param healthChecks  the active health check the suite's scenarios run with ({@code --from}'s), or null
 * @param notes         what was taken from the inputs and how, one sentence each, printed with the result
 * @param maxFalsePerDay the most false ejections per day a setting may cause in any should-not-eject scenario, at
 *                      that scenario's conditions held all day ({@code --max-false-per-day}; 0: none on any seed)
 * @param maxAddedPerThousand the most failed requests per 1,000 a setting may add over detection off in any
 *                      should-not-eject scenario ({@code --max-added-failures}; by default
 *                      {@link Evaluation#DEFAULT_MAX_ADDED_PER_THOUSAND})
 */
public record TuneRequest(
        String name,
        String source,
        int hosts,
        long rps,
        int clients,
        Target target,
        EnvoyVersion envoyVersion,
        OutlierDetectionConfig current,
        double currentPanicPercent,
        List<SuiteScenario> suite,
        int screenSeeds,
        int seeds,
        int maxEjected,
        long baseErrorPpm,
        int threads,
        RunProfile currentProfile,
        HealthCheckSpec healthChecks,
        List<String> notes,
        double maxFalsePerDay,
        double maxAddedPerThousand) {

    /** The most seeds a finalist is run with. */
    public static final int MAX_SEEDS = 100;
    /** The largest cluster tune searches for. */
    public static final int MAX_HOSTS = 10_000;
    /** The highest request rate tune searches at. */
    public static final long MAX_RPS = 10_000_000;
    /** The most callers tune simulates (and at most one per request a second). */
    public static final int MAX_CLIENTS = 10_000;
    /** {@code --hosts}' range, in words. */
    public static final String HOSTS_RANGE = "2 to " + MAX_HOSTS + " hosts";
    /** {@code --rps}' range, in words. */
    public static final String RPS_RANGE = "1 to " + MAX_RPS + " requests per second";

    public TuneRequest {
        suite = List.copyOf(suite);
        notes = List.copyOf(notes);
        if (currentProfile == null) {
            currentProfile = RunProfile.ENVOY;
        }
        if (hosts < 2 || hosts > MAX_HOSTS) {
            throw new InputException("--hosts: " + hosts + " is not allowed; expected " + HOSTS_RANGE
                    + " (outlier detection " + "compares hosts, and a cluster of one has nothing to eject to)");
        }
        if (rps < 1 || rps > MAX_RPS) {
            throw new InputException("--rps: " + rps + " is not allowed; expected " + RPS_RANGE);
        }
        if (clients < 1 || clients > MAX_CLIENTS || clients > rps) {
            throw new InputException(
                    "--clients: " + clients + " is not allowed; expected 1 to " + Math.min(MAX_CLIENTS, rps)
                            + " callers (at most --rps: every caller sends at least one request a second)");
        }
        String refused = target.clientsRefused(clients);
        if (clients > 1 && refused != null) {
            throw new InputException(refused);
        }
        if (seeds < 1 || seeds > MAX_SEEDS) {
            throw new InputException("--seeds: " + seeds + " is not allowed; expected 1 to " + MAX_SEEDS);
        }
        if (maxEjected < 1 || maxEjected > hosts) {
            throw new InputException(
                    "--max-ejected: " + maxEjected + " is not allowed; expected 1 to " + hosts + " (the hosts)");
        }
        if (!(maxFalsePerDay >= 0 && maxFalsePerDay <= 1_000_000)) {
            throw new InputException("--max-false-per-day: " + maxFalsePerDay
                    + " is not allowed; expected 0 to 1000000 " + "false ejections a day");
        }
        if (!(maxAddedPerThousand >= 0 && maxAddedPerThousand <= 1000)) {
            throw new InputException("--max-added-failures: " + maxAddedPerThousand
                    + " is not allowed; expected 0 to 1000 failed requests per 1,000");
        }
        if (suite.isEmpty()) {
            throw new InputException("--suite: the suite has no scenarios to score against");
        }
        screenSeeds = Math.max(1, Math.min(screenSeeds, seeds));
    }

    /** This request with another {@code --max-false-per-day}. */
    public TuneRequest withMaxFalsePerDay(double perDay) {
        return toBuilder().maxFalsePerDay(perDay).build();
    }

    /** Where the current settings came from, in words: the file, or whose defaults. */
    public String sourceLabel() {
        return source != null ? source : target.defaultsLabel();
    }

    /** The current settings as a candidate of the search: the gateway's own, else the Envoy fields. */
    /** A setting written as the target's file for this cluster (its name, hosts, release and current file). */
    public Target.Written write(Setting s) {
        return target.write(s, name, hosts, current, currentPanicPercent, currentProfile, envoyVersion);
    }

    public Setting currentSetting() {
        return currentProfile.setting() != null ? currentProfile.setting() : Setting.of(current);
    }

    /** The default most hosts out at once: a third of the cluster, at least one. */
    public static int defaultMaxEjected(int hosts) {
        return Math.max(1, hosts / 3);
    }

    /** Requests per second one caller sends to the whole cluster. */
    public long rpsPerCaller() {
        return Math.max(1, rps / clients);
    }

    /** Requests one host gets from one caller in an interval of {@code intervalNanos}. */
    public long perHostPerInterval(long intervalNanos) {
        return (long) Math.floor(rpsPerCaller() * (intervalNanos / 1e9) / hosts);
    }

    /** A builder for an Envoy target ({@link RunProfile#ENVOY}) without health checks or notes that allows no false ejection on any seed. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this one. */
    public Builder toBuilder() {
        return new Builder()
                .name(name)
                .source(source)
                .hosts(hosts)
                .rps(rps)
                .clients(clients)
                .target(target)
                .envoyVersion(envoyVersion)
                .current(current)
                .currentPanicPercent(currentPanicPercent)
                .suite(suite)
                .screenSeeds(screenSeeds)
                .seeds(seeds)
                .maxEjected(maxEjected)
                .baseErrorPpm(baseErrorPpm)
                .threads(threads)
                .currentProfile(currentProfile)
                .healthChecks(healthChecks)
                .notes(notes)
                .maxFalsePerDay(maxFalsePerDay)
                .maxAddedPerThousand(maxAddedPerThousand);
    }

    /** Collects the fields by name instead of by position; {@link #build()} validates them as the constructor does. */
    public static final class Builder {
        private String name;
        private String source;
        private int hosts;
        private long rps;
        private int clients;
        private Target target;
        private EnvoyVersion envoyVersion;
        private OutlierDetectionConfig current;
        private double currentPanicPercent;
        private List<SuiteScenario> suite;
        private int screenSeeds;
        private int seeds;
        private int maxEjected;
        private long baseErrorPpm;
        private int threads;
        private RunProfile currentProfile = RunProfile.ENVOY;
        private HealthCheckSpec healthChecks;
        private List<String> notes = List.of();
        private double maxFalsePerDay;
        private double maxAddedPerThousand = Evaluation.DEFAULT_MAX_ADDED_PER_THOUSAND;

        private Builder() {}

        public Builder name(String value) {
            name = value;
            return this;
        }

        /** Where the current settings came from (null: the target's defaults). */
        public Builder source(String value) {
            source = value;
            return this;
        }

        public Builder hosts(int value) {
            hosts = value;
            return this;
        }

        public Builder rps(long value) {
            rps = value;
            return this;
        }

        public Builder clients(int value) {
            clients = value;
            return this;
        }

        public Builder target(Target value) {
            target = value;
            return this;
        }

        public Builder envoyVersion(EnvoyVersion value) {
            envoyVersion = value;
            return this;
        }

        public Builder current(OutlierDetectionConfig value) {
            current = value;
            return this;
        }

        public Builder currentPanicPercent(double value) {
            currentPanicPercent = value;
            return this;
        }

        public Builder suite(List<SuiteScenario> value) {
            suite = value;
            return this;
        }

        public Builder screenSeeds(int value) {
            screenSeeds = value;
            return this;
        }

        public Builder seeds(int value) {
            seeds = value;
            return this;
        }

        public Builder maxEjected(int value) {
            maxEjected = value;
            return this;
        }

        public Builder baseErrorPpm(long value) {
            baseErrorPpm = value;
            return this;
        }

        public Builder threads(int value) {
            threads = value;
            return this;
        }

        public Builder currentProfile(RunProfile value) {
            currentProfile = value;
            return this;
        }

        public Builder healthChecks(HealthCheckSpec value) {
            healthChecks = value;
            return this;
        }

        public Builder notes(List<String> value) {
            notes = value;
            return this;
        }

        public Builder maxAddedPerThousand(double value) {
            maxAddedPerThousand = value;
            return this;
        }

        public Builder maxFalsePerDay(double value) {
            maxFalsePerDay = value;
            return this;
        }

        public TuneRequest build() {
            return new TuneRequest(
                    name,
                    source,
                    hosts,
                    rps,
                    clients,
                    target,
                    envoyVersion,
                    current,
                    currentPanicPercent,
                    suite,
                    screenSeeds,
                    seeds,
                    maxEjected,
                    baseErrorPpm,
                    threads,
                    currentProfile,
                    healthChecks,
                    notes,
                    maxFalsePerDay,
                    maxAddedPerThousand);
        }
    }
}
