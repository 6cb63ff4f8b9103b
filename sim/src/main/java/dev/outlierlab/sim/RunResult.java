package dev.outlierlab.sim;

import dev.outlierlab.engine.envoy.event.DegradationEvent;
import dev.outlierlab.engine.envoy.event.IntervalEvaluation;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.sim.scenario.Scenario;
import dev.outlierlab.sim.signals.SignalSeries;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one run, plain data for any renderer: the scenario as run, the summary, Envoy's
 * statistics by name, every decision in time order, and the series the charts need.
 *
 * @param events     the decisions in time order: all of them, or the first {@link RunOptions#keepEvents()}
 * @param intervals  one entry per tick (and per origin in split mode), or empty when the run was not asked to keep them
 * @param hosts      each host's requests and failures from synthetic traffic, in host order (zeros for a trace)
 * @param signals    the operators' signals per second (membership, ejections, failures, panic), or null
 * @param eventCount how many decisions the run made, kept or not
 * @param eventHostWidth the longest host name among all the decisions, kept or not (for a table's column)
 * @param eventClients the caller of each kept event, in the same order, with several callers; empty with one
 * @param degradations the hosts marked degraded and cleared ({@code detect_degraded_hosts}, Envoy 1.38), caller 0's,
 *                     in time order; empty without it
 * @param degradationPositions for each of them, how many of {@code events} came before it (the order of the two
 *                     lists together, as an event log interleaves them)
 */
public record RunResult(
        Scenario scenario,
        RunSummary summary,
        Map<String, Long> stats,
        List<OutlierEvent> events,
        List<IntervalEvaluation> intervals,
        List<PanicWindow> panicWindows,
        TimeSeries series,
        List<HostTally> hosts,
        SignalSeries signals,
        long eventCount,
        int eventHostWidth,
        List<Integer> eventClients,
        List<DegradationEvent> degradations,
        List<Integer> degradationPositions) {

    /** The caller (from 0) of the kept event at {@code index}. */
    public int clientOf(int index) {
        return eventClients.isEmpty() ? 0 : eventClients.get(index);
    }

    /** How many callers the run had. */
    public int clients() {
        return scenario.traffic().clients();
    }
}
