package dev.outlierlab.live.httpclient;

import java.util.concurrent.atomic.LongAdder;

/**
 * The {@link ReverseProxy}'s own counts, apart from the pool's: requests it refused (foreign Host or Origin,
 * malformed, whether its HTTP server's parser refused the head or body or the proxy's guard refused a method or
 * a header value, over a client's share, no worker free, body too large), connections it closed at once (over a
 * client's share of connections, or the total), and its own failures (its byte bound, its
 * memory, an internal error), which are never recorded against an upstream; rendered in {@code /stats} with
 * the stage records lost and the answer bytes held.
 */
public final class ProxyCounters {
    final LongAdder foreign = new LongAdder();
    final LongAdder malformed = new LongAdder();
    final LongAdder clientLimit = new LongAdder();
    final LongAdder busy = new LongAdder();
    final LongAdder bodyTooLarge = new LongAdder();
    final LongAdder ownFailures = new LongAdder();

    public long foreign() {
        return foreign.sum();
    }

    public long malformed() {
        return malformed.sum();
    }

    public long ownFailures() {
        return ownFailures.sum();
    }

    String render(
            String pool,
            long stageRecordsLost,
            ByteBudget budget,
            long connectionsRefused,
            long connectionsEvicted,
            long malformedHeads) {
        String p = "pool=" + StageLog.quote(pool);
        StringBuilder sb = new StringBuilder(1024);
        sb.append("# HELP outlier_lab_proxy_refused requests the proxy answered itself, by reason, and connections it "
                        + "closed as soon as they were accepted (reason connections: their client, or all, had as many open "
                        + "as allowed) or closed to make room at the total (reason longest_waiting: the connection that had "
                        + "waited longest for its request)\n")
                .append("# TYPE outlier_lab_proxy_refused counter\n");
        refused(sb, p, "foreign_host_or_origin", foreign);
        sb.append("outlier_lab_proxy_refused{")
                .append(p)
                .append(",reason=\"malformed\"} ")
                .append(malformed.sum() + malformedHeads)
                .append('\n');
        refused(sb, p, "client_limit", clientLimit);
        refused(sb, p, "busy", busy);
        refused(sb, p, "body_too_large", bodyTooLarge);
        sb.append("outlier_lab_proxy_refused{")
                .append(p)
                .append(",reason=\"connections\"} ")
                .append(connectionsRefused)
                .append('\n');
        sb.append("outlier_lab_proxy_refused{")
                .append(p)
                .append(",reason=\"longest_waiting\"} ")
                .append(connectionsEvicted)
                .append('\n');
        sb.append("# HELP outlier_lab_proxy_own_failures requests failed by the proxy's own limits or errors, "
                        + "recorded against no upstream\n# TYPE outlier_lab_proxy_own_failures counter\n")
                .append("outlier_lab_proxy_own_failures{")
                .append(p)
                .append("} ")
                .append(ownFailures.sum())
                .append('\n');
        sb.append("# HELP outlier_lab_proxy_stage_records_lost stage records that could not be written to --stages\n"
                        + "# TYPE outlier_lab_proxy_stage_records_lost counter\n")
                .append("outlier_lab_proxy_stage_records_lost{")
                .append(p)
                .append("} ")
                .append(stageRecordsLost)
                .append('\n');
        sb.append("# HELP outlier_lab_proxy_answer_bytes_held bytes of upstream answers held now\n"
                        + "# TYPE outlier_lab_proxy_answer_bytes_held gauge\n")
                .append("outlier_lab_proxy_answer_bytes_held{")
                .append(p)
                .append("} ")
                .append(budget.held())
                .append('\n');
        return sb.toString();
    }

    private static void refused(StringBuilder sb, String p, String reason, LongAdder n) {
        sb.append("outlier_lab_proxy_refused{")
                .append(p)
                .append(",reason=\"")
                .append(reason)
                .append("\"} ")
                .append(n.sum())
                .append('\n');
    }
}
