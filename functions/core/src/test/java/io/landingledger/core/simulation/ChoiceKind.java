package io.landingledger.core.simulation;

/**
 * What a choice decides. Every choice's option 0 is the default, the "nothing unusual happens" option, so that an
 * all-zero sequence is the plain sequential schedule, a schedule's simplicity can be measured by its non-zero choices,
 * and a choice sequence that runs out replays on as zeros. The kind lets a {@link ChoiceSource} weigh options (random
 * mode switches, crashes and faults with configured probabilities) and lets traces and the shrinker say what a choice
 * meant; the sequence itself is kind-free, plain ints.
 */
public enum ChoiceKind {
    /** Which enabled actor runs next when none is running (start, a task ended or blocked, a step ran). Free. */
    PICK,
    /** Whether the task at a yield point continues (0) or another actor preempts it (1..n-1). */
    SWITCH,
    /** Whether the task at a yield point crashes: 0 no, 1 before the call, 2 after the call took effect. */
    CRASH,
    /** Whether the call at a yield point faults: 0 no, 1 before the call, 2 after the call took effect. */
    FAULT,
    /** A choice the model asked for with {@link Scheduler#choose(int)}. */
    MODEL
}
