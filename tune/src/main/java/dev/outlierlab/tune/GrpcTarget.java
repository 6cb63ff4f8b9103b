package dev.outlierlab.tune;

import dev.outlierlab.check.CheckInputs;
import dev.outlierlab.check.FixStyle;
import dev.outlierlab.check.grpc.GrpcChecks;
import dev.outlierlab.config.InputException;
import dev.outlierlab.config.grpc.GrpcSettings;
import dev.outlierlab.config.grpc.ServiceConfigReader;
import dev.outlierlab.config.grpc.XdsNotes;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.grpc.GrpcImplementation;
import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A gRPC service config (grpc-java's {@code OutlierDetectionLoadBalancer}): success rate and failure percentage only,
 * the cap tested before each ejection so that the first is always allowed; written with grpc-java's key spellings and
 * read back by {@link ServiceConfigReader}; runs on the gRPC profile's simulation, one channel.
 */
public final class GrpcTarget implements Target {
    public static final GrpcTarget INSTANCE = new GrpcTarget();

    /** The service config's own fields ({@code successRateEjection.minimumHosts}, ...). */
    @Override
    public FixStyle fixStyle() {
        return FixStyle.GRPC;
    }

    private static final Set<Can> CAN = Set.copyOf(EnumSet.of(
            Can.TURN_OFF_CONSECUTIVE,
            Can.SUCCESS_RATE,
            Can.FAILURE_PERCENTAGE,
            Can.FAILURE_PERCENTAGE_VOLUME,
            Can.CAP_BEFORE_EJECTION,
            Can.CAP,
            Can.HEALTH_CHECK_ORACLE));

    private GrpcTarget() {}

    @Override
    public String flag() {
        return "grpc";
    }

    @Override
    public String description() {
        return "a gRPC service config (grpc-java)";
    }

    @Override
    public Set<Can> can() {
        return CAN;
    }

    @Override
    public Written write(
            Setting s,
            String name,
            int hosts,
            OutlierDetectionConfig base,
            double panicThresholdPercent,
            RunProfile current,
            EnvoyVersion version) {
        String text = ProfileFiles.serviceConfig(s);
        GrpcOutlierConfig read = ProfileFiles.readServiceConfig(text, "tune:grpc");
        return new Written(text, ProfileFiles.asEnvoyFields(read), 0, new GrpcRun(read));
    }

    /** The service config's {@code outlier_detection_experimental} config as read back, without its child policy. */
    @Override
    public Map<String, Object> fields(Setting s, Written written) {
        GrpcOutlierConfig c = written.profile() instanceof GrpcRun r
                ? r.config()
                : ProfileFiles.readServiceConfig(ProfileFiles.serviceConfig(s), "tune:grpc");
        return ProfileFiles.serviceConfigFields(c);
    }

    /**
     * A candidate's short label in the service config's field names: {@code successRateEjection=1900/100} (its
     * {@code stdevFactor} over its {@code requestVolume}, {@code off} when the block is absent),
     * {@code failurePercentageEjection=30/50} (its {@code threshold} over its {@code requestVolume}), then
     * {@code interval}, {@code baseEjectionTime} and {@code maxEjectionPercentage}.
     */
    @Override
    public String label(Setting s) {
        return label(s, Integer.MAX_VALUE);
    }

    /**
     * {@link #label(Setting)} on {@code hosts} endpoints: a detector that cannot run there because they are fewer than
     * its {@code minimumHosts} is labelled off with why, e.g. {@code successRateEjection=off (4 hosts < minimumHosts
     * 5)}, as Envoy's label says it (gRFC A50; grpc-java's {@code SuccessRateOutlierEjectionAlgorithm.ejectOutliers}
     * and {@code FailurePercentageOutlierEjectionAlgorithm.ejectOutliers} return when fewer than {@code minimumHosts}
     * addresses have the request volume, which fewer endpoints than that can never reach).
     */
    @Override
    public String label(Setting s, RunProfile profile, int hosts) {
        return label(s, hosts);
    }

    private static String label(Setting s, int hosts) {
        return "successRateEjection="
                + (s.successRateStdevFactor() <= 0
                        ? "off"
                        : hosts < s.successRateMinimumHosts()
                                ? "off " + Setting.tooFew(hosts, "minimumHosts", s.successRateMinimumHosts())
                                : s.successRateStdevFactor() + "/" + s.successRateRequestVolume())
                + " failurePercentageEjection="
                + (s.failurePercentageThreshold() <= 0
                        ? "off"
                        : hosts < s.failurePercentageMinimumHosts()
                                ? "off " + Setting.tooFew(hosts, "minimumHosts", s.failurePercentageMinimumHosts())
                                : s.failurePercentageThreshold() + "/" + s.failurePercentageRequestVolume())
                + " interval=" + ProfileFiles.protoDuration(s.intervalNanos()) + " baseEjectionTime="
                + ProfileFiles.protoDuration(s.baseEjectionTimeNanos()) + " maxEjectionPercentage="
                + s.maxEjectionPercent();
    }

    /** Envoy's defaults are what a gRPC client gets from an xDS cluster that sets no outlier-detection field. */
    @Override
    public String defaultsLabel() {
        return "Envoy's defaults, as gRPC's xDS client maps them";
    }

    @Override
    public String engineLabel(EnvoyVersion version) {
        return "(grpc-java)";
    }

    /** A service config: a JSON object with {@code loadBalancingConfig} or the policy. */
    @Override
    public CurrentSettings readOwn(String text, String source) {
        String t = text.strip();
        if (!t.startsWith("{")
                || !(t.contains("\"loadBalancingConfig\"") || t.contains("\"" + ServiceConfigReader.POLICY + "\""))) {
            return null;
        }
        GrpcOutlierConfig g =
                ServiceConfigReader.read(text, source, GrpcImplementation.JAVA).config();
        return new CurrentSettings(
                "service", source, this, ProfileFiles.asEnvoyFields(g), 0, null, null, null, new GrpcRun(g), null);
    }

    /** An Envoy cluster's outlier detection as gRPC's xDS client maps it (what gRPC ignores goes to the notes). */
    @Override
    public CurrentSettings adopt(CurrentSettings c, List<String> notes) {
        if (!c.target().can(Can.ENVOY_FIELDS)) {
            return null;
        }
        GrpcSettings g;
        try {
            g = XdsNotes.settings(
                    c.config(),
                    GrpcImplementation.JAVA,
                    (c.source() == null ? "Envoy's defaults" : c.source()) + ", as gRPC's xDS client maps it");
        } catch (InvalidConfigException e) {
            throw new InputException("--target grpc: " + e.getMessage());
        }
        notes.add("the current settings: " + g.origin());
        g.notes().forEach(n -> notes.add("note: " + n));
        return new CurrentSettings(
                c.name(),
                c.source(),
                this,
                ProfileFiles.asEnvoyFields(g.config()),
                0,
                c.hosts(),
                c.rps(),
                c.version(),
                new GrpcRun(g.config()),
                c.healthChecks());
    }

    @Override
    public String healthChecksNotRun() {
        return "gRPC's outlier detection has no health-check return";
    }

    /** The log's callers are channels: one channel's detector sees its share of the rate. */
    @Override
    public String oneCallerEach(int clients, long rate) {
        return "the log's " + clients + " callers are " + clients + " gRPC channels, each with its own outlier "
                + "detection: tuned for one channel's share, " + Math.max(1, rate / clients) + " rps";
    }

    @Override
    public String clientsRefused(int clients) {
        return "--clients: " + clients + " is not allowed with --target grpc; the gRPC profile runs "
                + "one channel (each channel has its own outlier detection: tune one channel's traffic, --rps "
                + "divided by the channels, with --clients 1)";
    }

    @Override
    public CheckInputs.Loaded check(String text) {
        return new CheckInputs.Loaded(
                List.of(),
                GrpcChecks.forServiceConfig(
                        ServiceConfigReader.read(text, "recommended", GrpcImplementation.JAVA), "recommended"));
    }

    @Override
    public String toString() {
        return flag();
    }
}
