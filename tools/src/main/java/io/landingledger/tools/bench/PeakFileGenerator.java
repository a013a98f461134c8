package io.landingledger.tools.bench;

import io.landingledger.tools.bench.ProgressEventWriter.Fault;

import java.io.IOException;
import java.io.OutputStream;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.SplittableRandom;

/**
 * Writes a peak-shaped {@code progress_events} day, line by line, to a stream: realistic ids, producers that differ
 * in key order, whitespace, offset and sub-second digits, a diurnal curve of event times, late rows from earlier
 * days, canonical duplicates (retries: byte copies, other key orders, the same instant in another offset) and a
 * few malformed lines. Everything comes from two {@link SplittableRandom}s (values, placement of malformed lines)
 * seeded from {@link Options#seed()}, so the same options always give the same bytes. Memory is one ring of recent events,
 * whatever the line count.
 */
final class PeakFileGenerator {
    static final long DEFAULT_LINES = 2_000_000;
    static final long DEFAULT_SEED = 20260302L;
    static final double DEFAULT_DUPLICATE_SHARE = 0.02;
    static final double DEFAULT_LATE_SHARE = 0.01;
    static final LocalDate DEFAULT_DAY = LocalDate.of(2026, 3, 2);

    /** Retries repeat a recent event: duplicates are drawn from the last this-many distinct events. */
    private static final int RECENT_EVENTS = 1 << 16;
    /** Malformed lines take each kind in turn. */
    private static final Fault[] FAULTS = Fault.values();

    /** Relative event volume per UTC hour: a learning platform's evening peaks in Europe and the Americas. */
    private static final int[] HOURLY_WEIGHT = {
            30, 22, 18, 16, 18, 26, 40, 55, 62, 66, 70, 74, 80, 84, 88, 92, 100, 110, 118, 120, 112, 90, 64, 42};
    private static final int[] HOUR_CUMULATIVE = cumulative(HOURLY_WEIGHT);

    /** Learners' UTC offsets in minutes, weighted by repetition; 0 written as {@code +00:00}. */
    private static final int[] LEARNER_OFFSETS = {
            0, 0, 60, 60, 60, 120, 180, 330, 330, 330, 345, 480, 480, 540, 570, 600, -180, -180, -210, -300, -300,
            -300, -360, -360, -420, -480, -480};

    /**
     * What to generate.
     *
     * @param lines          physical lines, all kinds included
     * @param seed           the same seed and options give byte-identical output
     * @param duplicateShare share of lines that repeat an earlier event as a canonical duplicate
     * @param lateShare      share of distinct events whose time lies on an earlier day (late rows)
     * @param malformed      lines the validator will reject, spread evenly through the file
     * @param day            the UTC day the file is the unit of
     */
    record Options(long lines, long seed, double duplicateShare, double lateShare, long malformed, LocalDate day) {
        Options {
            if (lines < 0) {
                throw new IllegalArgumentException("lines must not be negative, not " + lines);
            }
            if (!(duplicateShare >= 0 && duplicateShare < 1)) {
                throw new IllegalArgumentException("duplicateShare must be in [0, 1), not " + duplicateShare);
            }
            if (!(lateShare >= 0 && lateShare <= 1)) {
                throw new IllegalArgumentException("lateShare must be in [0, 1], not " + lateShare);
            }
            if (malformed < 0 || malformed > lines) {
                throw new IllegalArgumentException("malformed must be between 0 and lines (" + lines + "), not " + malformed);
            }
        }
    }

    /**
     * What was written, and so what the validator must find: {@code distinct} accepted rows, {@code duplicates}
     * duplicates, {@code malformed} rejected lines.
     *
     * @param lines      lines written
     * @param bytes      bytes written (before any compression the caller adds)
     * @param distinct   distinct events (keys)
     * @param duplicates lines that repeat an earlier event
     * @param late       distinct events timed on an earlier day
     * @param malformed  malformed lines
     */
    record Summary(long lines, long bytes, long distinct, long duplicates, long late, long malformed) {
    }

    private final Options options;

    PeakFileGenerator(Options options) {
        this.options = options;
    }

    /** Writes the whole file to {@code out} (not closed, not flushed). */
    Summary write(OutputStream out) throws IOException {
        SplittableRandom values = new SplittableRandom(options.seed());
        SplittableRandom placement = new SplittableRandom(options.seed() ^ 0x5DEECE66DL);
        long n = options.lines();
        long dayStart = options.day().atStartOfDay().toEpochSecond(ZoneOffset.UTC);
        long learners = Math.clamp(n / 24, 1_000, 20_000_000);
        long idBase = mix64(options.seed());

        ProgressEvent[] recent = new ProgressEvent[(int) Math.min(RECENT_EVENTS, Math.max(1, n))];
        for (int i = 0; i < recent.length; i++) {
            recent[i] = new ProgressEvent();
        }
        ProgressEvent scratch = new ProgressEvent();
        ProgressEventWriter writer = new ProgressEventWriter();

        long distinct = 0;
        long duplicates = 0;
        long late = 0;
        long malformed = 0;
        long bytes = 0;
        long nextMalformed = malformedPosition(0, placement);
        for (long line = 0; line < n; line++) {
            if (line == nextMalformed) {
                // serials from the other half of the id space: a rejected line never shares an accepted row's key
                newEvent(scratch, idBase + Long.MIN_VALUE + malformed, dayStart, learners, values);
                writer.write(scratch, FAULTS[(int) (malformed % FAULTS.length)]);
                malformed++;
                nextMalformed = malformedPosition(malformed, placement);
            } else if (distinct > 0 && values.nextDouble() < options.duplicateShare()) {
                int pick = (int) (distinct <= recent.length ? values.nextLong(distinct) : values.nextInt(recent.length));
                scratch.copyFrom(recent[pick]);
                retryStyle(scratch, values);
                writer.write(scratch, null);
                duplicates++;
            } else {
                ProgressEvent e = recent[(int) (distinct % recent.length)];
                if (newEvent(e, idBase + distinct, dayStart, learners, values)) {
                    late++;
                }
                writer.write(e, null);
                distinct++;
            }
            out.write(writer.bytes, 0, writer.size);
            bytes += writer.size;
        }
        return new Summary(n, bytes, distinct, duplicates, late, malformed);
    }

