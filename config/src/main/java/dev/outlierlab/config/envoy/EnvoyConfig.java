package dev.outlierlab.config.envoy;

import dev.outlierlab.config.InputException;
import java.util.ArrayList;
import java.util.List;

/**
 * The clusters of one Envoy configuration file, in file order, and what kind of document held them.
 *
 * @param notes what the reader read past in the file (fields the bundled protos do not know), with lines
 */
public record EnvoyConfig(String source, Kind kind, List<EnvoyCluster> clusters, List<String> notes) {
    /** The document shapes the reader takes. */
    public enum Kind {
        /** One {@code envoy.config.cluster.v3.Cluster}. */
        CLUSTER,
        /** A YAML list of clusters. */
        CLUSTER_LIST,
        /** A bootstrap; its {@code static_resources.clusters}. */
        BOOTSTRAP,
        /** A CDS {@code DiscoveryResponse}; its {@code resources}. */
        DISCOVERY_RESPONSE,
        /** An admin {@code /config_dump} (or egctl's or Kuma's); the clusters of its {@code ClustersConfigDump}. */
        CONFIG_DUMP
    }

    public EnvoyConfig {
        clusters = List.copyOf(clusters);
        notes = List.copyOf(notes);
    }

    /**
     * The cluster named {@code name}; with no name, the only cluster, or the only one with outlier detection.
     *
     * @throws InputException naming the clusters there are, when there is no such cluster or the choice is
     *                        ambiguous
     */
    public EnvoyCluster cluster(String name) {
        if (clusters.isEmpty()) {
            throw new InputException(source + ": the " + describe() + " has no clusters");
        }
        if (name != null) {
            for (EnvoyCluster c : clusters) {
                if (c.name().equals(name)) {
                    return c;
                }
            }
            throw new InputException(source + ": no cluster named '" + name + "'; the clusters are: " + names());
        }
        if (clusters.size() == 1) {
            return clusters.get(0);
        }
        List<EnvoyCluster> withOutlier = new ArrayList<>();
        for (EnvoyCluster c : clusters) {
            if (c.hasOutlierDetection()) {
                withOutlier.add(c);
            }
        }
        if (withOutlier.size() == 1) {
            return withOutlier.get(0);
        }
        throw new InputException(source + ": the " + describe() + " has " + clusters.size()
                + " clusters; choose one with --cluster NAME: " + names());
    }

    /** The cluster names, comma separated. */
    public String names() {
        List<String> names = new ArrayList<>();
        clusters.forEach(c -> names.add(c.name()));
        return String.join(", ", names);
    }

    private String describe() {
        return switch (kind) {
            case CLUSTER -> "cluster";
            case CLUSTER_LIST -> "list";
            case BOOTSTRAP -> "bootstrap";
            case DISCOVERY_RESPONSE -> "DiscoveryResponse";
            case CONFIG_DUMP -> "config dump";
        };
    }
}
