package io.landingledger.core.simulation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A schedule as people read it: one line per thing that happened, with the acting actor. Built only when a schedule
 * is replayed for a report (exploration records nothing but the int choice sequence), so its cost is irrelevant.
 * Lines: a port call as it takes effect ({@code run#1 s3.promote ...}), an injected crash or fault and where
 * ({@code run#2 crash before s3.promote ...}), a step, a model choice, a task's end, a preemption, the violation.
 */
public final class Trace {

    /** One line: the step counter when it happened, the actor, what happened. */
    public record Line(int step, String actor, String text) {
        @Override
        public String toString() {
            return String.format("%5d  %-12s %s", step, actor, text);
        }
    }

    private final List<Line> lines = new ArrayList<>();

    void add(int step, Actor actor, String text) {
        lines.add(new Line(step, actor == null ? "-" : actor.name(), text));
    }

    public List<Line> lines() {
        return Collections.unmodifiableList(lines);
    }

    /** The lines that are port calls, crashes, faults and steps: what an assertion on a trace usually wants. */
    public List<String> events() {
        List<String> out = new ArrayList<>();
        for (Line line : lines) {
            out.add(line.actor() + " " + line.text());
        }
        return out;
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        for (Line line : lines) {
            out.append(line).append('\n');
        }
        return out.toString();
    }
}
