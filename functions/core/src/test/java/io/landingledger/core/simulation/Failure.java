package io.landingledger.core.simulation;

/**
 * A violation an exploration found, as reported: how to get it back (the seed in random mode, the choice sequence in
 * any mode), and the shrunk schedule with its readable trace.
 *
 * @param where      which schedule found it, e.g. {@code random schedule 812 of base seed 42}
 * @param seed       the failing schedule's own seed in random mode ({@link Explorer#replaySeed}), else null
 * @param found      the schedule as found
 * @param shrunk     the simplest schedule that still fails the same way, replayed with its trace (the found one when
 *                   shrinking is off)
 * @param shrinkRuns replays shrinking took
 */
public record Failure(String where, Long seed, Outcome found, Outcome shrunk, int shrinkRuns) {

    public Violation violation() {
        return shrunk.violation() != null ? shrunk.violation() : found.violation();
    }

    /** Seed, both choice sequences, the Java literal to pin the schedule, and the shrunk schedule's trace. */
    public String describe() {
        StringBuilder out = new StringBuilder();
        out.append("VIOLATION in ").append(where).append(": ").append(found.violation().describe()).append('\n');
        if (seed != null) {
            out.append("schedule seed: ").append(seed).append("L (Explorer.replaySeed)\n");
        }
        out.append("found:  ").append(found.schedule()).append(" (").append(found.schedule().length())
                .append(" choices, ").append(found.steps()).append(" steps)\n");
        out.append("shrunk: ").append(shrunk.schedule()).append(" (").append(shrunk.schedule().length())
                .append(" choices, ").append(shrunk.schedule().unusual()).append(" not default, ")
                .append(shrunk.steps()).append(" steps) after ").append(shrinkRuns).append(" replays\n");
        out.append("choices: ").append(shrunk.choicesExplained()).append('\n');
        out.append("pin it:  explorer.replay(").append(shrunk.schedule().toJava()).append(")\n");
        if (shrunk.violation() == null) {
            out.append("NOT REPRODUCED on replay: the model or the code under test is not deterministic\n");
        } else {
            out.append("violation: ").append(shrunk.violation().describe()).append('\n');
        }
        if (shrunk.trace() != null) {
            out.append("trace:\n").append(shrunk.trace());
        }
        return out.toString();
    }

    @Override
    public String toString() {
        return describe();
    }
}
