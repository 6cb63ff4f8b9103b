package dev.outlierlab.sim.grpc;

import dev.outlierlab.engine.grpc.GrpcOutlierConfig;
import io.grpc.Attributes;
import io.grpc.CallOptions;
import io.grpc.ChannelLogger;
import io.grpc.ClientStreamTracer;
import io.grpc.ConnectivityState;
import io.grpc.ConnectivityStateInfo;
import io.grpc.EquivalentAddressGroup;
import io.grpc.LoadBalancer;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.SynchronizationContext;
import io.grpc.util.GracefulSwitchLoadBalancer;
import io.grpc.util.OutlierDetectionLoadBalancer;
import io.grpc.util.OutlierDetectionLoadBalancer.OutlierDetectionLoadBalancerConfig;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;

/**
 * grpc-java's real {@link OutlierDetectionLoadBalancer} (grpc-util 1.85.1) on a fake clock, with a child policy of
 * our own that routes as the lab does: request {@code i} goes to {@code ready[i mod n]}, the subchannels the outlier
 * detection has not failed, in host order. Each call is picked through the balancer's own picker and finished
 * through the stream tracer it attaches, so the balancer counts exactly what a channel would. Ejections and returns
 * are what the child hears: {@code TRANSIENT_FAILURE} from a subchannel, then {@code READY} again.
 */
final class RealGrpcBalancer {
    /** One ejection or return as the child policy saw it. */
    record Event(long timeNanos, String host, String action) {}

    /** An address whose hash is its host index, so the balancer's hash maps walk the hosts in host order. */
    private static final class Address extends SocketAddress {
        private static final long serialVersionUID = 1L;
        final int index;

        Address(int index) {
            this.index = index;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Address a && a.index == index;
        }

        @Override
        public int hashCode() {
            return index;
        }

        @Override
        public String toString() {
            return "host-" + index;
        }
    }

    private final List<String> hosts;
    private final FakeTimer timer = new FakeTimer();
    private final SynchronizationContext sync = new SynchronizationContext((t, e) -> {
        throw new AssertionError("balancer failed", e);
    });
    private final List<Event> events = new ArrayList<>();
    private final OutlierDetectionLoadBalancer balancer;
    private final LoadBalancer.Subchannel[] childSubchannels;
    private final boolean[] ready;
    private LoadBalancer.SubchannelPicker picker;
    private long requestIndex;
    private ClientStreamTracer.Factory lastTracer;

    RealGrpcBalancer(List<String> hosts, GrpcOutlierConfig config) {
        this.hosts = hosts;
        this.childSubchannels = new LoadBalancer.Subchannel[hosts.size()];
        this.ready = new boolean[hosts.size()];
        balancer = new OutlierDetectionLoadBalancer(new ChannelHelper(), timer.ticker);
        OutlierDetectionLoadBalancerConfig.Builder b = new OutlierDetectionLoadBalancerConfig.Builder()
                .setIntervalNanos(config.intervalNanos())
                .setBaseEjectionTimeNanos(config.baseEjectionTimeNanos())
                .setMaxEjectionTimeNanos(config.maxEjectionTimeNanos())
                .setMaxEjectionPercent(config.maxEjectionPercent());
        if (config.successRate() != null) {
            b.setSuccessRateEjection(new OutlierDetectionLoadBalancerConfig.SuccessRateEjection.Builder()
                    .setStdevFactor(config.successRate().stdevFactor())
                    .setEnforcementPercentage(config.successRate().enforcementPercentage())
                    .setMinimumHosts(config.successRate().minimumHosts())
                    .setRequestVolume(config.successRate().requestVolume())
                    .build());
        }
        if (config.failurePercentage() != null) {
            b.setFailurePercentageEjection(new OutlierDetectionLoadBalancerConfig.FailurePercentageEjection.Builder()
                    .setThreshold(config.failurePercentage().threshold())
                    .setEnforcementPercentage(config.failurePercentage().enforcementPercentage())
                    .setMinimumHosts(config.failurePercentage().minimumHosts())
                    .setRequestVolume(config.failurePercentage().requestVolume())
                    .build());
        }
        b.setChildConfig(GracefulSwitchLoadBalancer.createLoadBalancingPolicyConfig(
                new LoadBalancer.Factory() {
                    @Override
                    public LoadBalancer newLoadBalancer(LoadBalancer.Helper helper) {
                        return new LabChildPolicy(helper);
                    }
                },
                null));
        List<EquivalentAddressGroup> groups = new ArrayList<>();
        for (int h = 0; h < hosts.size(); h++) {
            groups.add(new EquivalentAddressGroup(new Address(h)));
        }
        LoadBalancer.ResolvedAddresses resolved = LoadBalancer.ResolvedAddresses.newBuilder()
                .setAddresses(groups)
                .setLoadBalancingPolicyConfig(b.build())
                .build();
        sync.execute(() -> {
            Status status = balancer.acceptResolvedAddresses(resolved);
            if (!status.isOk()) {
                throw new AssertionError("balancer refused the addresses: " + status);
            }
        });
    }

    /** Moves the clock to {@code nanos}, running every detection sweep due on the way. */
    void forwardTo(long nanos) {
        timer.forwardTo(nanos);
    }

    /** Picks request {@code i}'s host through the balancer's picker: its index, or -1 when no subchannel is ready. */
    int pick(long i) {
        requestIndex = i;
        LoadBalancer.PickResult result = picker.pickSubchannel(new Args());
        if (result.getSubchannel() == null) {
            lastTracer = null;
            return -1;
        }
        lastTracer = result.getStreamTracerFactory();
        return ((Address) result.getSubchannel().getAddresses().getAddresses().get(0)).index;
    }

