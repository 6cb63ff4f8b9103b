package dev.outlierlab.report;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * A replay's times in the log's own clock: a time from the replay's start (its first outcome) as the UTC time of
 * day the log recorded, with the seconds from the start beside it ({@code 10:00:22.255 (22.255 s)}), so that a
 * report of an incident can be read against the logs, dashboards and alerts of the same minutes.
 *
 * @param originEpochNanos the log's time of the replay's time zero, in nanoseconds since the epoch
 */
public record LogClock(long originEpochNanos) {
    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT).withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter DATE_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS", Locale.ROOT).withZone(ZoneOffset.UTC);

    /** {@code 10:00:22.255 (22.255 s)}: the time of day in UTC and the seconds from the start. */
    public String at(long nanosFromStart) {
        return timeOfDay(nanosFromStart) + " (" + Numbers.seconds(nanosFromStart) + ")";
    }

    /** {@code 10:00:22.255}, to the millisecond (rounded as {@link Numbers#seconds} rounds). */
    public String timeOfDay(long nanosFromStart) {
        return TIME.format(instant(nanosFromStart));
    }

    /** {@code 2026-03-02 10:00:22.255 UTC}. */
    public String dateTime(long nanosFromStart) {
        return DATE_TIME.format(instant(nanosFromStart)) + " UTC";
    }

    private Instant instant(long nanosFromStart) {
        long epochNanos = originEpochNanos + nanosFromStart;
        long millis = Math.floorDiv(epochNanos + 500_000, 1_000_000);
        return Instant.ofEpochMilli(millis);
    }
}
