package dev.outlierlab.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.outlierlab.config.scenario.ScenarioReader;
import dev.outlierlab.report.Numbers;
import dev.outlierlab.report.ResultJson;
import dev.outlierlab.sim.RunResult;
import dev.outlierlab.sim.RunSummary;
import dev.outlierlab.sim.RunWatcher;
import dev.outlierlab.sim.WorkEstimate;
import dev.outlierlab.sim.gateway.GatewayWorkEstimate;
import java.util.List;

/**
 * A profile's facet in {@code sweep}: the columns of its table, the work of one run (for the work limit and the
 * progress bar) and one run's figures in column order with its summary as JSON.
 */
public interface SweepRows {
    /** The columns of Envoy's and every profile's run that reduces to a {@link RunSummary}. */
    List<String> RUN_SUMMARY_COLUMNS = List.of(
            "detected",
            "ejected",
            "cap refused",
            "not enforced",
            "most out",
            "failed %",
            "failed % in fault",
            "panic s");

    /** One run's work: the lab simulator's and the gateway simulator's (one of them zero). */
    record Work(WorkEstimate lab, GatewayWorkEstimate gateway) {
        public Work plus(Work other) {
            return new Work(lab.plus(other.lab), gateway.plus(other.gateway));
        }
    }

    /** One run's figures in column order and its summary. */
    record Row(List<String> figures, ObjectNode summary) {
        /**
         * The row of a run that reduces to a {@link RunSummary}, in {@link #RUN_SUMMARY_COLUMNS}, its summary naming
         * the profile as the run's own JSON does.
         */
        public static Row of(String profile, RunResult result) {
            RunSummary s = result.summary();
            ObjectNode summary = ResultJson.summaryTree(result);
            summary.put("profile", profile);
            return new Row(
                    List.of(
                            Long.toString(s.ejectionsDetected()),
                            Long.toString(s.ejectionsEnforced()),
                            Long.toString(s.ejectionsOverflow()),
                            Long.toString(s.ejectionsUnenforced()),
                            Integer.toString(s.maxEjectedAtOnce()),
                            Numbers.two(s.failedPercent()),
                            Numbers.two(s.failedPercentDuringFault()),
                            Numbers.one(s.panicSeconds())),
                    summary);
        }
    }

    List<String> columns();

    /** The run's work; may refuse a run too large to keep in memory. */
    Work work(ScenarioReader.Profiled resolved);

    Row run(ScenarioReader.Profiled resolved, RunWatcher watcher);
}
