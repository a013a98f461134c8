package io.landingledger.core.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock that moves only when told to: for the in-memory ports and the simulator, which must not read the wall
 * clock. Thread-safe; {@link #withZone} shares the same time.
 */
public final class ManualClock extends Clock {
    private final Object lock;
    private final Instant[] now;
    private final ZoneId zone;

    public ManualClock(Instant start) {
        this(new Object(), new Instant[] {start}, ZoneOffset.UTC);
    }

    private ManualClock(Object lock, Instant[] now, ZoneId zone) {
        this.lock = lock;
        this.now = now;
        this.zone = zone;
    }

    @Override
    public Instant instant() {
        synchronized (lock) {
            return now[0];
        }
    }

    /** Moves the clock forward (or back, with a negative duration: a clock step) and returns the new time. */
    public Instant advance(Duration by) {
        synchronized (lock) {
            now[0] = now[0].plus(by);
            return now[0];
        }
    }

    public void set(Instant to) {
        synchronized (lock) {
            now[0] = to;
        }
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    @Override
    public Clock withZone(ZoneId other) {
        return new ManualClock(lock, now, other);
    }
}
