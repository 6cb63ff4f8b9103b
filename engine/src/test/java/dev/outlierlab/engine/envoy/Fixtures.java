package dev.outlierlab.engine.envoy;

import dev.outlierlab.engine.Durations;
import dev.outlierlab.engine.RandomSource;
import dev.outlierlab.engine.envoy.event.DetectorListener;
import dev.outlierlab.engine.envoy.event.EventAction;
import dev.outlierlab.engine.envoy.event.OutlierEvent;
import java.util.ArrayList;
import java.util.List;

/** Small helpers shared by the engine's behavioural tests. */
public final class Fixtures {
    public static final long S = Durations.SECOND;
    public static final long MS = Durations.MILLISECOND;

    private Fixtures() {}

    /** Envoy's defaults with every given override applied (pairs of setting and value). */
    public static OutlierDetectionConfig config(Object... settingsAndValues) {
        OutlierDetectionConfig.Builder b = OutlierDetectionConfig.builder();
        for (int i = 0; i < settingsAndValues.length; i += 2) {
            OutlierSetting s = (OutlierSetting) settingsAndValues[i];
            Object v = settingsAndValues[i + 1];
            if (v instanceof Boolean flag) {
                b.set(s, flag);
            } else {
                b.set(s, ((Number) v).longValue());
            }
        }
        return b.build();
    }

    /** As {@link #config}, with a cap of 100 % first, so that the cap never gets in the way (overrides win). */
    public static OutlierDetectionConfig uncapped(Object... settingsAndValues) {
        Object[] all = new Object[settingsAndValues.length + 2];
        all[0] = OutlierSetting.MAX_EJECTION_PERCENT;
        all[1] = 100;
        System.arraycopy(settingsAndValues, 0, all, 2, settingsAndValues.length);
        return config(all);
    }

    /** Reports {@code n} responses with {@code code} to a host, all at time {@code t}. */
    public static void respond(HostMonitor host, int n, int code, long t) {
        for (int i = 0; i < n; i++) {
            host.putHttpResponseCode(code, t);
        }
    }

    /** Reports {@code n} non-HTTP results to a host, all at time {@code t}. */
    public static void result(HostMonitor host, int n, RequestResult result, long t) {
        for (int i = 0; i < n; i++) {
            host.putResult(result, t);
        }
    }

    /** A listener that keeps every event. */
    public static final class Events implements DetectorListener {
        public final List<OutlierEvent> all = new ArrayList<>();

        @Override
        public void onEvent(OutlierEvent event) {
            all.add(event);
        }

        public List<OutlierEvent> of(EventAction action) {
            return all.stream().filter(e -> e.action() == action).toList();
        }

        public OutlierEvent last() {
            return all.get(all.size() - 1);
        }

        public int size() {
            return all.size();
        }
    }

    /** A random source that returns scripted draws in order and fails the test when it runs out. */
    public static final class ScriptedRandom implements RandomSource {
        private final long[] draws;
        private int taken;

        public ScriptedRandom(long... draws) {
            this.draws = draws;
        }

        @Override
        public long next() {
            if (taken >= draws.length) {
                throw new AssertionError("the detector drew more than the " + draws.length + " scripted values");
            }
            return draws[taken++];
        }

        public int taken() {
            return taken;
        }
    }

    /** A random source that counts its draws and always returns the same value. */
    public static final class CountingRandom implements RandomSource {
        private final long value;
        private int taken;

        public CountingRandom(long value) {
            this.value = value;
        }

        @Override
        public long next() {
            taken++;
            return value;
        }

        public int taken() {
            return taken;
        }
    }
}
