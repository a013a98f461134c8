package io.landingledger.core.simulation;

/**
 * Decides every nondeterministic choice of one schedule. The {@link Scheduler} asks only when there are at least two
 * options, records every answer (so any schedule, however it was chosen, can be replayed from its recorded
 * {@link Schedule}), and clamps answers into range, so a source may return anything.
 */
public interface ChoiceSource {

    /**
     * @param kind     what the choice decides (option 0 is always the default)
     * @param options  how many options there are, at least 2
     * @param position how many choices this schedule has made before this one
     * @return the option taken; out-of-range answers are clamped to {@code [0, options)}
     */
    int choose(ChoiceKind kind, int options, int position);
}
