package dev.outlierlab.engine.gateway;

import dev.outlierlab.engine.InvalidConfigException;
import java.util.Locale;

/**
 * Whom an endpoint is compared with (docs/gateway.md). {@code all}: the whole scored set, the
 * judged endpoint included (Envoy's and gRPC's convention; by Samuelson's inequality it can never fire with
 * two to four endpoints at factor 2). {@code others}: the other scored endpoints only (leave-one-out).
 */
public enum PeerSet {
    ALL,
    OTHERS;

    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The fewest peers the comparison needs: 2 with {@code all}, 1 with {@code others}. */
    public int minimumPeers() {
        return this == ALL ? 2 : 1;
    }

    public static PeerSet parse(String key, String value) {
        for (PeerSet p : values()) {
            if (p.configName().equals(value)) {
                return p;
            }
        }
        throw new InvalidConfigException(key, "\"" + value + "\"", "one of all, others");
    }
}
