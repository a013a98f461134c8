package io.landingledger.core.simulation;

import java.util.Arrays;

/**
 * What one schedule did: its recorded choices (the {@link Schedule} that replays it), whether it violated something,
 * and its counters. The trace is there only when the schedule ran with tracing (replays do, exploration does not).
 */
public final class Outcome {
    final int[] values;
    final int[] options;
    final ChoiceKind[] kinds;
    final int length;
    private final Violation violation;
    private final boolean truncated;
    private final int steps;
    private final int preemptions;
    private final int crashes;
    private final int faults;
    private final Trace trace;

    Outcome(int[] values, int[] options, ChoiceKind[] kinds, int length, Violation violation, boolean truncated,
            int steps, int preemptions, int crashes, int faults, Trace trace) {
        this.values = Arrays.copyOf(values, length);
        this.options = Arrays.copyOf(options, length);
        this.kinds = Arrays.copyOf(kinds, length);
        this.length = length;
        this.violation = violation;
        this.truncated = truncated;
        this.steps = steps;
        this.preemptions = preemptions;
        this.crashes = crashes;
        this.faults = faults;
        this.trace = trace;
    }

    /** The choices this schedule made (clamped, trailing defaults dropped): replaying it repeats this schedule. */
    public Schedule schedule() {
        return Schedule.of(values, length);
    }

    public boolean violated() {
        return violation != null;
    }

    /** The violation, or null. */
    public Violation violation() {
        return violation;
    }

    /** Abandoned at the step bound without a violation (only with {@code stepLimitIsViolation} false). */
    public boolean truncated() {
        return truncated;
    }

    public int steps() {
        return steps;
    }

    public int preemptions() {
        return preemptions;
    }

    public int crashes() {
        return crashes;
    }

    public int faults() {
        return faults;
    }

    /** The readable trace, or null when this schedule ran without tracing. */
    public Trace trace() {
        return trace;
    }

    /** Every choice with its kind and option count, e.g. {@code SWITCH 1/2}: what the ints of the schedule mean. */
    public String choicesExplained() {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < length; i++) {
            out.append(i == 0 ? "" : ", ").append(kinds[i]).append(' ').append(values[i]).append('/')
                    .append(options[i]);
        }
        return out.toString();
    }

    long digest() {
        long h = 1125899906842597L;
        for (int i = 0; i < length; i++) {
            h = 31 * h + values[i];
            h = 31 * h + options[i];
        }
        h = 31 * h + steps;
        return 31 * h + (violation == null ? 0 : violation.message().hashCode());
    }

    @Override
    public String toString() {
        return (violation != null ? "VIOLATION " + violation.describe() : truncated ? "truncated" : "ok")
                + " after " + steps + " steps, schedule " + schedule();
    }
}
