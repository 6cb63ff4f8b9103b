package dev.outlierlab.live;

import dev.outlierlab.engine.EndpointSlots;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The pool's members in the order of an engine detector that knows endpoints by position (the gateway's
 * {@code GatewayDetector} and gRPC's {@code GrpcDetector}, whose {@code addEndpoint} appends and whose
 * {@code removeEndpoint} moves the later ones down): index i here is endpoint i there, each member's id finds its
 * index, and each member keeps the time of its last return (-1 before one) and the ejections the pool counted for
 * it (the gateway's; gRPC's detector counts its own). Used under the pool's lock, like the detector.
 */
final class DetectorMembers {
    private final List<Endpoint> members = new ArrayList<>();
    private int[] indexById = new int[16];
    private long[] lastReturnNanos = new long[0];
    private long[] ejections = new long[0];

    /** Adds {@code endpoint} as the detector's endpoint {@code index} (the end of its order). */
    void add(Endpoint endpoint, int index) {
        members.add(endpoint);
        if (endpoint.id() >= indexById.length) {
            indexById = Arrays.copyOf(indexById, Math.max(indexById.length * 2, endpoint.id() + 1));
        }
        indexById[endpoint.id()] = index;
        ejections = Arrays.copyOf(ejections, members.size());
        lastReturnNanos = Arrays.copyOf(lastReturnNanos, members.size());
        lastReturnNanos[index] = -1;
    }

    /** The member's index in the detector's order, or -1 if it is not a member. */
    int indexOf(Endpoint endpoint) {
        return members.indexOf(endpoint);
    }

    /** The index of the member called {@code name}, or -1. */
    int indexOf(String name) {
        for (int i = 0; i < members.size(); i++) {
            if (members.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Removes the member at {@code index}, as the detector's {@code removeEndpoint} does. */
    void removeAt(int index) {
        members.remove(index);
        for (int i = index; i < members.size(); i++) {
            indexById[members.get(i).id()] = i;
        }
        ejections = EndpointSlots.without(ejections, index);
        lastReturnNanos = EndpointSlots.without(lastReturnNanos, index);
    }

    /** A member's index in the detector's order. */
    int index(Endpoint endpoint) {
        return indexById[endpoint.id()];
    }

    Endpoint get(int index) {
        return members.get(index);
    }

    void ejected(int index) {
        ejections[index]++;
    }

    long ejections(int index) {
        return ejections[index];
    }

    void returned(int index, long nowNanos) {
        lastReturnNanos[index] = nowNanos;
    }

    long lastReturnNanos(int index) {
        return lastReturnNanos[index];
    }
}
