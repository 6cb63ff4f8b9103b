package dev.outlierlab.cli;

import dev.outlierlab.config.InputException;
import dev.outlierlab.config.grpc.GrpcSettings;
import dev.outlierlab.config.grpc.ServiceConfigReader;
import dev.outlierlab.config.grpc.XdsNotes;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.grpc.GrpcImplementation;
import dev.outlierlab.engine.profile.Capability;
import dev.outlierlab.engine.profile.Profiles;
import dev.outlierlab.report.ProfileComparison;
import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.sim.scenario.Scenario;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code run} under the gRPC profile, and {@code run --profile envoy,grpc[,gateway]}: the same scenario's traffic and
 * faults under each profile, then one comparison table. gRPC's settings come from {@code --service-config FILE},
 * else from {@code --envoy FILE} or the scenario's {@code outlier_detection} read as gRPC's xDS client maps it,
 * else from the scenario's {@code grpc:} block; the gateway profile takes its defaults over the scenario's hosts.
 */
final class ProfileRun {
    private ProfileRun() {}

    /**
     * Refuses what a run of other profiles than the scenario's does not take: a scenario that cannot be the base of a
     * comparison, the files of one Envoy run ({@code filesOfOneRun}), {@code --profile envoy} alone, and gRPC's
     * settings without grpc among the profiles.
     */
    static void refuse(
            ScenarioReader.Profiled profiled, List<String> profiles, boolean grpcSettings, boolean filesOfOneRun) {
        if (!profiled.profile().capabilities().contains(Capability.COMPARISON_BASE)) {
            throw new InputException("--profile, --service-config and --grpc-implementation take a profile: "
                    + Profiles.orList(Profiles.all().stream()
                            .filter(p -> p.can(Capability.COMPARISON_BASE))
                            .map(p -> "profile: " + p.name())
                            .toList())
                    + " scenario; this scenario's profile is " + profiled.name());
        }
        if (filesOfOneRun) {
            throw new InputException(
                    "--trace-in, --access-log, --event-log, --stats, --series and --stages are for one "
                            + "run of profile envoy (or gateway); leave them out with --profile or a profile: grpc scenario");
        }
        if (profiles.size() == 1
                && Profiles.find(profiles.get(0))
                        .flatMap(p -> p.facet(ProfileRunner.class))
                        .isEmpty()) {
            String alone = profiles.get(0);
            List<String> others = Profiles.withFacet(ComparisonColumn.class).stream()
                    .filter(p -> p.facet(ProfileRunner.class).isPresent())
                    .map(Profiles.Registered::name)
                    .toList();
            throw new InputException("--profile " + alone + ": a profile: " + alone + " scenario runs under " + alone
                    + " without --profile; alone, --profile takes " + Profiles.orList(others)
                    + "; to compare, join several by commas, such as " + alone + "," + others.get(0));
        }
        if (grpcSettings
                && profiles.stream()
                        .noneMatch(p -> Profiles.find(p)
                                .map(r -> r.can(Capability.SERVICE_CONFIG))
                                .orElse(false))) {
            throw new InputException("--service-config and --grpc-implementation are gRPC's; add "
                    + Profiles.namesThatCan(Capability.SERVICE_CONFIG) + " to --profile");
        }
    }

    /**
     * The profile that takes gRPC's settings ({@link Capability#SERVICE_CONFIG}): the one a run given them without
     * {@code --profile} runs under, and the one their scenario is given as.
     */
    static Profiles.Registered serviceConfigProfile() {
        return Profiles.all().stream()
                .filter(p -> p.can(Capability.SERVICE_CONFIG))
                .findFirst()
                .orElseThrow();
    }

    /** The profiles named by {@code --profile} (comma-separated), in order, each once. */
    static List<String> profiles(String option) {
        Set<String> out = new LinkedHashSet<>();
        for (String p : option.split(",", -1)) {
            String name = p.trim();
            if (Profiles.find(name)
                    .flatMap(r -> r.facet(ComparisonColumn.class))
                    .isEmpty()) {
                throw new InputException("--profile: \"" + option + "\" is not allowed; expected "
                        + Profiles.namesWith(ComparisonColumn.class)
                        + ", or several joined by commas, such as envoy,grpc");
            }
            out.add(name);
        }
        return List.copyOf(out);
    }

    /** The gRPC settings this run uses (see the class comment), for a scenario whose cluster is already applied. */
    static GrpcSettings settings(
            ScenarioReader.Profiled profiled,
            ScenarioReader.Loaded loaded,
            Path serviceConfig,
            String implementationOption,
            String envoyCluster) {
        GrpcImplementation impl = implementationOption != null
                ? parseImplementation(implementationOption)
                : profiled.grpc() != null ? profiled.grpc().config().implementation() : GrpcImplementation.JAVA;
        GrpcSettings settings;
        if (serviceConfig != null) {
            settings = ServiceConfigReader.read(InputFiles.readText(serviceConfig), serviceConfig.toString(), impl);
        } else if (envoyCluster != null || profiled.grpc() == null) {
            String origin = envoyCluster != null
                    ? "Envoy cluster " + envoyCluster + ", as gRPC's xDS client maps it"
                    : "outlier_detection, as gRPC's xDS client maps it";
            try {
                settings = XdsNotes.settings(loaded.scenario().outlierDetection(), impl, origin);
            } catch (InvalidConfigException e) {
                throw new InputException(e.getMessage());
            }
        } else {
            settings = profiled.grpc().withConfig(profiled.grpc().config().withImplementation(impl));
        }
        if (loaded.scenario().healthChecks() != null) {
            List<String> notes = new ArrayList<>(settings.notes());
            notes.add("health_checks are not run: gRPC's outlier detection has no health-check return");
            settings = new GrpcSettings(settings.config(), settings.origin(), notes);
        }
        return settings;
    }

    private static GrpcImplementation parseImplementation(String text) {
        try {
            return GrpcImplementation.parse("--grpc-implementation", text);
        } catch (InvalidConfigException e) {
            throw new InputException(e.getMessage());
        }
    }

    /** The scenario under each profile, then the table. */
    static String compare(List<String> profiles, ScenarioReader.Profiled given, WorkOptions work) {
        Scenario scenario = given.envoy().scenario();
        work.check(WorkEstimate.of(scenario), "this comparison (per profile)");
        List<ProfileComparison.Column> columns = new ArrayList<>();
        StringBuilder out = new StringBuilder();
        out.append("outlier-lab run: ")
                .append(scenario.name())
                .append(" under ")
                .append(String.join(", ", profiles))
                .append(" (the same traffic and faults)\n\n");
        for (String p : profiles) {
            ComparisonColumn column =
                    Profiles.find(p).orElseThrow().facet(ComparisonColumn.class).orElseThrow();
            columns.add(column.column(given));
        }
        out.append(ProfileComparison.text(columns));
        for (Profiles.Registered p : Profiles.withFacet(ComparisonColumn.class)) {
            if (profiles.contains(p.name())) {
                p.facet(ComparisonColumn.class).orElseThrow().notes(given).forEach(out::append);
            }
        }
        return out.toString();
    }
}
