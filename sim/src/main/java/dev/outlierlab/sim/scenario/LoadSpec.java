package dev.outlierlab.sim.scenario;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.InvalidConfigException;
import dev.outlierlab.engine.envoy.RequestResult;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The opt-in shape of load (issue "when ejection makes things worse"): how many requests per second each host
 * can serve (over a sliding second) and how a request beyond that fails, per-host load-balancing weights
 * (Envoy's weighted round robin), Poisson arrivals, and rate steps over time. {@link #NONE} is the lab model's
 * even, uncapped, unweighted traffic, under which every run is exactly as the lab's model (docs/model.md) says.
 *
 * @param capacityRps    requests per second a host serves in any sliding second, by host name; a host not
 *                       named has no limit; empty: no host has one
 * @param overloadStatus HTTP status of a request beyond capacity (500..599), when {@code overloadResult} is null
 * @param overloadResult {@link RequestResult#LOCAL_ORIGIN_TIMEOUT} to fail requests beyond capacity as timeouts
 * @param weights        load-balancing weight by host name (a host not named weighs 1); empty: unweighted
 * @param steps          rate changes in increasing time, each strictly after the one before
 */
public record LoadSpec(
        Map<String, Long> capacityRps,
        int overloadStatus,
        RequestResult overloadResult,
        Map<String, Long> weights,
        Arrivals arrivals,
        List<RateStep> steps) {

    /** The highest capacity and weight accepted (a bounded sliding window per host). */
    public static final long MAX_CAPACITY_RPS = 10_000_000L;

    public static final long MAX_WEIGHT = 1_000_000L;

    /** Even, uncapped, unweighted traffic at a constant rate: the lab model's rules. */
    public static final LoadSpec NONE = new LoadSpec(Map.of(), 503, null, Map.of(), Arrivals.EVEN, List.of());

    public LoadSpec {
        capacityRps = Map.copyOf(capacityRps);
        weights = Map.copyOf(weights);
        steps = List.copyOf(steps);
        for (Map.Entry<String, Long> e : capacityRps.entrySet()) {
            if (e.getValue() < 1 || e.getValue() > MAX_CAPACITY_RPS) {
                throw new InvalidConfigException(
                        "cluster.capacity",
                        Long.toString(e.getValue()),
                        "requests per second from 1 to " + MAX_CAPACITY_RPS);
            }
        }
        if (overloadStatus < 500 || overloadStatus > 599) {
            throw new InvalidConfigException(
                    "cluster.overload_response",
                    Integer.toString(overloadStatus),
                    "an HTTP status from 500 to 599, or timeout");
        }
        if (overloadResult != null && overloadResult != RequestResult.LOCAL_ORIGIN_TIMEOUT) {
            throw new InvalidConfigException(
                    "cluster.overload_response",
                    overloadResult.traceName(),
                    "an HTTP status from 500 to 599, or timeout");
        }
        for (Map.Entry<String, Long> e : weights.entrySet()) {
            if (e.getValue() < 1 || e.getValue() > MAX_WEIGHT) {
                throw new InvalidConfigException(
                        "cluster.weights", Long.toString(e.getValue()), "whole-number weights from 1 to " + MAX_WEIGHT);
            }
        }
        long previous = -1;
        for (int i = 0; i < steps.size(); i++) {
            RateStep s = steps.get(i);
            if (s.atNanos() <= previous || s.atNanos() < 0) {
                throw new InvalidConfigException(
                        "traffic.steps[" + i + "].at",
                        Durations.format(s.atNanos()),
                        "a time after the step before"
                                + (previous < 0 ? " (0s or later)" : " (" + Durations.format(previous) + ")"));
            }
            if (s.rps() < 0 || s.rps() > TrafficSpec.MAX_RPS) {
                throw new InvalidConfigException(
                        "traffic.steps[" + i + "].rps",
                        Long.toString(s.rps()),
                        "a whole number of requests per second from 0 to " + TrafficSpec.MAX_RPS);
            }
            previous = s.atNanos();
        }
    }

    /** Whether anything differs from the lab model's even, uncapped, unweighted, constant traffic. */
    public boolean isShaped() {
        return !equals(NONE);
    }

    public boolean hasCapacity() {
        return !capacityRps.isEmpty();
    }

    /** The rate in force at {@code nanos}: the last step at or before it, else the base rate. */
    public long rpsAt(long nanos, long baseRps) {
        long rps = baseRps;
        for (RateStep s : steps) {
            if (s.atNanos() <= nanos) {
                rps = s.rps();
            }
        }
        return rps;
    }

    /** Host names used here that the cluster does not have, checked by {@link Scenario}. */
    void checkHosts(Set<String> known, String hostsText) {
        for (String h : capacityRps.keySet()) {
            if (!known.contains(h)) {
                throw new InvalidConfigException(
                        "cluster.capacity", "\"" + h + "\"", "names of the cluster's hosts: " + hostsText);
            }
        }
        for (String h : weights.keySet()) {
            if (!known.contains(h)) {
                throw new InvalidConfigException(
                        "cluster.weights", "\"" + h + "\"", "names of the cluster's hosts: " + hostsText);
            }
        }
    }
}
