package dev.outlierlab.engine.proxies;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A scenario's scripted backends: created and warmed up, those that refuse at first closed, and each opened at its
 * time while the load runs ("refused, recover at T"). Closes them all.
 */
public final class BackendSet implements AutoCloseable {
    private final List<ScriptedBackend> backends = new ArrayList<>();
    private final long[] listenFrom;
    private long start;

    /** One backend per script; {@code listenFromMillis[i]} > 0 keeps backend i refusing until then. */
    public BackendSet(List<BackendScript> scripts, List<BackendScript> health, long[] listenFromMillis)
            throws IOException {
        this.listenFrom = listenFromMillis.clone();
        try {
            for (int i = 0; i < scripts.size(); i++) {
                ScriptedBackend b = new ScriptedBackend(scripts.get(i), health.get(i));
                backends.add(b);
                b.warmUp(listenFrom[i] == 0);
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    public ScriptedBackend get(int i) {
        return backends.get(i);
    }

    public int size() {
        return backends.size();
    }

    /** Starts the scripts' clock. */
    public void start(long millis) {
        start = millis;
        for (ScriptedBackend b : backends) {
            b.startClock(millis);
        }
    }

    /**
     * Keeps requests 15 ms clear of health checks: waits while a backend received one in the last 15 ms, so that
     * a check's result and a request's outcome reach the proxy in an order the replay can tell.
     */
    public void keepClearOfChecks() {
        for (int guard = 0; guard < 10; guard++) {
            long latest = 0;
            for (ScriptedBackend b : backends) {
                latest = Math.max(latest, b.lastCheckMillis());
            }
            long wait = latest + 15 - System.currentTimeMillis();
            if (wait <= 0) {
                return;
            }
            try {
                Thread.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Opens every backend whose time has come; run before each request. */
    public void openDue() {
        long elapsed = System.currentTimeMillis() - start;
        for (int i = 0; i < backends.size(); i++) {
            if (listenFrom[i] > 0 && elapsed >= listenFrom[i]) {
                try {
                    backends.get(i).listen();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
    }

    @Override
    public void close() {
        for (ScriptedBackend b : backends) {
            b.close();
        }
    }
}
