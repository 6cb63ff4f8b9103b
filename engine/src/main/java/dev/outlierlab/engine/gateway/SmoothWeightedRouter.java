package dev.outlierlab.engine.gateway;

/**
 * nginx's smooth weighted round robin ({@code ngx_http_upstream_get_peer}) for the first candidate: each
 * request adds every endpoint's weight to its current weight, picks the largest current weight (the first
 * in listed order on a tie, as nginx's strict comparison does), and takes the total off the pick. The other
 * endpoints follow in listed order. Over every {@code sum(weights)} requests each endpoint is first exactly
 * its weight's number of times, interleaved rather than in runs.
 */
public final class SmoothWeightedRouter implements CandidateRouter {
    private final int[] weights;
    private final long[] current;
    private final long total;
    private final int[] list;

    public SmoothWeightedRouter(int[] weights) {
        this.weights = weights.clone();
        this.current = new long[weights.length];
        long sum = 0;
        for (int w : weights) {
            sum += w;
        }
        this.total = sum;
        this.list = new int[weights.length];
    }

    @Override
    public int[] list() {
        return list;
    }

    @Override
    public int endpointCount() {
        return weights.length;
    }

    @Override
    public int next() {
        int[] out = list;
        int best = 0;
        for (int i = 0; i < weights.length; i++) {
            current[i] += weights[i];
            if (current[i] > current[best]) {
                best = i;
            }
        }
        current[best] -= total;
        out[0] = best;
        int k = 1;
        for (int i = 0; i < out.length; i++) {
            if (i != best) {
                out[k++] = i;
            }
        }
        return 0;
    }
}