    /** Finishes the call last picked, OK or UNAVAILABLE, through the balancer's tracer. */
    void finish(boolean ok) {
        ClientStreamTracer tracer = lastTracer.newClientStreamTracer(
                ClientStreamTracer.StreamInfo.newBuilder()
                        .setCallOptions(CallOptions.DEFAULT)
                        .build(),
                new Metadata());
        tracer.streamClosed(ok ? Status.OK : Status.UNAVAILABLE);
    }

    List<Event> events() {
        return events;
    }

    /** The child policy: one subchannel per address, a picker over those in READY in host order. */
    private final class LabChildPolicy extends LoadBalancer {
        private final Helper helper;

        LabChildPolicy(Helper helper) {
            this.helper = helper;
        }

        @Override
        public Status acceptResolvedAddresses(ResolvedAddresses resolved) {
            List<EquivalentAddressGroup> groups = resolved.getAddresses();
            for (int h = 0; h < groups.size(); h++) {
                int host = h;
                Subchannel sc = helper.createSubchannel(CreateSubchannelArgs.newBuilder()
                        .setAddresses(groups.get(h))
                        .build());
                childSubchannels[h] = sc;
                sc.start(state -> onState(host, state));
            }
            publish();
            return Status.OK;
        }

        private boolean pickerPublished;

        /** Every state after the first READY is the outlier detection's: TRANSIENT_FAILURE ejects, READY returns. */
        private void onState(int host, ConnectivityStateInfo state) {
            boolean nowReady = state.getState() == ConnectivityState.READY;
            ready[host] = nowReady;
            if (!pickerPublished) {
                return;
            }
            events.add(new Event(timer.now(), hosts.get(host), nowReady ? "uneject" : "eject"));
            publish();
        }

        private void publish() {
            pickerPublished = true;
            helper.updateBalancingState(ConnectivityState.READY, new SubchannelPicker() {
                @Override
                public PickResult pickSubchannel(PickSubchannelArgs args) {
                    int n = 0;
                    for (boolean r : ready) {
                        if (r) {
                            n++;
                        }
                    }
                    if (n == 0) {
                        return PickResult.withError(Status.UNAVAILABLE.withDescription("every endpoint ejected"));
                    }
                    long slot = requestIndex % n;
                    for (int h = 0; h < ready.length; h++) {
                        if (ready[h] && slot-- == 0) {
                            return PickResult.withSubchannel(childSubchannels[h]);
                        }
                    }
                    throw new AssertionError("unreachable: " + n + " ready");
                }
            });
        }

        @Override
        public void handleNameResolutionError(Status error) {
            throw new AssertionError("no name resolution here: " + error);
        }

        @Override
        public void shutdown() {}
    }

    /** The channel side: real subchannels are replaced by ones that are READY as soon as they start. */
    private final class ChannelHelper extends LoadBalancer.Helper {
        @Override
        public LoadBalancer.Subchannel createSubchannel(LoadBalancer.CreateSubchannelArgs args) {
            return new ReadySubchannel(args);
        }

        @Override
        public ManagedChannel createOobChannel(EquivalentAddressGroup eag, String authority) {
            throw new AssertionError("no out-of-band channels");
        }

        @Override
        public void updateBalancingState(ConnectivityState newState, LoadBalancer.SubchannelPicker newPicker) {
            picker = newPicker;
        }

        @Override
        public SynchronizationContext getSynchronizationContext() {
            return sync;
        }

        @Override
        public ScheduledExecutorService getScheduledExecutorService() {
            return timer;
        }

        @Override
        public String getAuthority() {
            return "outlier-lab";
        }

        @Override
        public ChannelLogger getChannelLogger() {
            return new ChannelLogger() {
                @Override
                public void log(ChannelLogLevel level, String message) {}

                @Override
                public void log(ChannelLogLevel level, String messageFormat, Object... args) {}
            };
        }
    }

    private static final class ReadySubchannel extends LoadBalancer.Subchannel {
        private final LoadBalancer.CreateSubchannelArgs args;

        ReadySubchannel(LoadBalancer.CreateSubchannelArgs args) {
            this.args = args;
        }

        @Override
        public void start(LoadBalancer.SubchannelStateListener listener) {
            listener.onSubchannelState(ConnectivityStateInfo.forNonError(ConnectivityState.READY));
        }

        @Override
        public void shutdown() {}

        @Override
        public void requestConnection() {}

        @Override
        public List<EquivalentAddressGroup> getAllAddresses() {
            return args.getAddresses();
        }

        @Override
        public Attributes getAttributes() {
            return Attributes.EMPTY;
        }

        @Override
        public ChannelLogger getChannelLogger() {
            return new ChannelLogger() {
                @Override
                public void log(ChannelLogLevel level, String message) {}

                @Override
                public void log(ChannelLogLevel level, String messageFormat, Object... args) {}
            };
        }
    }

    private static final class Args extends LoadBalancer.PickSubchannelArgs {
        @Override
        public CallOptions getCallOptions() {
            return CallOptions.DEFAULT;
        }

        @Override
        public Metadata getHeaders() {
            return new Metadata();
        }

        @Override
        public MethodDescriptor<?, ?> getMethodDescriptor() {
            return null;
        }
    }
}
