package dev.outlierlab.engine.proxies;

import java.util.SplittableRandom;

/**
 * What a scripted backend answers to its {@code n}-th request (0 first) at {@code elapsedMillis} after the run
 * started: a status, or a status after a delay. Scripts are pure functions of their arguments and a seed, so a
 * scenario's backends behave the same on every run (except for the clock).
 */
@FunctionalInterface
public interface BackendScript {
    /** The answer: {@code status} after {@code delayMillis}. */
    record Answer(int status, long delayMillis) {}

    Answer answer(long n, long elapsedMillis);

    static BackendScript ok() {
        return (n, t) -> new Answer(200, 0);
    }

    static BackendScript always(int status) {
        return (n, t) -> new Answer(status, 0);
    }

    /** Fails {@code percent} of requests with {@code status}, drawn from {@code seed} by request number. */
    static BackendScript randomly(int percent, int status, long seed) {
        return (n, t) -> new Answer(
                new SplittableRandom(seed + n * 0x9E3779B97F4A7C15L).nextInt(100) < percent ? status : 200, 0);
    }

    /** {@code run} failures in a row at the start of every {@code every} requests. */
    static BackendScript inRow(int run, int every, int status) {
        return (n, t) -> new Answer(n % every < run ? status : 200, 0);
    }

    /** {@code status} until {@code untilMillis}, 200 after (recover at T). */
    static BackendScript until(long untilMillis, int status) {
        return (n, t) -> new Answer(t < untilMillis ? status : 200, 0);
    }

    /** Answers 200 after {@code delayMillis} until {@code untilMillis}, at once after. */
    static BackendScript slowUntil(long untilMillis, long delayMillis) {
        return (n, t) -> new Answer(200, t < untilMillis ? delayMillis : 0);
    }
}
