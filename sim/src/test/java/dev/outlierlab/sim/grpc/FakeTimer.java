package dev.outlierlab.sim.grpc;

import com.google.common.base.Ticker;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A clock and scheduler that move only when told: the real balancer's {@code Ticker} reads {@link #now}, and its
 * fixed-delay detection timer runs when {@link #forwardTo} passes its due time, at exactly that time. A task that
 * takes no time (everything here) so repeats at {@code initial + k * delay}, as the lab's sweeps do.
 */
final class FakeTimer extends AbstractExecutorService implements ScheduledExecutorService {
    private final PriorityQueue<Task> tasks =
            new PriorityQueue<>(Comparator.comparingLong((Task t) -> t.dueNanos).thenComparingLong(t -> t.order));
    private long now;
    private long sequence;

    final Ticker ticker = new Ticker() {
        @Override
        public long read() {
            return now;
        }
    };

    long now() {
        return now;
    }

    /** Runs every task due at or before {@code nanos}, each at its own time, then stands at {@code nanos}. */
    void forwardTo(long nanos) {
        while (!tasks.isEmpty() && tasks.peek().dueNanos <= nanos) {
            Task task = tasks.poll();
            if (task.cancelled) {
                continue;
            }
            now = task.dueNanos;
            task.command.run();
            if (task.delayNanos > 0 && !task.cancelled) {
                task.dueNanos = now + task.delayNanos;
                task.order = sequence++;
                tasks.add(task);
            }
        }
        now = Math.max(now, nanos);
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return add(command, unit.toNanos(delay), 0);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        return add(command, unit.toNanos(initialDelay), unit.toNanos(delay));
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return add(command, unit.toNanos(initialDelay), unit.toNanos(period));
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        throw new IllegalStateException("the balancer schedules runnables only");
    }

    private Task add(Runnable command, long delayNanos, long repeatNanos) {
        Task task = new Task(command, now + delayNanos, repeatNanos, sequence++);
        tasks.add(task);
        return task;
    }

    @Override
    public void execute(Runnable command) {
        command.run();
    }

    @Override
    public void shutdown() {
        tasks.clear();
    }

    @Override
    public List<Runnable> shutdownNow() {
        tasks.clear();
        return new ArrayList<>();
    }

    @Override
    public boolean isShutdown() {
        return false;
    }

    @Override
    public boolean isTerminated() {
        return false;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return true;
    }

    private final class Task implements ScheduledFuture<Object> {
        final Runnable command;
        final long delayNanos;
        long dueNanos;
        long order;
        boolean cancelled;

        Task(Runnable command, long dueNanos, long delayNanos, long order) {
            this.command = command;
            this.dueNanos = dueNanos;
            this.delayNanos = delayNanos;
            this.order = order;
        }

        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(dueNanos - now, TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed o) {
            return Long.compare(getDelay(TimeUnit.NANOSECONDS), o.getDelay(TimeUnit.NANOSECONDS));
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            cancelled = true;
            return true;
        }

        @Override
        public boolean isCancelled() {
            return cancelled;
        }

        @Override
        public boolean isDone() {
            return cancelled;
        }

        @Override
        public Object get() {
            return null;
        }

        @Override
        public Object get(long timeout, TimeUnit unit) {
            return null;
        }
    }
}
