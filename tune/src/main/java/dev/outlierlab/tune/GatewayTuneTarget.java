package dev.outlierlab.tune;

import dev.outlierlab.check.CheckTarget;
import dev.outlierlab.check.FixStyle;
import dev.outlierlab.check.GatewayTarget;
import dev.outlierlab.engine.envoy.EnvoyVersion;
import dev.outlierlab.engine.envoy.OutlierDetectionConfig;
import dev.outlierlab.engine.gateway.GatewayConfig;
import dev.outlierlab.engine.gateway.RoutingConfig;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A gateway configuration: the gateway profile's own settings ({@code GatewayDetector}), written as a top-level
 * {@code gateway:} and {@code routing:} section and read back as {@code check} reads it; the search keeps the current
 * routing. Runs on the gateway's simulation, one process per caller; it has no cap and no health checker.
 */
public final class GatewayTuneTarget implements Target {
    public static final GatewayTuneTarget INSTANCE = new GatewayTuneTarget();

    private static final Set<Can> CAN = Set.copyOf(EnumSet.of(Can.CONSECUTIVE, Can.TURN_OFF_CONSECUTIVE));

    private GatewayTuneTarget() {}

    @Override
    public String flag() {
        return "gateway";
    }

    @Override
    public String description() {
        return "a gateway configuration";
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
        RoutingConfig routing = current instanceof GatewayRun g ? g.routing() : RoutingConfig.defaults();
        String text = ProfileFiles.gatewayConfig(s.gateway(), hosts, routing);
        CheckTarget read = ProfileFiles.readGateway(text, "tune:gateway");
        return new Written(
                text,
                OutlierDetectionConfig.defaults(),
                0,
                new GatewayRun(read.gateway().gateway(), read.gateway().routing()));
    }

    /** The {@code gateway:} block as written and read back. */
    @Override
    public Map<String, Object> fields(Setting s, Written written) {
        return ProfileFiles.gatewayFields(written.profile() instanceof GatewayRun g ? g.gateway() : s.gateway());
    }

    @Override
    public CurrentSettings defaults(String name, int hosts) {
        return new CurrentSettings(
                name,
                null,
                this,
                OutlierDetectionConfig.defaults(),
                0,
                null,
                null,
                null,
                new GatewayRun(GatewayConfig.defaults(), RoutingConfig.defaults()),
                null);
    }

    @Override
    public boolean tunes(FixStyle style) {
        return style == FixStyle.GATEWAY;
    }

    @Override
    public CurrentSettings read(CheckTarget t, String source) {
        GatewayTarget g = t.gateway();
        return new CurrentSettings(
                t.name(),
                source,
                this,
                OutlierDetectionConfig.defaults(),
                0,
                t.hosts(),
                null,
                null,
                new GatewayRun(g.gateway(), g.routing()),
                null);
    }

    @Override
    public String ownSettingsHint() {
        return " (the gateway profile's settings come from a gateway configuration, or its defaults without --from)";
    }

    @Override
    public String defaultsLabel() {
        return "the gateway profile's defaults";
    }

    @Override
    public String engineLabel(EnvoyVersion version) {
        return "(gateway profile)";
    }

    @Override
    public String healthChecksNotRun() {
        return "the gateway profile has no health checker";
    }

    @Override
    public List<Setting> candidates(TuneRequest req) {
        return SearchSpace.gatewayCandidates(req, gateway(req));
    }

    @Override
    public List<String> detectors(TuneRequest req) {
        return GatewayWords.detectors(gateway(req), req.hosts(), req.rpsPerCaller());
    }

    @Override
    public List<String> changes(Setting a, Setting b, int hosts) {
        return GatewayWords.changes(a.gateway(), b.gateway(), hosts);
    }

    private static GatewayConfig gateway(TuneRequest req) {
        return ((GatewayRun) req.currentProfile()).gateway();
    }

    @Override
    public String toString() {
        return flag();
    }
}
