package io.landingledger.core.simulation;

/**
 * Replays a recorded choice sequence and takes the default (0) once it runs out. Used to replay a found schedule, by
 * the shrinker (whose edited sequences may run out early or hold values that no longer fit: the scheduler clamps
 * them, so every int sequence is some schedule), and by exhaustive mode, which replays a prefix from scratch and
 * explores what follows it.
 */
final class ReplayChoices implements ChoiceSource {
    private final int[] choices;

    ReplayChoices(int[] choices) {
        this.choices = choices;
    }

    @Override
    public int choose(ChoiceKind kind, int options, int position) {
        return position < choices.length ? choices[position] : 0;
    }
}
