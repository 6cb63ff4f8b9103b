package dev.outlierlab.flink;

import dev.outlierlab.check.FixAdvice;
import dev.outlierlab.cli.ReplayCommand;
import dev.outlierlab.sim.scenario.Scenario;
import java.io.Serializable;
import java.util.List;

/**
 * The replay's settings and rendering as plain values that the job ships to its workers: each setting's scenario
 * ({@link ShippedScenario}), whether it names the hosts, the duration, and what each detector's section needs.
 *
 * @param outputDirectory where each detector's decisions go ({@code --output-dir}), or null
 * @param eventLogs       also each detector's decisions as Envoy's outlier event log
 * @param shippedAdvice   how fixes are said (the fields of the input the settings came from)
 */
record FleetSettings(
        ShippedScenario firstScenario,
        boolean firstHostsGiven,
        ShippedScenario secondScenario,
        boolean secondHostsGiven,
        Long durationNanos,
        List<String> logs,
        String formatName,
        String compareLabel,
        List<String> compareSets,
        String compareFile,
        int maxEvents,
        boolean json,
        String outputDirectory,
        boolean eventLogs,
        ShippedAdvice shippedAdvice)
        implements Serializable {

    static FleetSettings of(ReplayCommand.FleetRequest r, String outputDirectory, boolean eventLogs) {
        return new FleetSettings(
                ShippedScenario.of(r.first()),
                r.firstHostsGiven(),
                r.second() == null ? null : ShippedScenario.of(r.second()),
                r.secondHostsGiven(),
                r.durationNanos(),
                r.logs(),
                r.settings().format().name(),
                r.compareLabel(),
                r.compareSets(),
                r.compareFile(),
                r.maxEvents(),
                r.json(),
                outputDirectory,
                eventLogs,
                ShippedAdvice.of(r.advice()));
    }

    Scenario first() {
        return firstScenario.scenario();
    }

    /** How fixes are said: Envoy's fields, or those of the DestinationRule under --istio. */
    FixAdvice advice() {
        return shippedAdvice.advice();
    }

    /** The second settings, or null. */
    Scenario second() {
        return secondScenario == null ? null : secondScenario.scenario();
    }
}
