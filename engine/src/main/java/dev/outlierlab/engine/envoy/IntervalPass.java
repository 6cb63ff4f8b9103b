package dev.outlierlab.engine.envoy;

import dev.outlierlab.engine.envoy.detect.FailurePercentageDetector;
import dev.outlierlab.engine.envoy.detect.SuccessRateDetector;
import dev.outlierlab.engine.envoy.event.DetectionEvidence;
import dev.outlierlab.engine.envoy.event.DetectorListener;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.FailurePercentageEvidence;
import dev.outlierlab.engine.envoy.event.HostSample;
import dev.outlierlab.engine.envoy.event.IntervalEvaluation;
import dev.outlierlab.engine.envoy.event.OrderNote;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import dev.outlierlab.engine.envoy.event.SuccessRateEvidence;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The interval timer's detection pass of an {@link OutlierDetector} for one origin (external, or local in split mode):
 * success rate and failure percentage over the hosts' buckets of the interval just ended, their outliers offered to
 * the detector's cap, enforcing draw and ejection, the pass's events emitted together with an {@link OrderNote} where
 * Envoy's host order could have decided differently. Envoy's {@code DetectorImpl::processSuccessRateEjections}
 * (source/common/upstream/outlier_detection_impl.cc).
 */
final class IntervalPass {
    /** The detector's offer of one detected outlier: the cap, the enforcing draw, the ejection; the event. */
    interface Offer {
        OutlierEvent offer(HostMonitor host, EjectionType type, DetectionEvidence evidence, long nowNanos);
    }

    private final OutlierDetectionConfig config;
    private final OutlierStats stats;
    private final DetectorListener listener;
    private final List<HostMonitor> hosts;
    private final Offer offer;

    /** A pass over {@code hosts} (the detector's own list, read at each pass). */
    IntervalPass(
            OutlierDetectionConfig config,
            OutlierStats stats,
            DetectorListener listener,
            List<HostMonitor> hosts,
            Offer offer) {
        this.config = config;
        this.stats = stats;
        this.listener = listener;
        this.hosts = hosts;
        this.offer = offer;
    }

    /**
     * Envoy's {@code processSuccessRateEjections} for one origin: one pass over the hosts not ejected builds both
     * the success-rate and the failure-percentage lists, before any ejection; then success rate offers its
     * outliers, then failure percentage offers its own from its list, including a host success rate has just
     * ejected (Envoy has no already-ejected check there: the second offer meets the cap and, if admitted and
     * enforced, ejects the host a second time). The pass's events are emitted together at its end, each with an
     * {@link OrderNote} where Envoy's host order could have decided differently.
     */
    void evaluate(Origin origin, long nowNanos, boolean detect) {
        List<HostMonitor> srHosts = new ArrayList<>();
        List<Double> srRates = new ArrayList<>();
        List<HostMonitor> fpHosts = new ArrayList<>();
        List<HostSample> samples = listener.wantsIntervals() ? new ArrayList<>() : null;
        for (HostMonitor host : hosts) {
            if (host.isEjected()) {
                continue;
            }
            SuccessRateAccumulator acc = host.successRate(origin);
            if (samples != null && acc.judgedRequests() > 0) {
                samples.add(new HostSample(
                        host.name(), acc.judgedRequests(), acc.judgedSuccesses(), acc.judgedSuccessRatePercent()));
            }
            if (SuccessRateDetector.hasVolume(acc.judgedRequests(), config.successRateRequestVolume())) {
                srHosts.add(host);
                srRates.add(acc.judgedSuccessRatePercent());
            }
            if (FailurePercentageDetector.hasVolume(acc.judgedRequests(), config.failurePercentageRequestVolume())) {
                fpHosts.add(host);
            }
        }
        List<OutlierEvent> pass = new ArrayList<>();
        List<String> borderline = new ArrayList<>();
        SuccessRateDetector.Threshold threshold = null;
        if (detect && SuccessRateDetector.enoughHosts(srHosts.size(), config.successRateMinimumHosts())) {
            threshold = SuccessRateDetector.threshold(srRates, config.successRateStdevFactor());
            EjectionType type = EjectionType.successRate(origin);
            for (int i = 0; i < srHosts.size(); i++) {
                double rate = srRates.get(i);
                HostMonitor host = srHosts.get(i);
                if (SuccessRateDetector.isBorderline(rate, threshold)) {
                    borderline.add(host.name());
                }
                if (SuccessRateDetector.isOutlier(rate, threshold)) {
                    stats.incDeprecatedSuccessRate();
                    SuccessRateEvidence evidence = new SuccessRateEvidence(
                            rate,
                            host.successRate(origin).judgedRequests(),
                            threshold.mean(),
                            threshold.stdev(),
                            config.successRateStdevFactor(),
                            threshold.threshold(),
                            srHosts.size());
                    pass.add(offer.offer(host, type, evidence, nowNanos));
                }
            }
        }
        boolean fpRan =
                detect && FailurePercentageDetector.enoughHosts(fpHosts.size(), config.failurePercentageMinimumHosts());
        if (fpRan) {
            EjectionType type = EjectionType.failurePercentage(origin);
            for (HostMonitor host : fpHosts) {
                SuccessRateAccumulator acc = host.successRate(origin);
                double rate = acc.judgedSuccessRatePercent();
                if (FailurePercentageDetector.isOutlier(rate, config.failurePercentageThreshold())) {
                    pass.add(offer.offer(
                            host,
                            type,
                            new FailurePercentageEvidence(
                                    FailurePercentageDetector.failurePercent(rate),
                                    acc.judgedRequests(),
                                    config.failurePercentageThreshold(),
                                    fpHosts.size()),
                            nowNanos));
                }
            }
        }
        emitPass(pass, borderline);
        if (samples != null) {
            listener.onInterval(new IntervalEvaluation(
                    nowNanos,
                    origin,
                    List.copyOf(samples),
                    threshold != null,
                    threshold == null ? Double.NaN : threshold.mean(),
                    threshold == null ? Double.NaN : threshold.stdev(),
                    threshold == null ? Double.NaN : threshold.threshold(),
                    fpRan));
        }
    }

    /**
     * Emits one pass's events. Where the cap admitted some of its outliers and refused others, Envoy's unspecified
     * host order decides which go; where a success rate lies within rounding of the threshold, Envoy's order of
     * summing decides whether it is an outlier: such events carry an {@link OrderNote}.
     */
    private void emitPass(List<OutlierEvent> pass, List<String> borderline) {
        Set<String> ejected = new LinkedHashSet<>();
        Set<String> refused = new LinkedHashSet<>();
        for (OutlierEvent e : pass) {
            if (e.action() == EventAction.EJECT) {
                ejected.add(e.host());
            } else if (e.action() == EventAction.OVERFLOW) {
                refused.add(e.host());
            }
        }
        refused.removeAll(ejected);
        List<String> contenders = new ArrayList<>();
        if (!ejected.isEmpty() && !refused.isEmpty()) {
            contenders.addAll(ejected);
            contenders.addAll(refused);
        }
        for (OutlierEvent e : pass) {
            boolean contended = contenders.contains(e.host());
            boolean sr = e.type() == EjectionType.SUCCESS_RATE || e.type() == EjectionType.SUCCESS_RATE_LOCAL_ORIGIN;
            if (contended || (sr && !borderline.isEmpty())) {
                e = e.withOrderNote(new OrderNote(contended ? contenders : List.of(), sr ? borderline : List.of()));
            }
            listener.onEvent(e);
        }
    }
}
