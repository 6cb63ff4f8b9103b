package dev.outlierlab.engine.nginx;

import dev.outlierlab.engine.Durations;
import java.util.List;

/**
 * One copy of an nginx upstream's round-robin peers, the state nginx keeps per peer and the two functions that
 * change it, from {@code src/http/ngx_http_upstream_round_robin.c} (nginx 1.22.1; the rules are the same at
 * HEAD):
 * <ul>
 * <li>{@link #get} is {@code ngx_http_upstream_get_peer}: smooth weighted round robin over the peers that are
 * not tried, not {@code down} and not skipped for failures ({@link #skipped}); each considered peer adds its
 * {@code effective_weight} to its {@code current_weight}, and an {@code effective_weight} below {@code weight}
 * grows by one; the largest {@code current_weight} wins (the first listed on a tie) and loses the total. The
 * winner's {@code checked} moves to now when more than {@code fail_timeout} has passed since it: this is what
 * lets exactly one probe through after an ejection, and the only way a success can later reset the count.</li>
 * <li>{@link #free} is {@code ngx_http_upstream_free_round_robin_peer}: a failure does {@code fails++},
 * {@code accessed = checked = now} and, with {@code max_fails > 0}, lowers {@code effective_weight} by
 * {@code weight / max_fails} (integer division, not below 0); a success sets {@code fails = 0} only if
 * {@code accessed < checked}, that is only if the peer was selected more than {@code fail_timeout} after its
 * last failure.</li>
 * </ul>
 * The clock is nginx's {@code ngx_time()}: whole seconds. A peer is skipped while
 * {@code max_fails && fails >= max_fails && now - checked <= fail_timeout}, so an ejection lasts between
 * {@code fail_timeout} and {@code fail_timeout + 1} seconds. A one-server upstream ({@code peers->single})
 * never counts failures and is never skipped for them; {@code ngx_http_upstream_init_round_robin} sets
 * {@code single} only for one primary server and no {@code backup} server ({@code peers->single = 0} when a
 * backup set is built), so one primary with a backup counts its failures and is taken out like any other.
 * <p>{@code backup} servers are a second set ({@code peers->next}) with the same per-peer state; {@link #get}
 * selects within one set. When the primary set has none to give, {@code ngx_http_upstream_get_round_robin_peer}
 * (its {@code failed:} label) moves the request to the backup set for this and every later try of it, clears its
 * tried bits and selects there; only when the backup set has none either does the request get
 * {@code NGX_BUSY}. Here the peers keep the configuration's order, the backups where they are written, and the
 * set is a flag per peer. There is no reset when every peer is skipped:
 * {@code get} answers none and nginx logs "no live upstreams" (the "quick recovery" that cleared every
 * count when all had failed was removed in nginx 1.11.5, commit fd9e74f "Upstream: removed the quick recovery
 * mechanism"). Without {@code zone} each worker process has its own copy; with {@code zone} all
 * workers share one. Driven from one thread; nothing is allocated after construction.
 */
public final class RoundRobinPeers {
    private final String[] names;
    private final int[] weight;
    private final int[] maxFails;
    private final long[] failTimeout;
    private final boolean[] down;
    private final boolean[] backup;
    private final int[] effectiveWeight;
    private final long[] currentWeight;
    private final long[] fails;
    private final long[] accessed;
    private final long[] checked;
    private final boolean single;
    private final boolean hasBackup;

    public RoundRobinPeers(List<NginxServer> servers) {
        int n = servers.size();
        if (n == 0) {
            throw new IllegalArgumentException("an nginx upstream needs at least one server");
        }
        names = new String[n];
        weight = new int[n];
        maxFails = new int[n];
        failTimeout = new long[n];
        down = new boolean[n];
        backup = new boolean[n];
        effectiveWeight = new int[n];
        currentWeight = new long[n];
        fails = new long[n];
        accessed = new long[n];
        checked = new long[n];
        for (int i = 0; i < n; i++) {
            NginxServer s = servers.get(i);
            names[i] = s.name();
            weight[i] = s.weight();
            maxFails[i] = s.maxFails();
            failTimeout[i] = s.failTimeoutSeconds();
            down[i] = s.down();
            backup[i] = s.backup();
            effectiveWeight[i] = s.weight();
        }
        int backups = 0;
        for (boolean b : backup) {
            backups += b ? 1 : 0;
        }
        if (backups == n) {
            throw new IllegalArgumentException("an nginx upstream needs at least one server that is not backup");
        }
        hasBackup = backups > 0;
        single = n == 1;
    }

    /** nginx's clock: the whole second of a nanosecond time ({@code ngx_time()}). */
    public static long seconds(long nanos) {
        return Math.floorDiv(nanos, Durations.SECOND);
    }

