package io.landingledger.core.simulation;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * Simulated time, millisecond resolution: it stands still until a model step advances it. Code under test gets this
 * as its {@link Clock}, so "now" is part of the schedule (deterministic, replayable) rather than the wall clock's.
 * Time never goes back. Views in other zones ({@link #withZone}) share the same time.
 */
public final class SimClock extends Clock {
    private final long[] now;
    private final ZoneId zone;

    public SimClock(Instant start) {
        this(new long[] {start.toEpochMilli()}, ZoneOffset.UTC);
    }

    private SimClock(long[] now, ZoneId zone) {
        this.now = now;
        this.zone = zone;
    }

    /** Moves time forward by {@code d} (whole milliseconds; negative durations are refused). */
    public void advance(Duration d) {
        advanceMillis(d.toMillis());
    }

    public void advanceMillis(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("time does not go back: " + millis + " ms");
        }
        now[0] = Math.addExact(now[0], millis);
    }

    /** Sets the time, which must not be earlier than now. */
    public void set(Instant instant) {
        advanceMillis(instant.toEpochMilli() - now[0]);
    }

    @Override
    public long millis() {
        return now[0];
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(now[0]);
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return new SimClock(now, zone);
    }

    @Override
    public String toString() {
        return "SimClock[" + instant() + "]";
    }
}
