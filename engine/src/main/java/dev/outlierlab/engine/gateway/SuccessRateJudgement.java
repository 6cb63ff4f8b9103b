package dev.outlierlab.engine.gateway;

/**
 * The statistical rule's numbers at one judgement (docs/gateway.md): the judged endpoint's
 * success rate and attempts in the window, and the mean, population standard deviation and threshold of
 * its peers' rates (percent), the number of endpoints scored and how many of them were peers.
 */
public record SuccessRateJudgement(
        double ratePercent,
        long attempts,
        long failures,
        double meanPercent,
        double stdevPercent,
        double thresholdPercent,
        int scored,
        int peers)
        implements GatewayEvidence {}
