package io.landingledger.core.simulation;

/**
 * The bounds and probabilities of an exploration. Immutable; {@link #defaults()} then the {@code with} methods.
 *
 * <p>Bounds apply in both modes (they shape which choices are offered at all, so a schedule found in random mode is
 * within them too); the probabilities only steer random mode.
 *
 * @param maxSteps             yield points plus atomic steps one schedule may take; reaching it is a violation (a
 *                             livelock, or a task that never ends) unless {@code stepLimitIsViolation} is false, when
 *                             the schedule is just abandoned and counted as truncated
 * @param stepLimitIsViolation see {@code maxSteps}
 * @param maxPreemptions       CHESS-style preemption bound: switches away from a task that could have continued.
 *                             Switching after a task ended, blocked or after an atomic step is free
 * @param stepsPreempt         whether running a step while a task could continue counts as a preemption (true: the
 *                             bound covers the environment too; false: steps may run at any yield point, which
 *                             multiplies the space by their placements)
 * @param maxCrashes           crashes per schedule (every crash kills its task: one per task at most anyway)
 * @param maxFaults            injected faults per schedule
 * @param crashAfter           whether a crash may also come after a write took effect (the Lambda died before it
 *                             saw the response); reads offer only a crash before, the two being indistinguishable
 * @param faultAfter           whether a fault may also come after a write took effect (a lost response)
 * @param switchProbability    random mode: chance a task at a yield point is preempted
 * @param crashProbability     random mode: chance a task crashes at a yield point (within {@code maxCrashes})
 * @param faultProbability     random mode: chance a call faults at a yield point (within {@code maxFaults})
 * @param maxSchedules         exhaustive mode stops after this many schedules (the report then says incomplete)
 * @param shrink               whether a violation is shrunk before it is reported
 * @param maxShrinkRuns        replays the shrinker may spend
 * @param threads              schedules run in parallel, each on its own driver (default 1). With more than one the
 *                             model factory is called concurrently (it must not share mutable state between
 *                             models), and the outcome stays deterministic: the same violation is reported (the
 *                             first in schedule order: the lowest random index, the depth-first-first exhaustive
 *                             schedule) and, without a violation, the same schedule count and digest; only how many
 *                             schedules ran before a violation was found varies
 */
