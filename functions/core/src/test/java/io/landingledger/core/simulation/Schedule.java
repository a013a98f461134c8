package io.landingledger.core.simulation;

import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A schedule is its choice sequence: the answers to every choice the {@link Scheduler} asked, in order, with the
 * trailing defaults (zeros) dropped since a replay takes 0 once a sequence runs out. Same model, same
 * {@link Config}, same code under test: same schedule, step for step. A pinned schedule is only meaningful against
 * the code it was found on: change the number of port calls and the same ints choose something else (still a valid
 * schedule: out-of-range answers are clamped).
 */
public final class Schedule {
    private static final Pattern INT = Pattern.compile("-?\\d+");

    private final int[] choices;

    private Schedule(int[] choices) {
        int length = choices.length;
        while (length > 0 && choices[length - 1] == 0) {
            length--;
        }
        this.choices = Arrays.copyOf(choices, length);
    }

    public static Schedule of(int... choices) {
        return new Schedule(choices);
    }

    static Schedule of(int[] choices, int length) {
        return new Schedule(Arrays.copyOf(choices, length));
    }

    /** Reads {@link #toString()} or {@link #toJava()} output back: every integer in the text, in order. */
    public static Schedule parse(String text) {
        Matcher m = INT.matcher(text.replace("Schedule.of", ""));
        int[] values = new int[16];
        int n = 0;
        while (m.find()) {
            if (n == values.length) {
                values = Arrays.copyOf(values, n * 2);
            }
            values[n++] = Integer.parseInt(m.group());
        }
        return of(values, n);
    }

    public int[] choices() {
        return choices.clone();
    }

    int[] raw() {
        return choices;
    }

    /** Choices up to the last non-default one. */
    public int length() {
        return choices.length;
    }

    /** How many choices are not the default: preemptions, crashes, faults and non-zero model choices. */
    public int unusual() {
        int n = 0;
        for (int c : choices) {
            if (c != 0) {
                n++;
            }
        }
        return n;
    }

    /** A Java expression that rebuilds this schedule, for pinning it in a regression test. */
    public String toJava() {
        StringBuilder out = new StringBuilder("Schedule.of(");
        for (int i = 0; i < choices.length; i++) {
            out.append(i == 0 ? "" : ", ").append(choices[i]);
        }
        return out.append(')').toString();
    }

    @Override
    public String toString() {
        return Arrays.toString(choices);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Schedule s && Arrays.equals(choices, s.choices);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(choices);
    }
}