    /** The line index of the k-th malformed line: one in each of {@code malformed} equal stretches of the file. */
    private long malformedPosition(long k, SplittableRandom placement) {
        long m = options.malformed();
        if (k >= m) {
            return -1;
        }
        // doubles keep k * lines from overflowing; Java's double arithmetic is the same on every machine
        long from = (long) ((double) k * options.lines() / m);
        long to = Math.min(options.lines(), (long) ((double) (k + 1) * options.lines() / m));
        return from + placement.nextLong(Math.max(1, to - from));
    }

    /** Fills {@code e} with a new distinct event from one of three producers; true when it is a late row. */
    private boolean newEvent(ProgressEvent e, long serial, long dayStart, long learners, SplittableRandom r) {
        // the high half is a bijection of the serial, so ids never repeat
        e.idHigh = mix64(serial);
        e.idLow = r.nextLong();
        e.learner = 100_000_000 + r.nextLong(learners); // nine digits: lrn_104857600
        e.lesson = 1 + r.nextInt(96);
        e.completed = r.nextInt(100) < 12;
        int a = r.nextInt(100);
        e.attempt = a < 70 ? 1 : a < 90 ? 2 : a < 96 ? 3 : a < 99 ? 4 : 5;
        e.checkpoint = e.completed ? ProgressEvent.NO_CHECKPOINT : 1 + r.nextInt(12);
        boolean isLate = r.nextDouble() < options.lateShare();
        long day = isLate ? dayStart - 86_400L * (1 + (r.nextInt(10) == 0 ? r.nextInt(3) : 0)) : dayStart;
        e.epochSecond = day + hourOfDay(r) * 3600L + r.nextInt(3600);
        e.nanos = r.nextInt(1_000_000_000);
        int learnerOffset = LEARNER_OFFSETS[(int) ((mix64(e.learner) >>> 1) % LEARNER_OFFSETS.length)];
        int producer = r.nextInt(100);
        if (producer < 70) {
            // web: Python json.dumps defaults, contract key order, learner's local time, microseconds
            e.keyOrder = 0;
            e.compact = false;
            e.offsetMinutes = learnerOffset;
            e.fractionDigits = 6;
            e.checkpointAbsent = false;
        } else if (producer < 90) {
            // mobile SDK: compact, its own key order, milliseconds, local time; drops null fields
            e.keyOrder = 2;
            e.compact = true;
            e.offsetMinutes = learnerOffset;
            e.fractionDigits = 3;
            e.checkpointAbsent = true;
        } else {
            // backend: sorted keys, UTC with Z, nine fraction digits or whole seconds
            e.keyOrder = 1;
            e.compact = false;
            e.offsetMinutes = ProgressEvent.UTC_Z;
            e.fractionDigits = r.nextBoolean() ? 9 : 0;
            e.checkpointAbsent = false;
        }
        // whole microseconds even when nine digits are written: the table's timestamptz holds microseconds, and the
        // validator refuses a finer instant (TIMESTAMP_PRECISION)
        e.nanos -= e.nanos % pow10(9 - Math.min(e.fractionDigits, 6));
        return isLate;
    }

    /** A retry of the same event: same values, sometimes written another way (still a canonical duplicate). */
    private static void retryStyle(ProgressEvent e, SplittableRandom r) {
        int kind = r.nextInt(100);
        if (kind < 40) {
            return; // a byte copy: the producer re-sent the line
        }
        if (kind < 60) {
            e.keyOrder = (e.keyOrder + 1 + r.nextInt(ProgressEventWriter.KEY_ORDERS.length - 1)) % ProgressEventWriter.KEY_ORDERS.length;
        } else if (kind < 85) {
            // the same instant in another offset: Z, +00:00 or a learner's local time
            int other = LEARNER_OFFSETS[r.nextInt(LEARNER_OFFSETS.length)];
            e.offsetMinutes = e.offsetMinutes == ProgressEvent.UTC_Z ? other
                    : (r.nextBoolean() ? ProgressEvent.UTC_Z : (other == e.offsetMinutes ? -other - 60 : other));
        } else {
            // through another encoder: other whitespace, other order, null written or dropped
            e.compact = !e.compact;
            e.keyOrder = 3;
            e.checkpointAbsent = !e.checkpointAbsent;
        }
    }

    private static int hourOfDay(SplittableRandom r) {
        int x = r.nextInt(HOUR_CUMULATIVE[HOUR_CUMULATIVE.length - 1]);
        int hour = 0;
        while (HOUR_CUMULATIVE[hour] <= x) {
            hour++;
        }
        return hour;
    }

    private static int pow10(int digits) {
        int p = 1;
        for (int i = 0; i < digits; i++) {
            p *= 10;
        }
        return p;
    }

    private static int[] cumulative(int[] weights) {
        int[] c = new int[weights.length];
        int sum = 0;
        for (int i = 0; i < weights.length; i++) {
            sum += weights[i];
            c[i] = sum;
        }
        return c;
    }

    /** SplitMix64's finaliser: a bijection on 64-bit values, so distinct inputs give distinct ids. */
    static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