public record Config(int maxSteps, boolean stepLimitIsViolation, int maxPreemptions, boolean stepsPreempt,
                     int maxCrashes, int maxFaults, boolean crashAfter, boolean faultAfter,
                     double switchProbability, double crashProbability, double faultProbability,
                     long maxSchedules, boolean shrink, int maxShrinkRuns, int threads) {

    public Config {
        if (maxSteps < 1 || maxPreemptions < 0 || maxCrashes < 0 || maxFaults < 0 || maxSchedules < 1
                || maxShrinkRuns < 0 || threads < 1) {
            throw new IllegalArgumentException("negative or empty bound: " + this);
        }
        for (double p : new double[] {switchProbability, crashProbability, faultProbability}) {
            if (!(p >= 0 && p <= 1)) {
                throw new IllegalArgumentException("probability outside [0, 1]: " + this);
            }
        }
    }

    /** 10,000 steps (a violation), no preemption bound, no crashes, no faults, shrinking on, one thread. */
    public static Config defaults() {
        return new Config(10_000, true, Integer.MAX_VALUE, true, 0, 0, true, true, 0.2, 0.03, 0.03,
                Long.MAX_VALUE, true, 20_000, 1);
    }

    public Config withMaxSteps(int v) {
        return new Config(v, stepLimitIsViolation, maxPreemptions, stepsPreempt, maxCrashes, maxFaults, crashAfter,
                faultAfter, switchProbability, crashProbability, faultProbability, maxSchedules, shrink,
                maxShrinkRuns, threads);
    }

    public Config withStepLimitIsViolation(boolean v) {
        return new Config(maxSteps, v, maxPreemptions, stepsPreempt, maxCrashes, maxFaults, crashAfter, faultAfter,
                switchProbability, crashProbability, faultProbability, maxSchedules, shrink, maxShrinkRuns,
                threads);
    }

    public Config withMaxPreemptions(int v) {
        return new Config(maxSteps, stepLimitIsViolation, v, stepsPreempt, maxCrashes, maxFaults, crashAfter,
                faultAfter, switchProbability, crashProbability, faultProbability, maxSchedules, shrink,
                maxShrinkRuns, threads);
    }

    public Config withStepsPreempt(boolean v) {
        return new Config(maxSteps, stepLimitIsViolation, maxPreemptions, v, maxCrashes, maxFaults, crashAfter,
                faultAfter, switchProbability, crashProbability, faultProbability, maxSchedules, shrink,
                maxShrinkRuns, threads);
    }

    public Config withMaxCrashes(int v) {
        return new Config(maxSteps, stepLimitIsViolation, maxPreemptions, stepsPreempt, v, maxFaults, crashAfter,
                faultAfter, switchProbability, crashProbability, faultProbability, maxSchedules, shrink,
                maxShrinkRuns, threads);
    }

    public Config withMaxFaults(int v) {
        return new Config(maxSteps, stepLimitIsViolation, maxPreemptions, stepsPreempt, maxCrashes, v, crashAfter,
                faultAfter, switchProbability, crashProbability, faultProbability, maxSchedules, shrink,
                maxShrinkRuns, threads);
    }

    public Config withCrashAfter(boolean v) {
        return new Config(maxSteps, stepLimitIsViolation, maxPreemptions, stepsPreempt, maxCrashes, maxFaults, v,
                faultAfter, switchProbability, crashProbability, faultProbability, maxSchedules, shrink,
                maxShrinkRuns, threads);
    }

    public Config withFaultAfter(boolean v) {
        return new Config(maxSteps, stepLimitIsViolation, maxPreemptions, stepsPreempt, maxCrashes, maxFaults,
                crashAfter, v, switchProbability, crashProbability, faultProbability, maxSchedules, shrink,
                maxShrinkRuns, threads);
    }

    public Config withSwitchProbability(double v) {
        return new Config(maxSteps, stepLimitIsViolation, maxPreemptions, stepsPreempt, maxCrashes, maxFaults,
                crashAfter, faultAfter, v, crashProbability, faultProbability, maxSchedules, shrink, maxShrinkRuns,
                threads);
    }

    public Config withCrashProbability(double v) {
        return new Config(maxSteps, stepLimitIsViolation, maxPreemptions, stepsPreempt, maxCrashes, maxFaults,
                crashAfter, faultAfter, switchProbability, v, faultProbability, maxSchedules, shrink, maxShrinkRuns,
                threads);
    }

    public Config withFaultProbability(double v) {
        return new Config(maxSteps, stepLimitIsViolation, maxPreemptions, stepsPreempt, maxCrashes, maxFaults,
                crashAfter, faultAfter, switchProbability, crashProbability, v, maxSchedules, shrink, maxShrinkRuns,
                threads);
    }

    public Config withMaxSchedules(long v) {
        return new Config(maxSteps, stepLimitIsViolation, maxPreemptions, stepsPreempt, maxCrashes, maxFaults,
                crashAfter, faultAfter, switchProbability, crashProbability, faultProbability, v, shrink,
                maxShrinkRuns, threads);
    }

    public Config withShrink(boolean v) {
        return new Config(maxSteps, stepLimitIsViolation, maxPreemptions, stepsPreempt, maxCrashes, maxFaults,
                crashAfter, faultAfter, switchProbability, crashProbability, faultProbability, maxSchedules, v,
                maxShrinkRuns, threads);
    }

    public Config withMaxShrinkRuns(int v) {
        return new Config(maxSteps, stepLimitIsViolation, maxPreemptions, stepsPreempt, maxCrashes, maxFaults,
                crashAfter, faultAfter, switchProbability, crashProbability, faultProbability, maxSchedules, shrink,
                v, threads);
    }

    public Config withThreads(int v) {
        return new Config(maxSteps, stepLimitIsViolation, maxPreemptions, stepsPreempt, maxCrashes, maxFaults,
                crashAfter, faultAfter, switchProbability, crashProbability, faultProbability, maxSchedules, shrink,
                maxShrinkRuns, v);
    }
}
