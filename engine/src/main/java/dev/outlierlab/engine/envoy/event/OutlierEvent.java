package dev.outlierlab.engine.envoy.event;

import dev.outlierlab.engine.envoy.EjectionType;

/**
 * One decision of the detector, with the numbers behind it. For {@link EventAction#UNEJECT} the type,
 * evidence, cap and enforcement are null and {@code uneject} says why; for {@link EventAction#OVERFLOW}
 * enforcement and ejection are null; for {@link EventAction#UNENFORCED} ejection is null.
 *
 * @param timeNanos     simulated time of the decision
 * @param host          the host's name
 * @param action        what happened
 * @param type          the detector that found the host (null for returns)
 * @param evidence      what that detector saw
 * @param cap           the ejection cap's arithmetic
 * @param enforcement   the enforcing draw
 * @param ejection      how long the host is out (for ejections)
 * @param uneject       why the host came back (for returns)
 * @param outForNanos   for returns: how long the host was out
 * @param numEjections  the host's ejection count after this event (Envoy's {@code num_ejections})
 * @param alreadyEjected for offers: the host was already ejected when offered, by success rate earlier in the same
 *                      tick (Envoy's failure-percentage pass has no already-ejected check)
 * @param orderNote     where Envoy's unspecified host order could have decided this differently, or null
 */
public record OutlierEvent(
        long timeNanos,
        String host,
        EventAction action,
        EjectionType type,
        DetectionEvidence evidence,
        CapCheck cap,
        Enforcement enforcement,
        EjectionTime ejection,
        UnejectReason uneject,
        long outForNanos,
        long numEjections,
        boolean alreadyEjected,
        OrderNote orderNote) {

    /** The same event with an order note. */
    public OutlierEvent withOrderNote(OrderNote note) {
        return new OutlierEvent(
                timeNanos,
                host,
                action,
                type,
                evidence,
                cap,
                enforcement,
                ejection,
                uneject,
                outForNanos,
                numEjections,
                alreadyEjected,
                note);
    }
}