    public int size() {
        return names.length;
    }

    public String name(int peer) {
        return names[peer];
    }

    /**
     * Whether the upstream has one server and no backup ({@code peers->single}): no failure accounting at all.
     */
    public boolean single() {
        return single;
    }

    /** Whether the upstream has {@code backup} servers ({@code peers->next}). */
    public boolean hasBackup() {
        return hasBackup;
    }

    /** Whether {@code peer} is a {@code backup} server. */
    public boolean backup(int peer) {
        return backup[peer];
    }

    /**
     * The servers not {@code down}, primary and backup: the tries a request starts with
     * ({@code ngx_http_upstream_tries}: {@code peers->tries + peers->next->tries}).
     */
    public int serversUp() {
        int up = 0;
        for (boolean d : down) {
            up += d ? 0 : 1;
        }
        return up;
    }

    /** Whether the peer is passed over for failures at second {@code nowSeconds}. */
    public boolean skipped(int peer, long nowSeconds) {
        return !single
                && maxFails[peer] != 0
                && fails[peer] >= maxFails[peer]
                && nowSeconds - checked[peer] <= failTimeout[peer];
    }

    /** {@link #get(long, boolean[], boolean)} among the primary servers. */
    public int get(long nowSeconds, boolean[] tried) {
        return get(nowSeconds, tried, false);
    }

    /**
     * Selects a peer at second {@code nowSeconds} in one set (the backup servers when {@code backupSet}, else the
     * primary ones) among those not in {@code tried}, marks it tried and returns it, or returns -1 when none may
     * be selected there ({@code ngx_http_upstream_get_peer} returning NULL; with no backup to go to, nginx's
     * {@code NGX_BUSY}: "no live upstreams").
     */
    public int get(long nowSeconds, boolean[] tried, boolean backupSet) {
        if (single) {
            if (backupSet || down[0] || tried[0]) {
                return -1;
            }
            tried[0] = true;
            return 0;
        }
        int best = -1;
        long total = 0;
        for (int i = 0; i < names.length; i++) {
            if (backup[i] != backupSet || tried[i] || down[i] || skipped(i, nowSeconds)) {
                continue;
            }
            currentWeight[i] += effectiveWeight[i];
            total += effectiveWeight[i];
            if (effectiveWeight[i] < weight[i]) {
                effectiveWeight[i]++;
            }
            if (best < 0 || currentWeight[i] > currentWeight[best]) {
                best = i;
            }
        }
        if (best < 0) {
            return -1;
        }
        tried[best] = true;
        currentWeight[best] -= total;
        if (nowSeconds - checked[best] > failTimeout[best]) {
            checked[best] = nowSeconds;
        }
        return best;
    }

    /**
     * Frees {@code peer} after an attempt at second {@code nowSeconds}; returns true when a failure leaves
     * {@code fails >= max_fails} (nginx then logs "upstream server temporarily disabled").
     */
    public boolean free(int peer, boolean failed, long nowSeconds) {
        if (single) {
            return false;
        }
        if (failed) {
            fails[peer]++;
            accessed[peer] = nowSeconds;
            checked[peer] = nowSeconds;
            if (maxFails[peer] != 0) {
                effectiveWeight[peer] -= weight[peer] / maxFails[peer];
                if (effectiveWeight[peer] < 0) {
                    effectiveWeight[peer] = 0;
                }
                return fails[peer] >= maxFails[peer];
            }
            return false;
        }
        if (accessed[peer] < checked[peer]) {
            fails[peer] = 0;
        }
        return false;
    }

    /**
     * The part of {@link #get} that concerns the selected peer alone, for an attempt whose peer was chosen
     * elsewhere (a replayed trace): its {@code checked} moves to now when {@code fail_timeout} has passed.
     */
    public void selected(int peer, long nowSeconds) {
        if (!single && nowSeconds - checked[peer] > failTimeout[peer]) {
            checked[peer] = nowSeconds;
        }
    }

    /** The first second at which a skipped peer may be selected again: {@code checked + fail_timeout + 1}. */
    public long selectableFromSeconds(int peer) {
        return checked[peer] + failTimeout[peer] + 1;
    }

    public long fails(int peer) {
        return fails[peer];
    }

    public int maxFails(int peer) {
        return maxFails[peer];
    }

    public long failTimeoutSeconds(int peer) {
        return failTimeout[peer];
    }

    public int weight(int peer) {
        return weight[peer];
    }

    public int effectiveWeight(int peer) {
        return effectiveWeight[peer];
    }

    public long currentWeight(int peer) {
        return currentWeight[peer];
    }

    public long checkedSeconds(int peer) {
        return checked[peer];
    }

    public long accessedSeconds(int peer) {
        return accessed[peer];
    }
}
