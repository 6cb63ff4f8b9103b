package dev.outlierlab.report.eventlog;

import java.util.List;

/**
 * An event log read beside a replay and what each detector's comparison found.
 *
 * @param log      the event log as read
 * @param clusters the clusters it names
 * @param results  one comparison per replayed detector (null entries for none)
 */
public record ComparedEventLog(
        EventLogReader.EventLog log, List<String> clusters, List<EventLogComparison.Result> results) {}
